import { afterEach, describe, expect, it } from 'vitest';
import { CanonryError } from '../../src/core/index.js';
import {
  bodySchema,
  checkedPart,
  defineEntryKind,
  EntryKinds,
  Journal,
  type JournalEntry,
  type Projection,
  rebuildProject,
  verifyProject,
} from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { COUNTERS, count, createCounters, projectionRows } from '../helpers/journal.js';
import { ENGINES } from '../helpers/stores.js';

const { integer, object, text } = bodySchema;

interface CountBody {
  readonly name: string;
  readonly by: number;
}

/** The counters projection's kind, as a module would declare it. */
const COUNT = defineEntryKind<CountBody>({
  kind: 'test.count',
  version: 1,
  schema: object({ name: text, by: integer }),
});

/** A second version: `by` became `step`; version-1 entries read as version 2. */
const COUNT_V2 = defineEntryKind<{ readonly name: string; readonly step: number }, CountBody>({
  kind: 'test.count',
  version: 2,
  schema: object({ name: text, step: integer }),
  previous: { kind: COUNT, upgrade: (old) => ({ name: old.name, step: old.by }) },
});

async function failure(promise: Promise<unknown>): Promise<CanonryError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof CanonryError) return err;
    throw err;
  }
  throw new Error('expected a CanonryError');
}

