// A relay window replays from the journal alone: each window journals the hash of the messages
// the model was asked with (the context packet) and the model's raw answers (retries included,
// the output text not copied twice); the coordinator's `relay.window` events carry the hash; a
// replay over the journaled answers matches, a tampered answer differs at the state digest, a
// changed prompt at the context packet (before the state); windows journaled without them (a
// library caller, older entries) still rebuild and verify, and replaying them needs recordings.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CanonryRuntime,
  createCanonry,
  journalRelayInputs,
  type RelayReplayInputs,
  relayWindowReplayer,
} from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { canonicalize, contentHash } from '../../src/core/index.js';
import {
  EventStore,
  type QualifiedEvent,
  RELAY_WINDOW_CLASS,
  replayEvent,
} from '../../src/evolution/index.js';
import { rebuildProject, upgradeProjections } from '../../src/journal/index.js';
import { type ModelRequest, ScriptedModel } from '../../src/models/index.js';
import { ANSWER_LIMITS, type RelayWindowEntry, rawAnswer } from '../../src/relay/index.js';
import { oneFactAnswer } from '../helpers/model-answers.js';
import { tempDir } from '../helpers/runtime.js';

const PROJECT = 'replay-journal';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };

/** One section's answer: its one fact, said in the output too. */
const answer = (section: string, statement: string) =>
  oneFactAnswer(section, statement, `${section}: ${statement}.`);

const START = { mode: 'DOCUMENT', objective: 'A runbook', remaining: ['Install', 'Operate'] };

let runtime: CanonryRuntime;
let dir: string;
let cleanup: () => void;
/** The session canonry ran: window 1 took a malformed answer and then a good one. */
let ranId: string;
const given: string[] = [];
const asked: ModelRequest[] = [];
/** A session a library caller completed without saying what it sent or got. */
let bareId: string;

/** The session's windows as the journal holds them (the projection's records leave the answers out). */
async function entries(sessionId: string): Promise<RelayWindowEntry[]> {
  return runtime.relay.journaledWindows(PROJECT, sessionId, 1_000);
}

async function windowEvents(): Promise<QualifiedEvent[]> {
  await runtime.evolution!.idle();
  const store = new EventStore(runtime.store);
  const rows = await store.list(PROJECT, { limit: 500 });
  const all = await Promise.all(rows.map((r) => store.get(PROJECT, r.event_id)));
  return all.map((s) => s.event).filter((e) => e.replay?.execution_class === RELAY_WINDOW_CLASS);
}

function eventFor(events: QualifiedEvent[], sessionId: string, n: number): QualifiedEvent {
  const found = events.find(
    (e) => e.outcome.session_id === sessionId && e.outcome.window_number === n,
  );
  if (!found) throw new Error(`no event for ${sessionId} window ${n}`);
  return found;
}

const replay = (event: QualifiedEvent, inputs: RelayReplayInputs | undefined) =>
  replayEvent(event, [relayWindowReplayer(() => inputs)]);

const fromJournal = async (sessionId: string, n: number) =>
  (await journalRelayInputs(runtime.relay, PROJECT, sessionId, n))!;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-replay-journal-'));
  runtime = await createCanonry({ dataDir: dir, evolution: 'on', logLevel: 'silent' });
  const script = [
    'this is not the JSON the schema asks for',
    answer('Install', 'the package is canonry'),
    answer('Operate', 'the service listens on 8080'),
  ];
  const model = new ScriptedModel([
    {
      match: () => true,
      respond: (request) => {
        asked.push(request);
        const text = script[given.length]!;
        given.push(text);
        return text;
      },
    },
  ]);
  const ran = await runtime.relay.start(AGENT, START);
  ranId = ran.session.session_id;
  await runtime.relay.run(AGENT, ranId, model, { maxWindows: 2 });

  const bare = await runtime.relay.start(AGENT, START);
  bareId = bare.session.session_id;
  const parsed = JSON.parse(answer('Install', 'the package is canonry'));
  const { output, ...contribution } = parsed;
  await runtime.relay.completeWindow(AGENT, bareId, output, contribution);
}, 60_000);

