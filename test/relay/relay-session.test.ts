import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { CanonryError, contentHash } from '../../src/core/index.js';
import { rebuildProject } from '../../src/journal/index.js';
import { ScriptedModel } from '../../src/models/index.js';
import { RelayReader } from '../../src/relay/index.js';
import { runtimeOn } from '../helpers/engine-runtime.js';
import { oneFactAnswer } from '../helpers/model-answers.js';
import { postgresAvailable } from '../helpers/stores.js';
import { atTheRevisionBound } from './revision-bound.js';

const PROJECT = 'relay-test';
const AGENT: Principal = { id: 'agent-1', project: PROJECT, role: 'agent' };
const OWNER: Principal = { id: 'owner-1', project: PROJECT, role: 'owner' };

let runtime: CanonryRuntime;
let close: () => Promise<void>;

/** A runtime on the embedded SQLite file, or on a fresh schema of the real PostgreSQL. */
async function open(engine: 'sqlite' | 'postgres'): Promise<void> {
  ({ runtime, close } = await runtimeOn(engine));
}

const fact = (fact_id: string, statement: string, extra: Record<string, unknown> = {}) => ({
  fact_id,
  statement,
  provenance: 'CONVERSATION',
  ...extra,
});

/** The §3.1 example: A "etcd v3.5 is deployed" ← B "use the v3.5 TLS syntax" ← C "new SAN format". */
async function etcdSession(maxRevisions = 3) {
  const relay = runtime.relay;
  const started = await relay.start(AGENT, {
    mode: 'AGENTIC',
    objective: 'Configure TLS for the etcd cluster',
    remaining: ['inspect the cluster', 'configure TLS', 'generate certificates'],
    max_revisions: maxRevisions,
  });
  const id = started.session.session_id;
  const w1 = await relay.completeWindow(AGENT, id, 'etcd v3.5 is deployed.', {
    facts: [fact('fact_etcd_version', 'etcd v3.5 is deployed')],
    decisions: [
      {
        decision_id: 'decision_tls_syntax',
        choice: 'use the v3.5 TLS configuration syntax',
        rationale: 'etcd v3.5 is deployed, and its TLS syntax differs from v3.4',
        alternatives: ['the v3.4 syntax'],
        depends_on: ['fact_etcd_version'],
      },
    ],
    completed: ['inspect the cluster', 'configure TLS'],
  });
  const w2 = await relay.completeWindow(AGENT, id, 'Certificates use the new SAN format.', {
    facts: [fact('fact_etcd_version', 'etcd v3.5 is deployed')],
    decisions: [
      {
        decision_id: 'decision_san_format',
        choice: 'generate certs with the new SAN format',
        rationale: 'the v3.5 TLS syntax expects the new SAN format',
        depends_on: ['decision_tls_syntax'],
      },
    ],
    completed: ['generate certificates'],
  });
  return { relay, id, w1, w2 };
}

const ENGINES = ['sqlite', ...(postgresAvailable ? ['postgres' as const] : [])] as const;

/** The pending proposals on a canon object, oldest first. */
const pendingFor = async (objectId: string) =>
  (await runtime.canon.reader(PROJECT).proposals('pending'))
    .filter((p) => p.object_id === objectId)
    .map((p) => p.proposal_id);