describe('an entry kind', () => {
  it('is stored under its name at version 1 and under <name>.v<n> after', () => {
    expect(COUNT.kind).toBe('test.count');
    expect(COUNT_V2.kind).toBe('test.count.v2');
    expect(COUNT_V2.name).toBe('test.count');
    expect(COUNT_V2.previous.map((k) => k.kind)).toEqual(['test.count']);
    // Every stored kind a version reads: its own first.
    expect(COUNT_V2.kinds).toEqual(['test.count.v2', 'test.count']);
    expect(COUNT.kinds).toEqual(['test.count']);
  });

  it('checks a body and names where it failed and which rule refused it', () => {
    expect(COUNT.check({ name: 'x', by: 1 })).toEqual({ ok: true, value: { name: 'x', by: 1 } });
    const bad = COUNT.check({ name: 'x', by: 'one' });
    expect(bad).toMatchObject({
      ok: false,
      issues: [{ kind: 'test.count', path: '/by', schema_path: '#/properties/by/type' }],
    });
  });

  it('refuses two different kinds under one stored name', () => {
    const twin = defineEntryKind<CountBody>({ kind: 'test.count', version: 1, schema: {} });
    expect(() => new EntryKinds([COUNT, twin])).toThrow(/declared twice/);
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`typed entries on ${engine.name}`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    afterEach(async () => {
      await store.close();
      await cleanup();
    });
    const open = async (projections: readonly Projection[] = [COUNTERS]) => {
      ({ store, cleanup } = await engine.fresh());
      await createCounters(store);
      return new Journal(store, { projections, kinds: new EntryKinds([COUNT]) });
    };

    it('appends a typed input and reads its body back through the kind', async () => {
      const journal = await open();
      const { entry } = await journal.append(
        'alpha',
        COUNT.input({ name: 'x', by: 2 }, { actor: 'tester' }),
      );
      const [read] = await journal.read('alpha');
      expect(COUNT.is(read!)).toBe(true);
      expect(COUNT.body(read!)).toEqual({ name: 'x', by: 2 });
      expect(COUNT.body(entry)).toEqual({ name: 'x', by: 2 });
      expect(await projectionRows(store, 'alpha')).toEqual({
        counters: [{ name: 'x', value: 2, last_seq: 1 }],
      });
    });

    it('refuses an unregistered kind and a body that is not its kind, appending nothing', async () => {
      const journal = await open();
      const unknown = await failure(
        journal.append('alpha', { kind: 'test.other', body: {}, actor: 'tester' }),
      );
      expect(unknown.code).toBe('UNKNOWN_ENTRY_KIND');
      expect(unknown.details).toEqual({ kind: 'test.other' });
      const shape = await failure(journal.append('alpha', count('x', 'two' as never)));
      expect(shape.code).toBe('INVALID_ENTRY');
      expect(shape.details).toMatchObject({ kind: 'test.count', path: '/by' });
      // In a batch, one bad body refuses the batch (all or none).
      const batch = await failure(
        journal.appendAll('alpha', [count('x'), { ...count('y'), body: { name: 'y' } }]),
      );
      expect(batch.details).toMatchObject({ kind: 'test.count', path: '' });
      expect((await journal.head('alpha')).seq).toBe(0);
    });

    it('fails a rebuild at the seq of a stored body that does not match its kind', async () => {
      // Written by a journal that did not check (as bodies were before kinds were typed).
      const untyped = await open();
      const loose = new Journal(store, { projections: [COUNTERS] });
      await untyped.append('alpha', count('x'));
      await untyped.append('alpha', count('y', 3));
      await loose.append('alpha', { ...count('z'), body: { name: 'z', by: '4' } });
      await untyped.append('alpha', count('x'));
      const before = await projectionRows(store, 'alpha');
      // The chain itself verifies: the entry is what was written, it is its body that is wrong.
      expect((await verifyProject(untyped, 'alpha')).ok).toBe(true);
      const err = await failure(rebuildProject(untyped, 'alpha'));
      expect(err.code).toBe('ENTRY_BODY_INVALID');
      expect(err.details).toEqual({
        seq: 3,
        kind: 'test.count',
        path: '/by',
        schema_path: '#/properties/by/type',
        message: 'must be integer',
      });
      expect(err.message).toMatch(/nothing rebuilt/);
      expect(await projectionRows(store, 'alpha')).toEqual(before);
    });

    it('fails a rebuild at an entry a projection reads whose kind nobody registered', async () => {
      const loose = await open();
      await new Journal(store, { projections: [COUNTERS] }).append('alpha', count('x'));
      const other = new Journal(store, {
        projections: [COUNTERS],
        kinds: new EntryKinds([COUNT_V2]).register(
          defineEntryKind<CountBody>({ kind: 'test.unrelated', version: 1, schema: {} }),
        ),
      });
      expect(loose.kinds?.names()).toEqual(['test.count']);
      // COUNT_V2 registers COUNT with it: version-1 entries still replay.
      await expect(rebuildProject(other, 'alpha')).resolves.toMatchObject({ entries: 1 });
      const narrow = new Journal(store, {
        projections: [{ ...COUNTERS, kinds: '*' }],
        kinds: new EntryKinds([COUNT_V2.previous[0]!]),
      });
      await new Journal(store).append('alpha', { kind: 'test.stray', body: 1, actor: 't' });
      const err = await failure(rebuildProject(narrow, 'alpha'));
      expect(err.code).toBe('UNKNOWN_ENTRY_KIND');
      expect(err.details).toEqual({ seq: 2, kind: 'test.stray' });
    });

    it('reads version-1 entries as version 2, and their hashes never change', async () => {
      const journal = await open();
      const v1 = await journal.append('alpha', COUNT.input({ name: 'x', by: 5 }, { actor: 't' }));
      const upgraded = new Journal(store, { kinds: new EntryKinds([COUNT_V2]) });
      const v2 = await upgraded.append(
        'alpha',
        COUNT_V2.input({ name: 'y', step: 1 }, { actor: 't' }),
      );
      const [first, second] = await upgraded.read('alpha');
      expect(first!.hash).toBe(v1.entry.hash);
      expect(first!.kind).toBe('test.count');
      expect(second!.kind).toBe('test.count.v2');
      expect(COUNT_V2.body(first!)).toEqual({ name: 'x', step: 5 });
      expect(COUNT_V2.body(second!)).toEqual({ name: 'y', step: 1 });
      expect(COUNT.is(second!)).toBe(false);
      expect(() => COUNT.body(second!)).toThrow(CanonryError);
      expect(v2.entry.seq).toBe(2);
      expect((await verifyProject(upgraded, 'alpha')).ok).toBe(true);
    });

    it('refuses a projection that reads a kind the journal does not register', async () => {
      await open();
      const reads: Projection = { ...COUNTERS, kinds: ['test.count', 'test.missing'] };
      expect(
        () => new Journal(store, { projections: [reads], kinds: new EntryKinds([COUNT]) }),
      ).toThrow(/test\.missing/);
    });
  });
}

describe('parts a module checked already (checkedPart)', () => {
  /** What the declaring module checked itself, by identity. */
  const vouched = new WeakSet<object>();
  const ITEM = object({ name: text });
  const BATCH = defineEntryKind<{ items: { name: string }[] }>({
    kind: 'test.batch',
    version: 1,
    schema: object({ items: { type: 'array', items: checkedPart('test.batch.item', ITEM) } }),
    checked: { 'test.batch.item': (v) => vouched.has(v) },
  });

  it('checks any other object against the part schema, naming the rule that refused it', () => {
    expect(BATCH.check({ items: [{ name: 'a' }] }).ok).toBe(true);
    expect(BATCH.check({ items: [{ name: 'a' }, { name: 1 }] })).toMatchObject({
      ok: false,
      issues: [{ path: '/items/1/name', message: 'must be string' }],
    });
    expect(BATCH.check({ items: ['text'] })).toMatchObject({
      ok: false,
      issues: [{ path: '/items/0' }],
    });
  });

  it('takes the module at its word for its objects on append, and checks them all on replay', async () => {
    const { store, cleanup } = await ENGINES[0]!.fresh();
    try {
      const journal = new Journal(store, { kinds: new EntryKinds([BATCH]) });
      // Vouched for but not what the schema says: only a module that lies gets this far.
      const lie = { name: 7 } as unknown as { name: string };
      vouched.add(lie);
      await journal.append('alpha', BATCH.input({ items: [{ name: 'a' }] }, { actor: 't' }));
      await journal.append('alpha', BATCH.input({ items: [lie] }, { actor: 't' }));
      // Read back, the body is new objects nobody vouched for: checked whole, and refused.
      const [first, second] = await journal.read('alpha');
      expect(BATCH.body(first!)).toEqual({ items: [{ name: 'a' }] });
      let err: unknown;
      try {
        BATCH.body(second!);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CanonryError);
      expect((err as CanonryError).code).toBe('ENTRY_BODY_INVALID');
      expect((err as CanonryError).details).toMatchObject({ seq: 2, path: '/items/0/name' });
    } finally {
      await store.close();
      await cleanup();
    }
  });

  it('refuses one part name declared with two meanings', () => {
    expect(() =>
      defineEntryKind({
        kind: 'test.other',
        version: 1,
        schema: {},
        checked: { 'test.batch.item': () => true },
      }),
    ).toThrow(/checked part test\.batch\.item is declared twice/);
  });
});

describe('entry kind summaries', () => {
  const LABELLED = defineEntryKind<{ id: string; secret: string }>({
    kind: 'test.labelled',
    version: 1,
    schema: object({ id: text, secret: text }),
    summary: (b) => ({ id: b.id }),
  });
  const kinds = new EntryKinds([LABELLED, COUNT]);
  const entry = (kind: string, body: unknown) =>
    ({ project: 'p', seq: 1, kind, body }) as unknown as JournalEntry;

  it('show what the kind names, nothing for a kind without one, a bad body or an unknown kind', () => {
    expect(kinds.summaryOf(entry('test.labelled', { id: 'a', secret: 's' }))).toEqual({ id: 'a' });
    expect(kinds.summaryOf(entry('test.labelled', { id: 7, secret: 's' }))).toBeNull();
    expect(kinds.summaryOf(entry('test.count', { name: 'x', by: 1 }))).toBeNull();
    expect(kinds.summaryOf(entry('test.other', { id: 'a' }))).toBeNull();
  });
});