afterAll(async () => {
  await runtime?.close();
  cleanup?.();
  rmSync(dir, { recursive: true, force: true });
});

describe('what a window journals for a replay', () => {
  it('the hash of the messages sent, and every raw answer the model gave, restorable exactly', async () => {
    const [w1, w2] = await entries(ranId);
    // Window 1 was asked twice with the same messages; window 2 once.
    expect(asked).toHaveLength(3);
    expect(w1!.context_packet_hash).toBe(contentHash(asked[0]!.messages));
    expect(contentHash(asked[1]!.messages)).toBe(w1!.context_packet_hash);
    expect(w2!.context_packet_hash).toBe(contentHash(asked[2]!.messages));
    expect(w2!.context_packet_hash).not.toBe(w1!.context_packet_hash);

    expect(w1!.answers).toHaveLength(2);
    expect(w1!.answers![0]).toEqual({ text: given[0] });
    // Only the journal holds them: the projection's records, the same windows without them.
    const projected = await runtime.relay.reader(PROJECT).entries(ranId);
    expect(projected.map((w) => 'answers' in w)).toEqual([false, false]);
    expect(projected).toEqual([w1, w2].map(({ answers: _answers, ...rest }) => rest));
    expect(w1!.answers!.map((a) => rawAnswer(a, w1!.output.text))).toEqual(given.slice(0, 2));
    expect(w2!.answers!.map((a) => rawAnswer(a, w2!.output.text))).toEqual([given[2]]);
    // The output is journaled once: the taken answer is kept around it, not copied.
    for (const w of [w1!, w2!]) {
      const taken = w.answers!.at(-1)!;
      expect(taken).toHaveProperty('before');
      expect(canonicalize(taken)).not.toContain(w.output.text);
    }
  });

  it('a library caller that prepared the window gets its hash; one that did not, none', async () => {
    const [bare] = await entries(bareId);
    expect(bare!.context_packet_hash).toBeUndefined();
    expect(bare!.answers).toBeUndefined();

    const { session } = await runtime.relay.start(AGENT, START);
    const id = session.session_id;
    const prepared = await runtime.relay.prepareWindow(AGENT, id);
    expect(prepared.context_packet_hash).toBe(contentHash(prepared.messages));
    const raw = answer('Install', 'the package is canonry');
    const { output, ...contribution } = JSON.parse(raw);
    await runtime.relay.completeWindow(AGENT, id, output, contribution, { answers: [raw] });
    const [w] = await entries(id);
    expect(w!.context_packet_hash).toBe(prepared.context_packet_hash);
    expect(rawAnswer(w!.answers![0]!, w!.output.text)).toBe(raw);
  });

  it('a long answer is journaled deflated, without the output, and restored byte for byte; a tampered blob is refused', async () => {
    const { session } = await runtime.relay.start(AGENT, START);
    const id = session.session_id;
    const output = 'Install: the package is canonry.';
    const facts = Array.from({ length: 200 }, (_, i) => ({
      fact_id: `f_${i}`,
      statement: `setting ${i} of the package is ${i * 7}`,
      provenance: 'CONVERSATION',
    }));
    const raw = `${JSON.stringify({ output, facts })}\n`;
    await runtime.relay.completeWindow(
      AGENT,
      id,
      output,
      { facts, completed: ['Install'] },
      {
        answers: [raw],
      },
    );
    const [w] = await entries(id);
    const journaled = w!.answers![0]!;
    expect(journaled).toHaveProperty('deflated');
    expect(journaled).toHaveProperty('at', raw.indexOf(JSON.stringify(output)));
    expect(canonicalize(journaled).length).toBeLessThan(raw.length / 4);
    expect(rawAnswer(journaled, output)).toBe(raw);
    const bomb = { deflated: Buffer.from('not deflate data').toString('base64') };
    expect(() => rawAnswer(bomb, output)).toThrow(/cannot be read/);
  });

  it('answers past the bounds are not journaled; a malformed hash or answer list is INVALID_BODY', async () => {
    const { session } = await runtime.relay.start(AGENT, START);
    const id = session.session_id;
    const raw = answer('Install', 'the package is canonry');
    const { output, ...contribution } = JSON.parse(raw);
    await expect(
      runtime.relay.completeWindow(AGENT, id, output, contribution, {
        contextPacketHash: 'sha256:nope',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_BODY', details: { field: 'context_packet_hash' } });
    await expect(
      runtime.relay.completeWindow(AGENT, id, output, contribution, {
        answers: [7] as unknown as string[],
      }),
    ).rejects.toMatchObject({ code: 'INVALID_BODY', details: { field: 'answers' } });
    const many = Array.from({ length: ANSWER_LIMITS.answers + 1 }, () => raw);
    await runtime.relay.completeWindow(AGENT, id, output, contribution, { answers: many });
    const [w] = await entries(id);
    expect(w!.answers).toBeUndefined();
  });
});

describe('replaying a relay window from the journal alone', () => {
  it("the coordinator's events carry the context packet hash; the journaled answers replay to a match", async () => {
    const events = await windowEvents();
    const [w1, w2] = await entries(ranId);
    const e1 = eventFor(events, ranId, 1);
    const e2 = eventFor(events, ranId, 2);
    expect(e1.replay?.context_packet_hash).toBe(w1!.context_packet_hash);
    expect(e2.replay?.context_packet_hash).toBe(w2!.context_packet_hash);
    expect(eventFor(events, bareId, 1).replay?.context_packet_hash).toBeUndefined();

    for (const [event, n] of [
      [e1, 1],
      [e2, 2],
    ] as const) {
      const report = await replay(event, await fromJournal(ranId, n));
      expect(report, JSON.stringify(report)).toMatchObject({ status: 'match' });
      expect(report.compared[0]).toBe('context_packet_hash');
    }
  });

  it('a tampered answer differs at the state digest', async () => {
    const event = eventFor(await windowEvents(), ranId, 2);
    const inputs = await fromJournal(ranId, 2);
    const windows = inputs.windows!.map((w) =>
      w.window_number === 2
        ? { ...w, answers: [answer('Operate', 'the service listens on 9090')] }
        : w,
    );
    const report = await replay(event, { ...inputs, windows });
    expect(report.status === 'differ' && report.difference.path).toBe('/state_digest');
  });

  it("a changed prompt differs at the context packet, before the state: the event's own window, or an earlier one", async () => {
    const events = await windowEvents();
    const e1 = eventFor(events, ranId, 1);
    const e2 = eventFor(events, ranId, 2);
    const changed = async (n: number) => {
      const inputs = await fromJournal(ranId, n);
      return { ...inputs, session: { ...inputs.session, objective: 'A different runbook' } };
    };
    const own = await replay(e1, await changed(1));
    expect(own.status === 'differ' && own.difference).toMatchObject({
      path: '/context_packet_hash',
      expected: e1.replay!.context_packet_hash,
    });
    expect(own.status === 'differ' && own.difference.actual).not.toBe(
      e1.replay!.context_packet_hash,
    );
    const earlier = await replay(e2, await changed(2));
    expect(earlier.status === 'differ' && earlier.difference.path).toBe(
      '/windows/1/context_packet_hash',
    );
  });

  it('an answer that no longer parses (and nothing left to retry with) is named by its window', async () => {
    const event = eventFor(await windowEvents(), ranId, 2);
    const inputs = await fromJournal(ranId, 2);
    const windows = inputs.windows!.map((w) => ({ ...w, answers: ['not JSON either'] }));
    const report = await replay(event, { ...inputs, windows });
    expect(report.status === 'differ' && report.difference.path).toBe('/windows/1/answers');
  });

  it('a window journaled without its answers needs the recordings: REPLAY_INPUT_MISSING naming it', async () => {
    const event = eventFor(await windowEvents(), bareId, 1);
    await expect(replay(event, await fromJournal(bareId, 1))).rejects.toMatchObject({
      code: 'REPLAY_INPUT_MISSING',
      details: { input: 'recordings', window_number: 1 },
    });
  });

  it('reads the answers at the seq the projection names, and refuses a seq that is not the window', async () => {
    const [w1] = await entries(ranId);
    const where = 'project = $1 AND session_id = $2 AND window_number = 2';
    const [{ seq }] = await runtime.store.all<{ seq: number }>(
      `SELECT seq FROM relay_windows WHERE ${where}`,
      [PROJECT, ranId],
    );
    // Window 2's row pointing at window 1's entry: the journal's entry is not the window it names.
    const first = await runtime.relay.reader(PROJECT).seq(ranId, 1);
    await runtime.store.run(`UPDATE relay_windows SET seq = $3 WHERE ${where}`, [
      PROJECT,
      ranId,
      first,
    ]);
    try {
      await expect(runtime.relay.journaledWindows(PROJECT, ranId, 2)).rejects.toMatchObject({
        code: 'INTERNAL',
        message: expect.stringContaining('window 2'),
      });
      expect(await runtime.relay.journaledWindows(PROJECT, ranId, 1)).toEqual([w1]);
    } finally {
      await runtime.store.run(`UPDATE relay_windows SET seq = $3 WHERE ${where}`, [
        PROJECT,
        ranId,
        seq,
      ]);
    }
    expect(await entries(ranId)).toHaveLength(2);
  });

  it('a store whose window records still hold the answers (projection version 2) is rebuilt on open', async () => {
    const read = () =>
      runtime.store.all<{ window_number: number; record: string }>(
        'SELECT window_number, record FROM relay_windows WHERE project = $1 AND session_id = $2 ORDER BY window_number',
        [PROJECT, ranId],
      );
    const before = await read();
    // The rows as version 2 wrote them: each window's entry whole, its answers included.
    for (const w of await entries(ranId)) {
      await runtime.store.run(
        'UPDATE relay_windows SET record = $3 WHERE project = $1 AND session_id = $2 AND window_number = $4',
        [PROJECT, ranId, canonicalize(w), w.window_number],
      );
    }
    await runtime.store.run(
      "UPDATE journal_projection_versions SET version = 2 WHERE name = 'relay'",
      [],
    );
    expect((await read()).every((r) => r.record.includes('"answers"'))).toBe(true);
    const upgrade = await upgradeProjections(runtime.journal);
    expect(upgrade.changed.map((c) => c.name)).toEqual(['relay']);
    expect(upgrade.failed).toEqual([]);
    expect(await read()).toEqual(before);
    expect(before.some((r) => r.record.includes('"answers"'))).toBe(false);
  });

  it('entries with and without the new members rebuild to the same projection and verify', async () => {
    const before = await runtime.store.all<{ record: string }>(
      'SELECT record FROM relay_windows WHERE project = $1 ORDER BY seq',
      [PROJECT],
    );
    await runtime.store.run('DELETE FROM relay_windows WHERE project = $1', [PROJECT]);
    await rebuildProject(runtime.journal, PROJECT);
    const after = await runtime.store.all<{ record: string }>(
      'SELECT record FROM relay_windows WHERE project = $1 ORDER BY seq',
      [PROJECT],
    );
    expect(after).toEqual(before);
    expect(before.some((r) => !r.record.includes('context_packet_hash'))).toBe(true);
    expect(before.some((r) => r.record.includes('context_packet_hash'))).toBe(true);
    for (const id of [ranId, bareId]) {
      expect((await runtime.relay.verify(AGENT, id)).ok).toBe(true);
    }
  });
});
