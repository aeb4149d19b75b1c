// Plain appends to a project whose head several processes contend for (PostgreSQL): once a writer
// sees another move the head, its plain appends park and are chained in batches by whoever holds the
// head (append-parked.ts). Whatever path each append took, the chain must be gapless and verify,
// every acknowledged append must be stored exactly as acknowledged, and a row parked by a process
// that died must still be chained, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppendResult, Journal, verifyProject } from '../../src/journal/index.js';
import { PostgresStore, type Store, type StoreNotifications } from '../../src/store/index.js';
import { Keyring } from '../../src/trust/index.js';
import { requireBuilt } from '../fixtures/writers.js';
import { tempDir } from '../helpers/runtime.js';
import { ENGINES, perTest } from '../helpers/stores.js';
import {
  chainLeftovers,
  expectChained,
  expectWriterOrder,
  killWritersInTurn,
  note,
  PROJECT,
} from './contended-chain.js';

const postgres = ENGINES.find((e) => e.name === 'postgres')!;

let keyring: Keyring;
let keyDir: { dir: string; cleanup: () => void };
beforeAll(async () => {
  keyDir = tempDir();
  keyring = await Keyring.init(keyDir.dir);
});
afterAll(() => keyDir.cleanup());

const { defer, fresh: freshStore } = perTest();
const fresh = () => freshStore(postgres);

/** A writer as a separate `canonry serve` would be: its own store with one connection, its own journal. */
function writer(location: string, checkpointEvery?: number): Journal {
  const store = new PostgresStore({ connectionString: location, max: 1 });
  defer(() => store.close().catch(() => undefined));
  return new Journal(
    store,
    checkpointEvery ? { signer: () => keyring.signer(), checkpointEvery } : {},
  );
}

/** What a writer sent, in order: its statements (a `canonry_chain` and what it returned) and announcements. */
type Sent =
  | {
      readonly what: 'chain';
      readonly at: number;
      /** Who sent it: the writer's leading loop, or an append of its own (after a look-up). */
      readonly by: 'leader' | 'own';
      state?: string;
      /** When its answer came, and how many rows it chained. */
      done?: number;
      took?: number;
    }
  | {
      readonly what: 'park';
      readonly at: number;
      /** A park may chain (the head was free): as for a chain. */
      state?: string;
      done?: number;
      took?: number;
    }
  | { readonly what: 'resolve' | 'other'; readonly at: number }
  | {
      readonly what: 'announce';
      readonly at: number;
      /** Places of other writers' rows (not a feed notification, nor a writer saying it stopped). */
      readonly placing: boolean;
      done?: number;
    };

/** Whether a notification announces places to writers: on the parked channel, not a writer stopping. */
function placing(channel: string, payloads: readonly string[]): boolean {
  if (channel !== 'canonry_parked') return false;
  const head = JSON.parse(payloads.at(-1)!.split('\n')[0]!) as [string, boolean];
  return head[1] === false;
}

/** A statement by what it does in append-parked.ts. */
const kindOf = (sql: string): Sent['what'] =>
  sql.includes('canonry_chain(')
    ? 'chain'
    : sql.includes('canonry_park(') || sql.includes('INSERT INTO journal_parked')
      ? 'park'
      : sql.includes('parked_id = $2')
        ? 'resolve'
        : 'other';

/**
 * A writer whose store logs, with times, every statement and transaction it sends and every
 * announcement. When `deaf` it never hears a notification (as a process whose LISTEN connection
 * keeps dropping would); with `announceAfterMs` its announcements take that long to go out (a busy
 * notification connection; never, when infinite: one that hangs).
 */
