// What every test of a contended project checks of its chain (parked and forwarded appends): gapless
// seqs, a chain that verifies, every acknowledged append stored exactly as acknowledged, and each
// writer's notes in the order it appended them.
import { expect } from 'vitest';
import { type AppendResult, Journal, verifyProject } from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { spawnWriter, type Writer } from '../fixtures/writers.js';

export const PROJECT = 'hot';

/** Writer `w`'s `n`th plain append: a kind no projection reads. */
export const note = (w: number, n: number) => ({
  kind: 'test.note',
  body: { writer: w, n },
  actor: `writer-${w}`,
});

/** Gapless seqs 1..total, a chain that verifies, and every ack stored exactly as acknowledged. */
export async function expectChained(store: Store, acks: readonly AppendResult[], total: number) {
  const journal = new Journal(store);
  const report = await verifyProject(journal, PROJECT);
  expect(report.broken).toBeNull();
  expect(report).toMatchObject({ ok: true, checked: total });
  const rows = await store.all<{ seq: string; hash: string; body: string }>(
    'SELECT seq, hash, body FROM journal_entries WHERE project = $1 ORDER BY seq',
    [PROJECT],
  );
  expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  const stored = new Map(rows.map((r) => [Number(r.seq), r]));
  expect(new Set(acks.map((a) => a.entry.seq)).size).toBe(acks.length);
  for (const { entry } of acks) {
    const row = stored.get(entry.seq)!;
    expect(row.hash).toBe(entry.hash);
    expect(JSON.parse(row.body)).toEqual(entry.body);
  }
  expect(
    Number((await store.all<{ n: string }>('SELECT COUNT(*) AS n FROM journal_parked'))[0]!.n),
  ).toBe(0);
}

/** Every writer's notes after the first entry are in the chain in the order it appended them. */
export async function expectWriterOrder(store: Store) {
  const rows = await store.all<{ body: string }>(
    'SELECT body FROM journal_entries WHERE project = $1 AND seq > 1 ORDER BY seq',
    [PROJECT],
  );
  const seen = new Map<number, number>();
  for (const { body } of rows) {
    const { writer: w, n } = JSON.parse(body) as { writer: number; n: number };
    expect(n).toBe((seen.get(w) ?? -1) + 1);
    seen.set(w, n);
  }
}

/**
 * Four writer processes (`append-loop.mjs <mode> 4`) appending to PROJECT, SIGKILLed in turn six
 * times (each replaced by a fresh one) `pauseMs` to twice that apart, then all at once: what they
 * acknowledged, each key at its seq. None may have failed.
 */
export async function killWritersInTurn(
  location: string,
  mode: 'plain' | 'forward' | 'forward-tls',
  pauseMs: number,
): Promise<Map<string, number>> {
  const acked = new Map<string, number>();
  const spawnAll = async (n: number): Promise<Writer[]> => {
    const ws = Array.from({ length: n }, () => spawnWriter(location, PROJECT, mode, '4'));
    for (const w of ws) await w.waitFor('ready');
    for (const w of ws) w.go();
    for (const w of ws) await w.waitFor('appending');
    return ws;
  };
  let writers = await spawnAll(4);
  for (let kill = 0; kill < 6; kill++) {
    await new Promise((r) => setTimeout(r, pauseMs + Math.floor(Math.random() * pauseMs)));
    const victim = writers[kill % writers.length]!;
    victim.child.kill('SIGKILL');
    expect((await victim.exited).signal).toBe('SIGKILL');
    for (const { key, seq } of victim.acks()) acked.set(key, seq);
    writers = [...writers.filter((w) => w !== victim), ...(await spawnAll(1))];
  }
  for (const w of writers) {
    w.child.kill('SIGKILL');
    await w.exited;
    expect(w.lines.filter((l) => l.startsWith('fatal'))).toEqual([]);
    for (const { key, seq } of w.acks()) acked.set(key, seq);
  }
  return acked;
}

/**
 * `a` and `b` (plain journals, no forwarding) append in turn until `b`'s head is stale, then `b`
 * once more: that append parks and its chain takes first whatever killed writers left parked.
 */
export async function chainLeftovers(a: Journal, b: Journal): Promise<void> {
  await a.append(PROJECT, note(8, 0));
  await b.append(PROJECT, note(9, 0));
  await a.append(PROJECT, note(8, 1));
  await b.append(PROJECT, note(9, 1)); // stale: contended from here
  await b.append(PROJECT, note(9, 2)); // parked: chains what was left parked first
}
