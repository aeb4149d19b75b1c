// One evolution coordinator per database, as processes: two `canonry serve` children with
// evolution on, sharing one PostgreSQL schema (and one data directory, so one trust root). Relay
// windows completed through both make `transition` events; the journal's `evolution.delivery`
// entries show each event delivered once to each target that takes it, and `/readyz` shows one
// process leading and the other standing by. After the leader stops (SIGTERM: it releases the
// lease), the other takes over from the shared cursor: windows completed meanwhile are delivered,
// each once. Waits are for events, under the suite's timeout.
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/auth.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';
import { type ServeProcess, startServe } from '../helpers/serve.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const P = 'leased';
const ENV = { CANONRY_EVOLUTION: 'on' };

describe.skipIf(!postgresAvailable)('one evolution coordinator across two serve processes', () => {
  let dir: string;
  let cleanup: () => void;
  let drop: () => Promise<void>;
  let url: string;
  let data: string;
  let token: string;
  const served: ServeProcess[] = [];

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    const schema = await freshPostgresSchema();
    drop = schema.drop;
    url = schema.url;
    data = join(dir, 'data');
    const issued = await runCli(
      ['tokens', 'create', '--project', P, '--principal', 'agent-1', '--role', 'agent'].concat([
        '--data',
        data,
        '--db',
        url,
        '--json',
      ]),
    );
    expect(issued.code, issued.stderr).toBe(0);
    token = JSON.parse(issued.stdout).token;
    const args = ['--db', url];
    served.push(
      ...(await Promise.all([
        startServe(data, { args, env: ENV, timeoutMs: 60_000 }),
        startServe(data, { args, env: ENV, timeoutMs: 60_000 }),
      ])),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(served.map((s) => s.stop()));
    await drop?.();
    cleanup?.();
  });

  /** A one-window relay session completed through `server`. */
  async function window(server: ServeProcess, n: number) {
    const api = (path: string, body: unknown) =>
      call(server.url, 'POST', `/v1/projects/${P}/relay/sessions${path}`, token, body);
    const started = await api('', { mode: 'DOCUMENT', objective: `note ${n}`, remaining: ['A'] });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const id = started.body.session.session_id;
    const done = await api(`/${id}/windows`, {
      output: `A: setting ${n} is on.`,
      contribution: {
        facts: [{ statement: `setting ${n} is on`, provenance: 'CONVERSATION' }],
        completed: ['A'],
      },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  }

  /** Deliveries journaled per (event, target), and the transition events stored. */
  async function deliveries() {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const rows = await client.query<{ body: string | Record<string, unknown> }>(
        "SELECT body FROM journal_entries WHERE project = $1 AND kind LIKE 'evolution.delivery%'",
        [P],
      );
      const events = await client.query<{ event_id: string }>(
        "SELECT event_id FROM evolution_events WHERE project = $1 AND event_type = 'transition'",
        [P],
      );
      const counts = new Map<string, number>();
      for (const { body } of rows.rows) {
        const b = (typeof body === 'string' ? JSON.parse(body) : body) as {
          event_id: string;
          target: string;
        };
        const key = `${b.event_id} ${b.target}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return { counts, events: events.rows.map((r) => r.event_id) };
    } finally {
      await client.end();
    }
  }

  /** Every transition event delivered to both targets that take it (benchmark, air-tuning). */
  async function allDelivered(atLeast: number) {
    for (;;) {
      const { counts, events } = await deliveries();
      const done =
        events.length >= atLeast &&
        events.every((e) => counts.has(`${e} benchmark`) && counts.has(`${e} air-tuning`));
      if (done) return { counts, events };
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const ready = async (server: ServeProcess) =>
    ((await (await fetch(`${server.url}/readyz`)).json()) as { evolution: Record<string, unknown> })
      .evolution;

  it('one process leads, the other stands by; every event is delivered once', async () => {
    const roles = await Promise.all(served.map(ready));
    expect(roles.map((r) => r.role).sort()).toEqual(['leading', 'standby']);
    expect(roles[0]!.lease_holder).toBe(roles[1]!.lease_holder);

    for (let n = 0; n < 4; n++) await window(served[n % 2]!, n);
    const { counts, events } = await allDelivered(4);
    expect(events).toHaveLength(4);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  }, 60_000);

  it('stopping the leader lets the other take over: what was completed meanwhile is delivered once', async () => {
    const roles = await Promise.all(served.map(ready));
    const leader = roles[0]!.role === 'leading' ? 0 : 1;
    const other = served[1 - leader]!;
    await served[leader]!.stop();

    for (let n = 10; n < 13; n++) await window(other, n);
    const { counts, events } = await allDelivered(7);
    expect(events).toHaveLength(7);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    expect(await ready(other)).toMatchObject({ role: 'leading' });
  }, 60_000);
});