function observed(
  location: string,
  options: { deaf?: boolean; announceAfterMs?: number } = {},
): {
  journal: Journal;
  log: Sent[];
  sent: () => number;
  asked: () => number;
  listening: () => number;
} {
  const store = new PostgresStore({ connectionString: location, max: 1 });
  defer(() => store.close().catch(() => undefined));
  const log: Sent[] = [];
  // Channels the journal listens on now.
  let listening = 0;
  const notifications = store.notifications;
  const slow = options.announceAfterMs;
  const notify: StoreNotifications['notify'] =
    slow === undefined
      ? notifications.notify.bind(notifications)
      : async (channel, payloads) => {
          const sent: Sent = {
            what: 'announce',
            at: performance.now(),
            placing: placing(channel, payloads),
          };
          log.push(sent);
          await new Promise((r) => {
            if (Number.isFinite(slow)) setTimeout(r, slow);
          });
          await notifications.notify(channel, payloads);
          sent.done = performance.now();
        };
  const watched: StoreNotifications = {
    listen: (channel, handlers) => {
      if (options.deaf) return () => undefined;
      listening++;
      const stop = notifications.listen(channel, handlers);
      return () => {
        listening--;
        stop();
      };
    },
    notify,
  };
  const view = new Proxy(store, {
    get(target, key) {
      if (key === 'notifications') return watched;
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'all' || key === 'run' || key === 'transaction') {
        return async (...args: unknown[]) => {
          const what = kindOf(typeof args[0] === 'string' ? args[0] : '');
          const entry = { what, at: performance.now() } as Sent;
          if (entry.what === 'chain') (entry as { by: string }).by = chainedBy(new Error().stack);
          log.push(entry);
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (entry.what === 'chain' || entry.what === 'park') {
            const row = (result as { state: string; places?: string | null }[])[0];
            entry.state = row?.state;
            entry.took = row?.places ? row.places.split('\n').filter(Boolean).length : 0;
            entry.done = performance.now();
          }
          return result;
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  const count = (what?: Sent['what']) =>
    log.filter((e) => e.what !== 'announce' && (what === undefined || e.what === what)).length;
  return {
    journal: new Journal(view),
    log,
    sent: () => count(),
    asked: () => count('resolve'),
    listening: () => listening,
  };
}

/**
 * Who sent a `canonry_chain`, from the stack it was sent on: an append of the writer's own chains
 * from its look-up (`#resolve`); the loop of a leading writer, from `go` in `#lead`. The log cannot
 * tell them apart by order: on one connection a leader's statement may come between an append's
 * look-up and its chain.
 */
function chainedBy(stack: string | undefined): 'leader' | 'own' {
  const frames = (stack ?? '').split('\n');
  if (frames.some((frame) => frame.includes('#resolve'))) return 'own';
  if (frames.some((frame) => /\bat go \(/.test(frame))) return 'leader';
  throw new Error(`a canonry_chain sent from neither a look-up nor a leader:\n${stack}`);
}

/** How many times a leader that finds nothing parked chains again before it stops (LINGER + 1). */
const IDLE_CHAINS = 5;

/** The most announcements a leader waits for before it chains again (`append-parked.ts`). */
const ANNOUNCED_ROUNDS = 4;

/**
 * The chains a writer made while leading a project, each with the time from the announcement its
 * leader waited for to the chain, and whether that announcement was out by then. A leader waits
 * for the places of the chain before, announced as its answer came: the loop's last chain when it
 * took rows, or, for the first chain of a loop, the append's own chain (or park) that took other
 * writers' rows and so started it — and for any such chain this writer's appends made while it
 * waited. A chain after one that found nothing parked is left out: the loop was
 * lingering, and waited for whatever announcement was out of this writer at the time.
 */
function leaderChains(log: readonly Sent[]): { waited: number; out: boolean }[] {
  const chains: { waited: number; out: boolean }[] = [];
  const sentChains = log.filter((e): e is Sent & { what: 'chain' } => e.what === 'chain');
  let previous: (Sent & { what: 'chain' }) | undefined;
  let idle = 0;
  for (const sent of sentChains) {
    if (sent.by !== 'leader') continue;
    const last = previous;
    previous = sent;
    const lingering = last?.state === 'idle' && idle < IDLE_CHAINS;
    idle = sent.state === 'idle' ? (lingering ? idle + 1 : 1) : 0;
    if (lingering || last?.state === 'checkpoint') continue;
    const after = last?.done ?? Number.NEGATIVE_INFINITY;
    const before =
      last?.state === 'chained'
        ? last
        : log.find(
            (e): e is Sent & { what: 'chain' | 'park' } =>
              (e.what === 'park' || (e.what === 'chain' && e.by === 'own')) &&
              e.state === 'chained' &&
              (e.took ?? 0) > 1 &&
              e.done !== undefined &&
              e.done > after &&
              e.done <= sent.at,
          );
    const since = before?.done;
    if (since === undefined) continue;
    // The last before the chain: an append of this writer may have chained other writers' rows
    // while the leader waited, and the writers that chain placed are the ones still hearing of it.
    const announced = log.findLast(
      (e): e is Sent & { what: 'announce' } =>
        e.what === 'announce' && e.placing && e.at >= since && e.at <= sent.at,
    );
    if (!announced) continue;
    // A leader waits for at most ANNOUNCED_ROUNDS announcements in all (append-parked.ts): the one
    // pending when it began and those made while it waited (its own appends chaining other
    // writers' rows). With that many made while it waited, it may chain right after the last, as
    // it is meant to.
    const made = log.filter(
      (e) => e.what === 'announce' && e.placing && e.at >= since && e.at <= sent.at,
    ).length;
    if (made >= ANNOUNCED_ROUNDS) continue;
    chains.push({
      waited: sent.at - announced.at,
      out: announced.done !== undefined && announced.done <= sent.at,
    });
  }
  return chains;
}

/** Every writer appends `each` notes, one after the other, all writers at once: their acks. */
async function eachAppending(
  journals: readonly Journal[],
  each: number,
  first = 0,
): Promise<AppendResult[]> {
  const acks: AppendResult[] = [];
  await Promise.all(
    journals.map(async (journal, w) => {
      for (let n = first; n < first + each; n++)
        acks.push(await journal.append(PROJECT, note(w, n)));
    }),
  );
  return acks;
}

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Two writers and four appends, in turn: b's second append fails its compare-and-set, so b counts
 * the head as contended and its plain appends park from here.
 */
async function contendedPair(location: string): Promise<[Journal, Journal]> {
  const a = writer(location);
  const b = writer(location);
  await a.append(PROJECT, note(0, 0));
  await b.append(PROJECT, note(1, 0));
  await a.append(PROJECT, note(0, 1));
  await b.append(PROJECT, note(1, 1));
  return [a, b];
}

/** How many appends ever went through the parking table (its id sequence). */
async function parkedEver(store: Store): Promise<number> {
  const [row] = await store.all<{ last_value: string; is_called: boolean }>(
    'SELECT last_value, is_called FROM journal_parked_id_seq',
  );
  return row!.is_called ? Number(row!.last_value) : 0;
}

/** Parked rows no chain has taken yet. */
async function unplaced(store: Store): Promise<number> {
  const [row] = await store.all<{ n: string }>(
    'SELECT COUNT(*) AS n FROM journal_parked WHERE seq IS NULL',
  );
  return Number(row!.n);
}

describe.skipIf(!postgres.available)('plain appends on a contended head (PostgreSQL)', () => {
  it('8 writers × 60 plain appends to one project: parked, chained in batches, gapless, verifies', async () => {
    const { store, location } = await fresh();
    const writers = Array.from({ length: 8 }, () => writer(location));
    // The project's head exists before the writers race for it.
    await writers[0]!.append(PROJECT, note(0, -1));
    const acks: AppendResult[] = [];
    await Promise.all(
      writers.map(async (journal, w) => {
        for (let n = 0; n < 60; n++) acks.push(await journal.append(PROJECT, note(w, n)));
      }),
    );
    const parked = await parkedEver(store);
    console.log(`[parked-appends] 480 appends, ${parked} through the parking table`);
    // Contention was seen and the parking path carried appends (not every one: a writer parks only
    // after it has seen another move the head).
    expect(parked).toBeGreaterThan(0);
    await expectChained(store, acks, 481);
    await expectWriterOrder(store);
  });

  it('2 processes with pools of 4 and 8 appends in flight each: every place reaches its writer, in order per producer', async () => {
    const { store, location } = await fresh();
    const journals = [0, 1].map(() => {
      const pool = new PostgresStore({ connectionString: location, max: 4 });
      defer(() => pool.close().catch(() => undefined));
      return new Journal(pool);
    });
    await journals[0]!.append(PROJECT, note(0, -1));
    const acks: AppendResult[] = [];
    await Promise.all(
      journals.flatMap((journal, j) =>
        Array.from({ length: 8 }, async (_, p) => {
          for (let n = 0; n < 30; n++) acks.push(await journal.append(PROJECT, note(j * 8 + p, n)));
        }),
      ),
    );
    expect(await parkedEver(store)).toBeGreaterThan(0);
    await expectChained(store, acks, 481);
    await expectWriterOrder(store);
  });

  it('parked writers learn their places from the announcements: about one statement an append', async () => {
    const { store, location } = await fresh();
    const writers = Array.from({ length: 8 }, () => observed(location));
    await writers[0]!.journal.append(PROJECT, note(0, -1));
    const acks = await eachAppending(
      writers.map((w) => w.journal),
      60,
    );
    await expectChained(store, acks, 481);
    const sent = writers.reduce((sum, w) => sum + w.sent(), 0);
    console.log(`[parked-appends] 480 appends: ${sent} statements and transactions sent`);
    // Each append parks with one statement; a writer that chains adds one per chain and one
    // announcement. Claiming every place from the database (as before) took ~2.7 an append.
    expect(sent / 481).toBeLessThan(2);
  });

  it('writers that hear no announcement find their rows in the database; forged and garbled announcements change nothing', async () => {
    const { store, location } = await fresh();
    const writers = [
      observed(location, { deaf: true }),
      observed(location, { deaf: true }),
      observed(location),
      observed(location),
    ];
    await writers[0]!.journal.append(PROJECT, note(0, -1));
    // A hostile process on the same database announces wrong places for the rows about to be
    // parked, and garbage.
    const [next] = await store.all<{ n: string }>(
      'SELECT last_value AS n FROM journal_parked_id_seq',
    );
    const fake = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`;
    const forged = Array.from({ length: 300 }, (_, i) => {
      const id = Number(next!.n) + i;
      return `${JSON.stringify([PROJECT, false])}\n${id} ${i + 2} ${fake(i)} ${fake(i + 1)}\n`;
    });
    const garbage = [
      'not json',
      '["hot"]\nabc def',
      '[1,2]\n1 2 3 4',
      `${JSON.stringify([PROJECT, true])}`,
    ];
    let forging = true;
    const forger = (async () => {
      for (let i = 0; forging; i = (i + 10) % forged.length) {
        await store.notifications!.notify('canonry_parked', [
          ...forged.slice(i, i + 10),
          ...garbage,
        ]);
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    const acks: AppendResult[] = [];
    try {
      await Promise.all(
        writers.map(async ({ journal }, w) => {
          for (let n = 0; n < 30; n++) acks.push(await journal.append(PROJECT, note(w, n)));
        }),
      );
    } finally {
      forging = false;
      await forger;
    }
    await expectChained(store, acks, 121);
    // The deaf writers waited in vain and asked the database where their rows were.
    expect(await parkedEver(store)).toBeGreaterThan(30);
    console.log(
      `[parked-appends] asked the database: deaf ${writers[0]!.asked()}, ${writers[1]!.asked()}; hearing ${writers[2]!.asked()}, ${writers[3]!.asked()}`,
    );
    expect(writers[0]!.asked() + writers[1]!.asked()).toBeGreaterThan(0);
  });

  it('a writer listens for places while it parks, and stops once no head of its is contended', async () => {
    const { location } = await fresh();
    const a = observed(location);
    const b = observed(location);
    for (let n = 0; n < 3; n++) {
      await a.journal.append(PROJECT, note(0, n));
      await b.journal.append(PROJECT, note(1, n)); // stale from the second on: contended
    }
    expect(b.listening()).toBe(1);
    // A listening connection is woken by every notification of the database: 2 s after the last
    // contention (and a quiet check, every 500 ms), b lets it go.
    const since = Date.now();
    while (b.listening() > 0 && Date.now() - since < 5_000) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(b.listening()).toBe(0);
    expect(Date.now() - since).toBeGreaterThan(1_000);
    // Contended again, it listens again, and its parked appends still land.
    await a.journal.append(PROJECT, note(0, 3));
    await b.journal.append(PROJECT, note(1, 3));
    expect(b.listening()).toBe(1);
    await b.journal.append(PROJECT, note(1, 4));
    const report = await verifyProject(new Journal(a.journal.store), PROJECT);
    expect(report).toMatchObject({ ok: true, checked: 9 });
  });

  it('a writer leading a project chains again once its announcement is out (5 ms at most): the writers it placed park first', async () => {
    const { store, location } = await fresh();
    // Announcements take 10 ms to go out: longer than a leader waits for one.
    const writers = Array.from({ length: 4 }, () => observed(location, { announceAfterMs: 10 }));
    await writers[0]!.journal.append(PROJECT, note(0, -1));
    // Rounds of 30 appends a writer until leaders have chained again at least 5 times (how often
    // a writer leads depends on the scheduling; 10 rounds at most).
    const acks: AppendResult[] = [];
    const led = () => writers.flatMap(({ log }) => leaderChains(log));
    for (let round = 0; round < 10 && (round === 0 || led().length < 5); round++) {
      const journals = writers.map((w) => w.journal);
      acks.push(...(await eachAppending(journals, 30, round * 30)));
    }
    await expectChained(store, acks, 1 + acks.length);
    // A leader's next chain waits for the announcement of its last one: until it is out, or
    // ANNOUNCED_MS (5 ms; a timer may fire up to 1 ms early). Chaining at once, it would follow the
    // announcement by a few hundredths of a millisecond.
    const chains = led();
    const waits = chains.map(({ waited, out }) => (out ? Number.POSITIVE_INFINITY : waited));
    console.log(
      `[parked-appends] a leader's next chain, looked at ${chains.length} times: waited ${Math.min(...waits).toFixed(2)} ms at least, ${median(waits).toFixed(2)} ms median`,
    );
    expect(chains.length).toBeGreaterThanOrEqual(5);
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(3);
  });

  it('a leader whose announcements never go out still chains on, ANNOUNCED_MS after each', async () => {
    const { store, location } = await fresh();
    const writers = Array.from({ length: 3 }, () =>
      observed(location, { announceAfterMs: Number.POSITIVE_INFINITY }),
    );
    // In turn, twice: each writer sees another move the head, and its plain appends park from here.
    for (let n = 0; n < 2; n++) {
      for (const [w, { journal }] of writers.entries()) await journal.append(PROJECT, note(w, n));
    }
    let appends: Promise<AppendResult[]> | undefined;
    await store.transaction(async (tx) => {
      // The head is held: one append of each writer parks, and none can chain.
      await tx.all('SELECT seq FROM journal_heads WHERE project = $1 FOR UPDATE', [PROJECT]);
      appends = Promise.all(writers.map(({ journal }, w) => journal.append(PROJECT, note(w, 2))));
      while ((await unplaced(store)) < 3) await new Promise((r) => setTimeout(r, 5));
    });
    // Nobody hears a place: the parked writers ask the database, and the first to chain takes the
    // three rows and leads on — its next chain comes all the same, the wait being bounded.
    await appends;
    const report = await verifyProject(new Journal(store), PROJECT);
    expect(report).toMatchObject({ ok: true, checked: 9 });
    expect(writers.flatMap(({ log }) => log).some((e) => e.what === 'announce' && e.done)).toBe(
      false,
    );
    // The parked writers may find their rows before the leader's next chain comes (a loaded host):
    // it is waited for, up to a bound well past the longest wait allowed below.
    const chainsAfter = () =>
      writers.flatMap(({ log }) => leaderChains(log).map(({ waited }) => waited));
    const until = performance.now() + 3_000;
    while (chainsAfter().length === 0 && performance.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const waits = chainsAfter();
    expect(waits.length).toBeGreaterThan(0);
    expect(median(waits)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...waits)).toBeLessThan(1_000);
  });

  it('a parked row the database lost (an unlogged table emptied by a crash) fails its append, never acknowledged', async () => {
    const { store, location } = await fresh();
    const [, b] = await contendedPair(location);
    let outcome: Promise<unknown> | undefined;
    await store.transaction(async (tx) => {
      // The head is held, so b's append stays parked; then its row goes as a crash would take it.
      await tx.all('SELECT seq FROM journal_heads WHERE project = $1 FOR UPDATE', [PROJECT]);
      outcome = b.append(PROJECT, note(1, 2)).then(
        () => 'acknowledged',
        (error: Error) => error.message,
      );
      while ((await unplaced(store)) === 0) await new Promise((r) => setTimeout(r, 5));
      await store.run('DELETE FROM journal_parked');
    });
    expect(await outcome).toMatch(/neither parked nor chained .*not appended/);
    const report = await verifyProject(new Journal(store), PROJECT);
    expect(report).toMatchObject({ ok: true, checked: 4 });
  });

  it('a row parked by a process that died is chained by the next writer, once', async () => {
    const { store, location } = await fresh();
    const a = writer(location);
    const b = writer(location);
    await a.append(PROJECT, note(0, 0));
    // b's view of the head is now stale: its next append fails a compare-and-set and marks the head
    // contended, so the appends after it park.
    await b.append(PROJECT, note(1, 0));
    await a.append(PROJECT, note(0, 1));
    // What a writer that died after parking leaves behind: an unplaced row with canonical texts.
    await store.run(
      `INSERT INTO journal_parked (project, at, kind, actor, correlation_id, body, authority, receipt)
       VALUES ($1, '2026-12-02T00:00:00.000Z', 'test.note', 'writer-dead', NULL, '{"orphan":true}', 'null', 'null')`,
      [PROJECT],
    );
    const acks: AppendResult[] = [];
    acks.push(await b.append(PROJECT, note(1, 1)));
    acks.push(await b.append(PROJECT, note(1, 2)));
    const rows = await store.all<{ seq: string; actor: string; body: string }>(
      'SELECT seq, actor, body FROM journal_entries WHERE project = $1 ORDER BY seq',
      [PROJECT],
    );
    expect(rows.filter((r) => r.actor === 'writer-dead')).toHaveLength(1);
    expect(await parkedEver(store)).toBeGreaterThanOrEqual(2);
    const report = await verifyProject(new Journal(store), PROJECT);
    expect(report).toMatchObject({ ok: true, checked: 6 });
    for (const { entry } of acks) {
      expect(JSON.parse(rows.find((r) => Number(r.seq) === entry.seq)!.body)).toEqual(entry.body);
    }
  });

  it('the database builds each entry byte for byte as canonry does, whatever the strings hold', async () => {
    const { store, location } = await fresh();
    const [, b] = await contendedPair(location);
    const before = await parkedEver(store);
    const strings = [
      'quote " backslash \\ slash /',
      'controls \u0001\u0008\u0009\u000a\u000c\u000d\u001f and DEL \u007f',
      'line separators \u2028\u2029',
      'é ß 中文 😀 \ud83d\ude00',
      'x'.repeat(256),
    ];
    const acks: AppendResult[] = [];
    for (const [i, text] of strings.entries()) {
      acks.push(
        await b.append(PROJECT, {
          kind: 'test.note',
          // PostgreSQL text columns refuse NUL; inside a body it is an escape like any other.
          body: { text, nul: `${text}\u0000`, nested: { list: [text, i, null, true, 1.5e-7] } },
          actor: text,
          authority: { role: text },
          correlation_id: text,
          receipt: { warnings: [text] },
        }),
      );
    }
    // Each went through the database's chain and its hash was checked against canonry's own.
    expect((await parkedEver(store)) - before).toBe(strings.length);
    const report = await verifyProject(new Journal(store), PROJECT);
    expect(report).toMatchObject({ ok: true, checked: 4 + strings.length });
    const rows = await store.all<{ seq: string; hash: string; actor: string }>(
      'SELECT seq, hash, actor FROM journal_entries WHERE project = $1 AND seq > 4 ORDER BY seq',
      [PROJECT],
    );
    expect(rows.map((r) => r.actor)).toEqual(strings);
    expect(rows.map((r) => r.hash)).toEqual(acks.map((a) => a.entry.hash));
  });

  it('a checkpoint falls due inside the parked chains: the writer that reaches it signs it', async () => {
    const { store, location } = await fresh();
    const writers = Array.from({ length: 6 }, () => writer(location, 7));
    await writers[0]!.append(PROJECT, note(0, -1));
    const acks: AppendResult[] = [];
    await Promise.all(
      writers.map(async (journal, w) => {
        for (let n = 0; n < 30; n++) acks.push(await journal.append(PROJECT, note(w, n)));
      }),
    );
    expect(await parkedEver(store)).toBeGreaterThan(0);
    await expectChained(store, acks, 181);
    // Every 7th entry has its signed checkpoint, over the hash the chain holds at that seq.
    const checkpoints = (await writers[0]!.checkpoints(PROJECT)) as {
      seq: number;
      head_hash: string;
    }[];
    const due = Array.from({ length: Math.floor(181 / 7) }, (_, i) => (i + 1) * 7);
    expect(checkpoints.map((c) => c.seq)).toEqual(expect.arrayContaining(due));
    const hashes = new Map(
      (
        await store.all<{ seq: string; hash: string }>(
          'SELECT seq, hash FROM journal_entries WHERE project = $1',
          [PROJECT],
        )
      ).map((r) => [Number(r.seq), r.hash]),
    );
    for (const c of checkpoints) expect(c.head_hash).toBe(hashes.get(c.seq));
  });

  it('4 writer processes, SIGKILLed in turn while parked appends are in flight: nothing acknowledged lost', async () => {
    requireBuilt();
    const { store, location } = await fresh();
    await new Journal(store).append(PROJECT, note(0, -1));
    const acked = await killWritersInTurn(location, 'plain', 150);
    // What the killed writers left parked lands with the next parked chain of the project.
    const orphans = await unplaced(store);
    await chainLeftovers(writer(location), writer(location));
    const rows = await store.all<{ seq: string; body: string }>(
      'SELECT seq, body FROM journal_entries WHERE project = $1 ORDER BY seq',
      [PROJECT],
    );
    expect(rows.map((r) => Number(r.seq))).toEqual(
      Array.from({ length: rows.length }, (_, i) => i + 1),
    );
    const stored = new Map(
      rows.map((r) => [(JSON.parse(r.body) as { key?: string }).key, Number(r.seq)]),
    );
    expect([...acked].filter(([key, seq]) => stored.get(key) !== seq)).toEqual([]);
    expect(acked.size).toBeGreaterThan(50);
    expect(await parkedEver(store)).toBeGreaterThan(0);
    const report = await verifyProject(new Journal(store), PROJECT);
    expect(report.broken).toBeNull();
    expect(await unplaced(store)).toBe(0);
    console.log(
      `[parked-appends] 10 SIGKILLs, ${acked.size} acknowledged, ${rows.length} entries, ${await parkedEver(store)} parked, ${orphans} left by the killed and chained later`,
    );
  }, 120_000);
});
