// The scripted classifier's derived ids (src/canon/classify/derive.ts): with no subject configured,
// a decision, instruction or preference becomes a note whose id comes from its sentence, by the
// documented rule — and only when the message names no other current object.
import { describe, expect, it } from 'vitest';
import {
  type CanonObject,
  type Classification,
  type MessageRole,
  OBJECT_ID,
  ScriptedClassifier,
} from '../../src/canon/index.js';
import { sha256Hex } from '../../src/core/index.js';
import { message } from '../fixtures/models/classify-inputs.js';

async function classify(
  text: string,
  { role = 'user', canon = [], using = new ScriptedClassifier() } = {} as {
    role?: MessageRole;
    canon?: CanonObject[];
    using?: ScriptedClassifier;
  },
): Promise<Classification> {
  const result = await using.classify({ message: message(text, role), canon });
  if (!result.ok) throw new Error(result.issues.join('; '));
  return result.value;
}

const ids = (c: Classification) => c.drafts.map((d) => d.object_id);

function object(id: string, title: string, type: CanonObject['object_type']): CanonObject {
  return {
    object_id: id,
    object_type: type,
    schema_version: 1,
    current_version_ref: `sha256:${'1'.repeat(64)}`,
    version_id: 1,
    authority_basis: null,
    confidence_state: 'asserted',
    visibility: 'project',
    source_refs: [],
    dependency_refs: [],
    created_at: '2030-01-01T00:00:00.000Z',
    effective_from: null,
    effective_until: null,
    status: 'active',
    title,
    text: title,
    superseded_by: null,
  };
}

describe('derived ids', () => {
  it('take the sentence without its cue and leading fillers, by object type', async () => {
    for (const [text, id, title] of [
      ['We decided to ship on Fridays.', 'decision.ship-on-fridays', 'Ship on Fridays'],
      ['Always run the tests before merging.', 'instruction.run-the-tests-before-merging', null],
      ['We must not deploy on Fridays.', 'constraint.deploy-on-fridays', null],
      ["I'd like a red interface.", 'preference.red-interface', 'Red interface'],
      ['We decided: Café Crème für alle!', 'decision.cafe-creme-fur-alle', null],
      [
        'We decided to keep every single release note short and sweet forever.',
        'decision.keep-every-single-release-note-short',
        null,
      ],
    ] as const) {
      const c = await classify(text);
      expect(ids(c), text).toEqual([id]);
      expect(c.touched).toEqual([id]);
      expect(OBJECT_ID.test(id)).toBe(true);
      expect(c.drafts[0]).toMatchObject({
        intent: 'create',
        candidate: { text, status: 'active', confidence_state: 'asserted' },
      });
      if (title) expect(c.drafts[0]!.candidate.title).toBe(title);
    }
  });

  it('fall back to a hash of the sentence when no ASCII word is left; the same sentence, the same id', async () => {
    const text = 'We decided: 決定。';
    const c = await classify(text);
    expect(ids(c)).toEqual([`decision.s-${sha256Hex(text).slice(0, 8)}`]);
    expect(ids(await classify(text))).toEqual(ids(c));
  });

  it('one draft per cue sentence, at most 8; a machine suggestion is provisional and inferred', async () => {
    const c = await classify('We decided to use Postgres. We decided to ship weekly.');
    expect(ids(c)).toEqual(['decision.use-postgres', 'decision.ship-weekly']);
    const many = Array.from({ length: 12 }, (_, i) => `We decided on plan ${i}.`).join(' ');
    expect((await classify(many)).drafts).toHaveLength(8);
    const machine = await classify('Maybe we could cache the results.', { role: 'assistant' });
    expect(machine.drafts[0]).toMatchObject({
      object_id: 'preference.cache-the-results',
      candidate: { status: 'provisional', confidence_state: 'inferred' },
    });
  });

  it('an update when the derived note exists; nothing when the message names another object', async () => {
    const existing = object('decision.ship-on-fridays', 'Ship on Fridays', 'decision');
    const again = await classify("We've decided: ship on Fridays!", { canon: [existing] });
    expect(again.drafts[0]).toMatchObject({ object_id: existing.object_id, intent: 'update' });
    const font = object('ux.font', 'Body typeface', 'decision');
    const other = await classify('The typeface must stay legible.', { canon: [font] });
    expect([other.touched, other.drafts]).toEqual([['ux.font'], []]);
    const moved = await classify('From now on we ship on Mondays, not Fridays.', {
      canon: [existing],
    });
    expect(moved).toMatchObject({
      outcome: 'supersede_request',
      drafts: [{ intent: 'supersede', supersedes: ['decision.ship-on-fridays'] }],
    });
  });

  it('facts, questions and disputes derive nothing; subjects turn it off unless derive_ids says so', async () => {
    expect((await classify('According to the review, builds take 4 minutes.')).drafts).toEqual([]);
    expect((await classify('Should we ship on Fridays?')).drafts).toEqual([]);
    const subjects = {
      'ui.colour': { title: 'Colour', object_type: 'preference', keywords: ['red'] },
    } as const;
    const configured = new ScriptedClassifier({ subjects });
    expect(
      (await classify('We decided to ship on Fridays.', { using: configured })).drafts,
    ).toEqual([]);
    const both = new ScriptedClassifier({ subjects, derive_ids: true });
    expect(ids(await classify('We decided to ship on Fridays.', { using: both }))).toEqual([
      'decision.ship-on-fridays',
    ]);
    const off = new ScriptedClassifier({ subjects: {}, derive_ids: false });
    expect((await classify('We decided to ship on Fridays.', { using: off })).drafts).toEqual([]);
    expect(() => new ScriptedClassifier({ subjects: {}, derive_ids: 'yes' })).toThrow();
  });
});