describe.each(ENGINES)('a relay session, end to end on %s (CRP-030 §3.1, §5, §6, §8)', (engine) => {
  beforeEach(async () => open(engine));
  afterEach(async () => close());

  it('chains each window to the one before and closes the session when nothing remains', async () => {
    const { relay, id, w1, w2 } = await etcdSession();
    expect(w1.status).toBe('relayed');
    expect(w1.cso?.prior_cso_hash).toBe((await relay.state(AGENT, id)).session.genesis);
    expect(w2.cso?.prior_cso_hash).toBe(w1.cso?.cso_hmac);
    expect(w2.headers).toMatchObject({
      'CRP-Relay-Preservation': '1.00',
      'CRP-Relay-CSO-Facts': '1',
      'CRP-Relay-CSO-Decisions': '2',
      'CRP-Relay-Dependency-Depth': '2',
    });
    expect((await relay.state(AGENT, id)).status).toBe('complete');
    await expect(relay.completeWindow(AGENT, id, 'more', {})).rejects.toMatchObject({
      code: 'SESSION_CLOSED',
    });
    // The facts and decisions are canon notes, committed as the session's agent in one batch a window.
    const note = await runtime.canon.reader(PROJECT).current(`relay.${id}.decision_san_format`);
    expect(note?.content).toMatchObject({ object_type: 'decision', visibility: 'working' });
    expect(note?.actor).toBe(`relay:${id}`);
    expect(note?.content.dependency_refs).toEqual([`relay.${id}.decision_tls_syntax`]);
  });

  it("reads the last windows' output and quality from their own columns, as their records hold them", async () => {
    const { relay, id } = await etcdSession();
    const reader = relay.reader(PROJECT);
    const lean = await reader.recent(id, 8);
    expect(lean).toHaveLength(2);
    expect(lean.map((w) => w.output.text)).toEqual([
      'etcd v3.5 is deployed.',
      'Certificates use the new SAN format.',
    ]);
    const records = await reader.entries(id);
    expect(lean).toEqual(records.map(({ output, quality }) => ({ output, quality })));
    // Rows written before the columns existed are read from their records.
    await runtime.store.run('UPDATE relay_windows SET output = NULL, quality = NULL', []);
    expect(await reader.recent(id, 8)).toEqual(lean);
    expect(await reader.recent(id, 1)).toEqual(lean.slice(1));
  });

  it('keeps the last window it relayed: served without parsing its row while the row is that entry', async () => {
    const { relay, id } = await etcdSession();
    const kept = await relay.window(PROJECT, id, 2);
    // What it keeps is what the projection holds for that window, as JSON.
    const read = await relay.reader(PROJECT).window(id, 2);
    expect(JSON.parse(JSON.stringify(kept))).toStrictEqual(JSON.parse(JSON.stringify(read)));
    const all = vi.spyOn(runtime.store, 'all');
    expect(await relay.window(PROJECT, id, 2)).toBe(kept);
    const records = all.mock.calls.filter(([sql]) =>
      /SELECT record\b.*FROM relay_windows/.test(sql),
    );
    all.mockRestore();
    expect(records).toEqual([]);
    // A row that is another entry now (its seq moved) is read again, never served from memory.
    await runtime.store.run(
      'UPDATE relay_windows SET seq = seq + 1000 WHERE project = $1 AND session_id = $2 AND window_number = 2',
      [PROJECT, id],
    );
    const again = await relay.window(PROJECT, id, 2);
    expect(again).not.toBe(kept);
    expect(again).toStrictEqual(read);
  });

  it('supersedes a premise, dispatches revision windows premise first, and records REVISION events', async () => {
    const relay = runtime.relay;
    const started = await relay.start(AGENT, {
      mode: 'AGENTIC',
      objective: 'Configure TLS for the etcd cluster',
      remaining: ['inspect the cluster', 'configure TLS', 'generate certificates', 'roll out'],
    });
    const id = started.session.session_id;
    await relay.completeWindow(AGENT, id, 'The cluster runs etcd v3.5.', {
      facts: [fact('fact_etcd_version', 'etcd v3.5 is deployed')],
      decisions: [
        {
          decision_id: 'decision_tls_syntax',
          choice: 'use the v3.5 TLS configuration syntax',
          rationale: 'etcd v3.5 is deployed',
          depends_on: ['fact_etcd_version'],
        },
      ],
      completed: ['inspect the cluster', 'configure TLS'],
    });
    await relay.completeWindow(AGENT, id, 'Certificates next.', {
      facts: [fact('fact_etcd_version', 'etcd v3.5 is deployed')],
      decisions: [
        {
          decision_id: 'decision_san_format',
          choice: 'generate certs with the new SAN format',
          rationale: 'the v3.5 TLS syntax expects it',
          depends_on: ['decision_tls_syntax'],
        },
      ],
      completed: ['generate certificates'],
    });
    const w3 = await relay.completeWindow(AGENT, id, 'Actually the deployment is v3.4.', {
      facts: [
        fact('fact_etcd_v34', 'the deployment is etcd v3.4', { supersedes: ['fact_etcd_version'] }),
      ],
    });
    expect(w3.status).toBe('relayed');
    const flagged = w3.cso!.decisions.filter((d) => d.needs_revision).map((d) => d.decision_id);
    expect(flagged.sort()).toEqual(['decision_san_format', 'decision_tls_syntax']);
    // canon's cascade reached the same decisions through its edge index
    // canon's cascade reached the same decisions through its edge index
    const reader = runtime.canon.reader(PROJECT);
    const states = await reader.dependencyStates();
    const cascaded = [...states.values()]
      .filter((s) => s.state === 'needs_revision' && s.id.startsWith(`relay.${id}.decision`))
      .map((s) => s.id.slice(`relay.${id}.`.length))
      .sort();
    expect(cascaded).toEqual(flagged.sort());
    const tlsNote = await reader.object(`relay.${id}.fact_etcd_version`);
    expect(tlsNote?.status).toBe('superseded');

    // The premise is revised first (§6.2), given the new fact.
    const p4 = await relay.prepareWindow(AGENT, id);
    expect(p4.kind).toBe('revision');
    expect(p4.revision_target).toBe('decision_tls_syntax');
    expect(p4.goal_state.objective).toBe(
      'revise decision decision_tls_syntax given new fact fact_etcd_v34',
    );
    const text = p4.messages.map((m) => m.content).join('\n');
    expect(text).toContain('the deployment is etcd v3.4');
    expect(text).toContain('etcd v3.5 is deployed'); // the original rationale, given to revise
    const w4 = await relay.completeWindow(AGENT, id, 'Use the v3.4 syntax.', {
      decisions: [
        {
          decision_id: 'decision_tls_syntax_r1',
          choice: 'use the v3.4 TLS configuration syntax',
          rationale: 'the deployment is etcd v3.4',
          depends_on: ['fact_etcd_v34'],
          revises: 'decision_tls_syntax',
        },
      ],
    });
    expect(w4.headers['CRP-Relay-Revisions']).toBe('1');
    expect(w4.headers['CRP-Relay-Revision-Target']).toBe('decision_tls_syntax');
    expect(w4.revisions).toEqual([
      expect.objectContaining({
        target: 'decision_tls_syntax',
        revised_by: 'decision_tls_syntax_r1',
        new_fact: 'fact_etcd_v34',
        count: 1,
      }),
    ]);
    expect((await reader.object(`relay.${id}.decision_tls_syntax`))?.status).toBe('superseded');
    // What the revision window had to do was held to its structure (it revised its target), not
    // to its prose: its remaining ids are not read as text nobody wrote (CRP-018 completeness),
    // so no goal residual is carried on to the next window for them.
    expect(p4.goal_state.remaining).toEqual(['decision_tls_syntax', 'decision_san_format']);
    expect(w4.signals!.completeness).toEqual({ score: 1, covered: [], uncovered: [] });
    expect(w4.quality!.packet?.iap.goal_residual ?? null).toBeNull();

    const p5 = await relay.prepareWindow(AGENT, id);
    expect(p5.revision_target).toBe('decision_san_format');
    // The window's projection rows: inserted, never updated (the session's row aside), and on
    // PostgreSQL written in one round trip, whatever lists changed.
    const relayWrites: string[] = [];
    const roundTrips: number[] = [];
    const note = (sql: string) => {
      const [verb, table] =
        sql.match(/^\s*(INSERT INTO|UPDATE|DELETE FROM)\s+(relay_\w+)/)?.slice(1) ?? [];
      if (verb && table) relayWrites.push(`${verb.split(' ')[0]} ${table}`);
      return verb !== undefined && table !== undefined;
    };
    const original = runtime.store.transaction.bind(runtime.store);
    const transaction = vi.spyOn(runtime.store, 'transaction').mockImplementation((work, options) =>
      original((tx) => {
        const together = tx.runTogether?.bind(tx);
        return work({
          ...tx,
          all: (sql, params) => {
            if (note(sql)) roundTrips.push(1);
            return tx.all(sql, params);
          },
          run: (sql, params) => {
            if (note(sql)) roundTrips.push(1);
            return tx.run(sql, params);
          },
          ...(together && {
            runTogether: (writes) => {
              if (writes.filter((w) => note(w.sql)).length > 0) roundTrips.push(writes.length);
              return together(writes);
            },
          }),
        });
      }, options),
    );
    const w5 = await relay
      .completeWindow(AGENT, id, 'Keep the SAN format.', {
        decisions: [
          {
            decision_id: 'decision_san_format_r1',
            choice: 'generate certs with the v3.4 SAN format',
            rationale: 'the v3.4 syntax expects it',
            depends_on: ['decision_tls_syntax_r1'],
            revises: 'decision_san_format',
          },
        ],
      })
      .finally(() => transaction.mockRestore());
    // The window's record (its CSO's change: the revised decision's version and its edges put,
    // its old edges removed) and the session's row: nothing else of the relay is written.
    expect(relayWrites.sort()).toEqual(['INSERT relay_windows', 'UPDATE relay_sessions']);
    // On PostgreSQL one statement for the two writes; on SQLite two.
    expect(roundTrips).toEqual(engine === 'postgres' ? [2] : [1, 1]);
    expect(w5.cso!.decisions.some((d) => d.needs_revision)).toBe(false);
    const p6 = await relay.prepareWindow(AGENT, id);
    expect(p6.kind).toBe('work');
    expect(p6.goal_state.remaining).toEqual(['roll out']);

    const report = await relay.verify(AGENT, id);
    expect(report).toMatchObject({ ok: true, windows: 5, broken: null });

    // Rebuilding the projections from the journal reproduces every session exactly.
    const dump = async () =>
      runtime.store.all(
        'SELECT session_id, window_number, seq, record FROM relay_windows WHERE project = $1 ORDER BY seq',
        [PROJECT],
      );
    const before = [await dump(), await runtime.store.all('SELECT * FROM relay_sessions')];
    // Window 5's record holds what it changed, not its state: the state's items are read from the
    // records since the last full put, and every window's CSO is served from them exactly as the
    // journal's changes fold.
    const fifth = JSON.parse((before[0] as { record: string }[])[4]!.record);
    expect(fifth.state.base).toBe('prior');
    expect(fifth.state.decisions.put.map((d: { decision_id: string }) => d.decision_id)).toEqual([
      'decision_san_format_r1',
    ]);
    expect(fifth.state.dependency_graph.removed.length).toBeGreaterThan(0);
    expect(await new RelayReader(runtime.store, PROJECT).cso(fifth)).toEqual(w5.cso);
    const served = await relay.windows(AGENT, id);
    expect(served).toHaveLength(5);
    expect(served.slice(2).map((w) => w.cso.cso_hmac)).toEqual(
      [w3, w4, w5].map((w) => w.cso!.cso_hmac),
    );
    expect(served[4]!.cso).toEqual(w5.cso);
    await runtime.store.run('DELETE FROM relay_windows', []);
    await runtime.store.run("UPDATE relay_sessions SET status = 'halted', windows = 0", []);
    await rebuildProject(runtime.journal, PROJECT);
    expect([await dump(), await runtime.store.all('SELECT * FROM relay_sessions')]).toEqual(before);
  });

  it('names the window whose CSO was tampered with, and a projection that serves other than the journal', async () => {
    const { relay, id } = await etcdSession();
    const rows = await runtime.store.all<{ seq: number; body: string }>(
      "SELECT seq, body FROM journal_entries WHERE project = $1 AND kind = 'relay.window.v2' ORDER BY seq",
      [PROJECT],
    );
    expect(rows).toHaveLength(2);
    const body = JSON.parse(rows[1]!.body);
    // The window journals its change: the decision it added is in it.
    expect(body.window.state.decisions.put.map((d: any) => d.decision_id)).toEqual([
      'decision_san_format',
    ]);
    body.window.state.decisions.put[0].rationale = 'because someone said so';
    await runtime.store.run(
      'UPDATE journal_entries SET body = $1 WHERE project = $2 AND seq = $3',
      [JSON.stringify(body), PROJECT, rows[1]!.seq],
    );
    expect(await relay.verify(AGENT, id)).toMatchObject({
      ok: false,
      broken: { window_number: 2, reason: 'hmac' },
    });
    await runtime.store.run(
      'UPDATE journal_entries SET body = $1 WHERE project = $2 AND seq = $3',
      [rows[1]!.body, PROJECT, rows[1]!.seq],
    );
    expect((await relay.verify(AGENT, id)).ok).toBe(true);
    await runtime.store.run(
      "UPDATE relay_windows SET record = replace(record, 'new SAN format', 'old SAN format') WHERE window_number = 2",
      [],
    );
    expect(await relay.verify(AGENT, id)).toMatchObject({
      ok: false,
      broken: { window_number: 2, reason: 'projection' },
    });
    // What the next window is asked with is the session row: its count of windows, its record, and
    // a row that no longer parses are each named, never read as a healthy session or a crash.
    const projected = async (sql: string) => {
      const [row] = await runtime.store.all<{ windows: number; record: string }>(
        'SELECT windows, record FROM relay_sessions WHERE project = $1 AND session_id = $2',
        [PROJECT, id],
      );
      await runtime.store.run(sql, [PROJECT, id]);
      const report = await relay.verify(AGENT, id).catch((err: { code: string }) => err.code);
      await runtime.store.run(
        'UPDATE relay_sessions SET windows = $3, record = $4 WHERE project = $1 AND session_id = $2',
        [PROJECT, id, row!.windows, row!.record],
      );
      return report;
    };
    await runtime.store.run(
      "UPDATE relay_windows SET record = replace(record, 'old SAN format', 'new SAN format') WHERE window_number = 2",
      [],
    );
    expect((await relay.verify(AGENT, id)).ok).toBe(true);
    expect(
      await projected(
        'UPDATE relay_sessions SET windows = 1 WHERE project = $1 AND session_id = $2',
      ),
    ).toMatchObject({ ok: false, broken: { window_number: 2, reason: 'projection' } });
    expect(
      await projected(
        "UPDATE relay_sessions SET record = replace(record, 'A', 'B') WHERE project = $1 AND session_id = $2",
      ),
    ).toMatchObject({ ok: false, broken: { window_number: 0, reason: 'projection' } });
    // The session row unreadable: the session cannot be read at all, a typed STORE_CORRUPT.
    expect(
      await projected(
        "UPDATE relay_sessions SET record = '{not json' WHERE project = $1 AND session_id = $2",
      ),
    ).toBe('STORE_CORRUPT');
    await runtime.store.run(
      "UPDATE relay_windows SET record = '{not json' WHERE window_number = 2",
      [],
    );
    expect(await relay.verify(AGENT, id)).toMatchObject({
      ok: false,
      broken: { window_number: 2, reason: 'projection' },
    });
    // A journaled window whose body no longer passes its kind's check is named as that window.
    const unfit = JSON.parse(rows[1]!.body);
    unfit.window.state = 'not a change';
    await runtime.store.run(
      'UPDATE journal_entries SET body = $1 WHERE project = $2 AND seq = $3',
      [JSON.stringify(unfit), PROJECT, rows[1]!.seq],
    );
    expect(await relay.verify(AGENT, id)).toMatchObject({
      ok: false,
      broken: { window_number: 2, reason: 'schema' },
    });
    await runtime.store.run(
      'UPDATE journal_entries SET body = $1 WHERE project = $2 AND seq = $3',
      [rows[1]!.body, PROJECT, rows[1]!.seq],
    );
  });

  it('repairs a window that dropped prior facts and says so in its header', async () => {
    const relay = runtime.relay;
    const { session } = await relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: 'A design note',
      remaining: ['Context', 'Decision', 'Consequences'],
    });
    const id = session.session_id;
    await relay.completeWindow(AGENT, id, 'Context.', {
      facts: [
        fact('f_users', 'the service has 40,000 daily users'),
        fact('f_region', 'the service runs in one region'),
        fact('f_sla', 'the SLA is 99.9 percent'),
      ],
      completed: ['Context'],
    });
    // The window restates one fact of three: two are dropped and re-injected.
    const w2 = await relay.completeWindow(AGENT, id, 'Decision.', {
      facts: [fact('f_users', 'the service has 40,000 daily users')],
      completed: ['Decision'],
    });
    expect(w2.verification).toMatchObject({ preservation: 1 / 3, verified: true });
    expect([...w2.verification.repaired].sort()).toEqual(['f_region', 'f_sla']);
    expect(w2.headers['CRP-Relay-Preservation']).toBe('0.33; repaired=2');
    expect(w2.cso!.established_facts.map((f) => f.fact_id).sort()).toEqual([
      'f_region',
      'f_sla',
      'f_users',
    ]);
  });

  it('refuses malformed model output with nothing journaled', async () => {
    const relay = runtime.relay;
    const { session } = await relay.start(AGENT, {
      mode: 'CONVERSATION',
      objective: 'Answer',
      remaining: ['q1'],
    });
    const head = await runtime.journal.head(PROJECT);
    const model = new ScriptedModel([
      { match: () => true, respond: () => '{"output": 3, "facts": "no"}' },
    ]);
    await expect(relay.run(AGENT, session.session_id, model)).rejects.toMatchObject({
      code: 'MODEL_OUTPUT_INVALID',
    });
    await expect(
      relay.completeWindow(AGENT, session.session_id, 'fine', { facts: [{ statement: 7 }] }),
    ).rejects.toMatchObject({ code: 'INVALID_BODY' });
    expect(await runtime.journal.head(PROJECT)).toEqual(head);
    expect((await relay.state(AGENT, session.session_id)).windows).toBe(0);
  });

  it('asks again for an answer holding a lone surrogate, and refuses one from a caller by name', async () => {
    const relay = runtime.relay;
    const plain = { mode: 'DOCUMENT', objective: 'A runbook', remaining: ['Install'] };
    for (const [start, field] of [
      [{ ...plain, objective: 'A runbook \ud800' }, 'objective'],
      [{ ...plain, remaining: ['Install', 'Oper\udc00ate'] }, 'remaining/1'],
      [{ ...plain, success_test: '\ud83d' }, 'success_test'],
    ] as const) {
      await expect(relay.start(AGENT, start)).rejects.toMatchObject({
        code: 'INVALID_BODY',
        details: { field },
      });
    }
    const { session } = await relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: 'A runbook',
      remaining: ['Install'],
    });
    const head = await runtime.journal.head(PROJECT);
    await expect(
      relay.completeWindow(AGENT, session.session_id, 'Install: cut \ud83d', {}),
    ).rejects.toMatchObject({ code: 'INVALID_BODY', details: { field: 'output' } });
    await expect(
      relay.completeWindow(AGENT, session.session_id, 'Install.', {
        facts: [{ statement: 'the port is 80\udc00' }],
      }),
    ).rejects.toMatchObject({ code: 'INVALID_BODY', details: { field: '/facts/0/statement' } });
    expect(await runtime.journal.head(PROJECT)).toEqual(head);
    // A JSON escape of half a pair (an answer cut mid-emoji, say) is malformed model output.
    const cut = oneFactAnswer('Install', 'the port is 8080').replace('8080', '8080 \\ud83d');
    const good = oneFactAnswer('Install', 'the port is 8080');
    let asked = 0;
    const model = new ScriptedModel([
      { match: () => true, respond: () => (asked++ === 0 ? cut : good) },
    ]);
    const run = await relay.run(AGENT, session.session_id, model, { maxWindows: 1 });
    expect(asked).toBe(2);
    expect(run.windows[0]!.status).toBe('relayed');
    expect(run.windows[0]!.cso!.established_facts.map((f) => f.statement)).toEqual([
      'the port is 8080',
    ]);
  });

  it('escalates a decision invalidated again at the revision bound to the owner, instead of revising it (§6.3)', async () => {
    const { relay, id, supersedeAgain } = await atTheRevisionBound(runtime, AGENT);
    const w4 = await relay.completeWindow(AGENT, id, '', supersedeAgain);
    const [escalation] = w4.revisions;
    expect(escalation).toMatchObject({ target: 'd_db2', revised_by: null, count: 1 });
    const proposalId = escalation!.escalation!.proposal_id;
    expect(w4.cso!.decisions.find((d) => d.decision_id === 'd_db2')?.escalated).toBe(proposalId);
    // No fourth revision is dispatched: the decision waits for a person.
    expect((await relay.prepareWindow(AGENT, id)).kind).toBe('work');
    const proposal = await runtime.canon.reader(PROJECT).proposal(proposalId);
    expect(proposal).toMatchObject({ status: 'pending', required_role: 'owner' });
    expect(proposal?.candidate.tags).toContain('oversight');
    await expect(runtime.canon.approve(AGENT, proposalId)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const approved = await runtime.canon.approve(OWNER, proposalId);
    expect(approved.committed?.note_id).toBe(`relay.${id}.d_db2`);
  });

  it('withdraws the escalation of a window that another window of the session beat to its commit (§6.3)', async () => {
    // Two callers complete window 4 at once (a retry racing the original, two workers): each
    // escalates d_db2 before it commits, and only one window 4 can be relayed. Neither commits
    // until both are at their commit: on a slow host the second read the session only after the
    // first had committed, and then had no window 4 to race for.
    const { relay, id, supersedeAgain: again } = await atTheRevisionBound(runtime, AGENT);
    const commit = relay.canon.proposeBatch.bind(relay.canon);
    let atCommit = 0;
    let bothAtCommit!: () => void;
    const barrier = new Promise<void>((resolve) => (bothAtCommit = resolve));
    vi.spyOn(relay.canon, 'proposeBatch').mockImplementation(async (...args) => {
      if (++atCommit === 2) bothAtCommit();
      await barrier;
      return commit(...args);
    });
    const attempts = [1, 2].map(() => relay.completeWindow(AGENT, id, '', again, { window: 4 }));
    // One refused before its commit lets the other through; the assertions below then say why.
    Promise.race(attempts).catch(() => bothAtCommit());
    const settled = await Promise.allSettled(attempts);
    expect(atCommit).toBe(2);
    const relayed = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
    expect(relayed).toHaveLength(1);
    expect(refused).toMatchObject([{ code: 'CONFLICT' }]);
    const named = relayed[0]!.cso!.decisions.find((d) => d.decision_id === 'd_db2')?.escalated;
    expect(named).toBeDefined();
    const objectId = `relay.${id}.d_db2`;
    const proposals = (await runtime.canon.reader(PROJECT).proposals()).filter(
      (p) => p.object_id === objectId,
    );
    // One question for a person, the one the relayed CSO names; the loser's was taken back by
    // the agent that made it, saying why.
    expect(proposals.filter((p) => p.status === 'pending').map((p) => p.proposal_id)).toEqual([
      named,
    ]);
    const withdrawn = proposals.filter((p) => p.status === 'rejected');
    expect(withdrawn).toHaveLength(1);
    expect(withdrawn[0]?.candidate.tags).toContain('oversight');
    expect(JSON.stringify(withdrawn[0])).toContain('window 4 of');
    // The next window is work, not a second escalation: the decision waits for the one person.
    expect((await relay.prepareWindow(AGENT, id)).kind).toBe('work');
    await runtime.canon.approve(OWNER, named!);
  });

  it('completes nothing with an output written for a window that is not next: a retry that got through, a run that was beaten', async () => {
    const relay = runtime.relay;
    const { session } = await relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: 'A runbook',
      remaining: ['Install', 'Operate', 'Upgrade'],
    });
    const id = session.session_id;
    const install = { facts: [fact('f_install', 'the install takes one command')] };
    const w1 = await relay.completeWindow(AGENT, id, 'Install.', install, { window: 1 });
    expect(w1.status).toBe('relayed');
    const head = await runtime.journal.head(PROJECT);
    // The retry of window 1 whose first response was lost, and an output written ahead.
    for (const window of [1, 3]) {
      await expect(
        relay.completeWindow(AGENT, id, 'Install.', install, { window }),
      ).rejects.toMatchObject({ code: 'CONFLICT', details: { windows: 1, window_number: window } });
    }
    for (const window of [0, 1.5, Number.MAX_SAFE_INTEGER + 1]) {
      await expect(
        relay.completeWindow(AGENT, id, 'Install.', install, { window }),
      ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    expect(await runtime.journal.head(PROJECT)).toEqual(head);
    // A run whose window 2 another worker completed while the model was writing it: the run's
    // answer was for window 2, so it completes nothing rather than window 3.
    const beaten = {
      route: 'beaten',
      async complete() {
        await relay.completeWindow(AGENT, id, 'Operate.', {
          facts: [fact('f_operate', 'the service restarts itself')],
          completed: ['Operate'],
        });
        return { text: oneFactAnswer('Operate', 'the service is operated by hand'), model: 'x' };
      },
    };
    await expect(relay.run(AGENT, id, beaten, { maxWindows: 1 })).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { windows: 2, window_number: 2 },
    });
    const state = await relay.state(AGENT, id);
    expect(state.windows).toBe(2);
    expect(state.cso!.established_facts.map((f) => f.statement)).toEqual([
      'the install takes one command',
      'the service restarts itself',
    ]);
  });

  it('asks a person once when an attempt at the window could neither commit nor take its escalation back (§6.3)', async () => {
    // The database goes away at the commit and stays away for the withdrawal: the question for a
    // person is journaled, no CSO names it. The next attempt asks it through that same proposal.
    const { relay, id, supersedeAgain } = await atTheRevisionBound(runtime, AGENT);
    const down = () => new CanonryError('STORE_UNAVAILABLE', 'the database is unreachable');
    vi.spyOn(relay.canon, 'proposeBatch').mockRejectedValueOnce(down());
    vi.spyOn(relay.projectCanon, 'reject').mockRejectedValueOnce(down());
    await expect(relay.completeWindow(AGENT, id, '', supersedeAgain)).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
    const [stray, ...more] = await pendingFor(`relay.${id}.d_db2`);
    expect(more).toEqual([]);
    const w4 = await relay.completeWindow(AGENT, id, '', supersedeAgain);
    expect(w4.cso!.decisions.find((d) => d.decision_id === 'd_db2')?.escalated).toBe(stray);
    expect(await pendingFor(`relay.${id}.d_db2`)).toEqual([stray]);
    expect(await relay.verify(AGENT, id)).toMatchObject({ ok: true });
  });

  it('stops withdrawing the escalations of an attempt once the database is out of reach, and the next attempt asks through them (§6.3)', async () => {
    // Two decisions reach the bound in one window; the commit and the first withdrawal fail with
    // the database gone: the second is not tried (it would wait out the same outage).
    const { relay, id, supersedeAgain } = await atTheRevisionBound(runtime, AGENT, { also: true });
    const down = () => new CanonryError('STORE_UNAVAILABLE', 'the database is unreachable');
    vi.spyOn(relay.canon, 'proposeBatch').mockRejectedValueOnce(down());
    const reject = vi.spyOn(relay.projectCanon, 'reject').mockRejectedValueOnce(down());
    await expect(relay.completeWindow(AGENT, id, '', supersedeAgain)).rejects.toMatchObject({
      code: 'STORE_UNAVAILABLE',
    });
    expect(reject).toHaveBeenCalledTimes(1);
    const [db, ...moreDb] = await pendingFor(`relay.${id}.d_db2`);
    const [cache, ...moreCache] = await pendingFor(`relay.${id}.d_cache2`);
    expect([moreDb, moreCache]).toEqual([[], []]);
    const w4 = await relay.completeWindow(AGENT, id, '', supersedeAgain);
    const escalated = (decision: string) =>
      w4.cso!.decisions.find((d) => d.decision_id === decision)?.escalated;
    expect([escalated('d_db2'), escalated('d_cache2')]).toEqual([db, cache]);
    expect(await pendingFor(`relay.${id}.d_db2`)).toEqual([db]);
    expect(await pendingFor(`relay.${id}.d_cache2`)).toEqual([cache]);
    expect(await relay.verify(AGENT, id)).toMatchObject({ ok: true });
  });

  it('withdraws a stray escalation the next attempt does not ask, and commits none withdrawn meanwhile (§6.3)', async () => {
    const { relay, id, supersedeAgain } = await atTheRevisionBound(runtime, AGENT);
    const objectId = `relay.${id}.d_db2`;
    const down = () => new CanonryError('STORE_UNAVAILABLE', 'the database is unreachable');
    vi.spyOn(relay.canon, 'proposeBatch').mockRejectedValueOnce(down());
    vi.spyOn(relay.projectCanon, 'reject').mockRejectedValueOnce(down());
    await expect(relay.completeWindow(AGENT, id, '', supersedeAgain)).rejects.toThrow();
    const [stray] = await pendingFor(objectId);
    // Window 4 is tried again with another answer, which leaves d_db2 standing: nothing to ask.
    const w4 = await relay.completeWindow(AGENT, id, '', {
      facts: [fact('f_budget', 'the budget is fixed')],
    });
    expect(w4.revisions).toEqual([]);
    expect(await pendingFor(objectId)).toEqual([]);
    const withdrawn = await runtime.canon.reader(PROJECT).proposal(stray!);
    expect(withdrawn).toMatchObject({ status: 'rejected', decided_by: { id: `relay:${id}` } });
    expect(withdrawn?.reason).toContain('no CSO of the session names it');

    // Window 5 escalates d_db2; as it commits, an attempt elsewhere finds that escalation stray
    // and withdraws it. The window must not commit a CSO naming a question nobody will be asked.
    const batch = relay.canon.proposeBatch.bind(relay.canon);
    vi.spyOn(relay.canon, 'proposeBatch').mockImplementationOnce(async (agent, inputs, options) => {
      const [mine] = await pendingFor(objectId);
      await relay.projectCanon.reject(agent, mine!, 'found stray elsewhere');
      return batch(agent, inputs, options);
    });
    await expect(relay.completeWindow(AGENT, id, '', supersedeAgain)).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await relay.state(AGENT, id)).windows).toBe(4);
    const w5 = await relay.completeWindow(AGENT, id, '', supersedeAgain);
    const named = w5.cso!.decisions.find((d) => d.decision_id === 'd_db2')?.escalated;
    expect(await pendingFor(objectId)).toEqual([named]);
    expect(await relay.verify(AGENT, id)).toMatchObject({ ok: true });
  });

  it('flags the decision a tool result informed when the result is refreshed with another value (§8.3)', async () => {
    const relay = runtime.relay;
    const { session } = await relay.start(AGENT, {
      mode: 'TOOL',
      objective: 'Right-size the cluster',
      remaining: ['scratch_metrics_004', 'scratch_metrics_005'],
    });
    const id = session.session_id;
    const reading = (value: string) => ({
      scratch_id: 'scratch_metrics_004',
      tool: 'metrics.cpu',
      result_hash: contentHash({ cpu: value }),
      summary: `current CPU utilisation is ${value}`,
    });
    const w1 = await relay.completeWindow(AGENT, id, '', {
      tool_results: [reading('87%')],
      facts: [
        fact('fact_threshold_80pct', 'the scale-out threshold is 80% CPU', { provenance: 'USER' }),
      ],
      decisions: [
        {
          decision_id: 'decision_scale_5',
          choice: 'scale the cluster to 5 nodes',
          rationale: 'current CPU utilisation is 87%, above the 80% threshold',
          depends_on: ['fact_threshold_80pct'],
          provenance: 'TOOL',
          provenance_ref: 'scratch_metrics_004',
        },
      ],
      completed: ['scratch_metrics_004'],
    });
    expect(w1.status).toBe('relayed');
    const scale = await runtime.canon.reader(PROJECT).current(`relay.${id}.decision_scale_5`);
    expect(scale?.content.dependency_refs).toContain(`relay.${id}.scratch_metrics_004`);

    // The same reading again changes nothing; a different one flags the decision.
    const same = await relay.completeWindow(AGENT, id, '', { tool_results: [reading('87%')] });
    expect(same.cso!.decisions[0]!.needs_revision).toBeUndefined();
    const w3 = await relay.completeWindow(AGENT, id, '', {
      tool_results: [reading('45%')],
      completed: ['scratch_metrics_005'],
    });
    expect(
      w3.cso!.decisions.find((d) => d.decision_id === 'decision_scale_5')?.needs_revision,
    ).toBe(true);
    const states = await runtime.canon.reader(PROJECT).dependencyStates();
    const flaggedInCanon = [...states.values()].find(
      (s) => s.id === `relay.${id}.decision_scale_5`,
    );
    expect(flaggedInCanon?.state).toBe('needs_revision');
    const next = await relay.prepareWindow(AGENT, id);
    expect(next).toMatchObject({ kind: 'revision', revision_target: 'decision_scale_5' });
    expect(next.messages.map((m) => m.content).join('\n')).toContain('45%');
  });

  it('does not relay a state it cannot repair: regenerate journals nothing, halt closes the session (§5.2)', async () => {
    const relay = runtime.relay;
    const ghost = {
      decisions: [
        {
          decision_id: 'd_ghost',
          choice: 'adopt the plan',
          rationale: 'the plan was approved',
          depends_on: ['f_never_established'],
        },
      ],
    };
    const regen = await relay.start(AGENT, {
      mode: 'AGENTIC',
      objective: 'Plan',
      remaining: ['a'],
    });
    const head = await runtime.journal.head(PROJECT);
    const again = await relay.completeWindow(AGENT, regen.session.session_id, '', ghost);
    expect(again).toMatchObject({ status: 'regenerate', cso: null });
    expect(again.verification).toMatchObject({
      verified: false,
      broken_dependencies: { d_ghost: ['f_never_established'] },
    });
    expect(await runtime.journal.head(PROJECT)).toEqual(head);

    const halting = await relay.start(AGENT, {
      mode: 'AGENTIC',
      objective: 'Plan',
      remaining: ['a'],
      on_unverified: 'halt',
    });
    const halted = await relay.completeWindow(AGENT, halting.session.session_id, '', ghost);
    expect(halted.status).toBe('halted');
    expect((await relay.state(AGENT, halting.session.session_id)).status).toBe('halted');
    await expect(relay.prepareWindow(AGENT, halting.session.session_id)).rejects.toMatchObject({
      code: 'SESSION_CLOSED',
    });
  });

  it('keeps verifying earlier windows after the project key is rotated, and seals new ones with the new key', async () => {
    const relay = runtime.relay;
    const { session } = await relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: 'Doc',
      remaining: ['A', 'B'],
    });
    const id = session.session_id;
    const w1 = await relay.completeWindow(AGENT, id, '', {
      facts: [fact('f1', 'the document has two sections')],
      completed: ['A'],
    });
    const rotated = await runtime.hmac.rotate(PROJECT);
    const w2 = await relay.completeWindow(AGENT, id, '', {
      facts: [fact('f1', 'the document has two sections')],
      completed: ['B'],
    });
    const keyOf = (seal: string) => seal.split(':')[1];
    expect(keyOf(w2.cso!.cso_hmac)).toBe(rotated.keyId);
    expect(keyOf(w1.cso!.cso_hmac)).not.toBe(rotated.keyId);
    expect(await relay.verify(AGENT, id)).toMatchObject({ ok: true, windows: 2 });
    // Neither key appears in what the relay journals or answers, in any encoding.
    const journaled = JSON.stringify(await runtime.journal.read(PROJECT, { limit: 1_000 }));
    const answered = JSON.stringify([w1, w2, await relay.state(AGENT, id)]);
    const dir = join(runtime.config.dataDir, 'keys', 'hmac', PROJECT);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(2);
    for (const file of files) {
      const key = Buffer.from(JSON.parse(readFileSync(join(dir, file), 'utf8')).key, 'base64url');
      for (const text of [key.toString('hex'), key.toString('base64'), key.toString('base64url')]) {
        expect(journaled).not.toContain(text);
        expect(answered).not.toContain(text);
      }
    }
  });

  it('refuses, by name and with nothing journaled, a window whose record would outgrow one journal entry', async () => {
    const relay = runtime.relay;
    const { session } = await relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: 'Big',
      remaining: ['A'],
    });
    const head = await runtime.journal.head(PROJECT);
    const facts = Array.from({ length: 200 }, (_, i) => fact(`f${i}`, `${i} ${'€'.repeat(1_900)}`));
    await expect(
      relay.completeWindow(AGENT, session.session_id, '', { facts }),
    ).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    expect(await runtime.journal.head(PROJECT)).toEqual(head);
  });

  it("does not let a claim absorbed from a window's prose ground its own repetition later (CRP-018)", async () => {
    const relay = runtime.relay;
    const { session } = await relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: 'Ops',
      remaining: ['A', 'B'],
    });
    const id = session.session_id;
    const claim = 'The cluster stores 48 TB of data on every node.';
    const w1 = await relay.completeWindow(AGENT, id, claim, {
      facts: [fact('f_etcd', 'the cluster runs etcd v3.5 on five nodes', { provenance: 'USER' })],
      completed: ['A'],
    });
    const absorbed = w1.cso!.established_facts.find((f) => f.statement === claim);
    expect(absorbed).toMatchObject({ provenance: 'CONVERSATION', provenance_ref: 'window:1' });
    const w2 = await relay.completeWindow(AGENT, id, claim, {
      facts: [fact('f_etcd', 'the cluster runs etcd v3.5 on five nodes', { provenance: 'USER' })],
      completed: ['B'],
    });
    const repeated = w2.signals!.claims.find((c) => c.text === claim);
    expect(repeated).toBeDefined();
    expect(repeated!.attribution).not.toBe('CONTEXT_GROUNDED');
    expect(repeated!.fact_id).not.toBe(absorbed!.fact_id);
    // It is still caught as repeated prose.
    expect(w2.signals!.repetition.duplicate_sentences.some((d) => d.earlier)).toBe(true);
  });
});
