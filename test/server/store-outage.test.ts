// A server on PostgreSQL while the database goes away and comes back, against a real server on
// loopback behind a TCP proxy (test/helpers/outage-proxy.ts), its URL with a password. A mix of real
// requests (intake, proposals and approvals, relay windows, kernel validation, tokens, board and
// working-set reads) runs all along while the runtime's backends are terminated, the database is cut
// (connections reset, new ones refused), and then goes silent (nothing forwarded either way). Every
// request is answered in time, with a success or a typed error (never INTERNAL); what was
// acknowledged is there afterwards; `/readyz` goes 503 → 200 and the journal and its projections
// verify, with nothing restarted; the password appears in no response, log line or reported error.
// The URL's `query_timeout` and `connect_timeout` are short here (the defaults: 30 s and 10 s).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { buildServer } from '../../src/server/index.js';
import { call, STORY_SUBJECTS, tokensFor } from '../helpers/auth.js';
import { type OutageProxy, outageProxy } from '../helpers/outage-proxy.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, PG_URL, postgresAvailable } from '../helpers/stores.js';

const P = 'outage';
const NAME = `canonry_store_outage_${process.pid}`;
const QUERY_TIMEOUT_MS = 1_000;
/** The longest any request may take: a connect timeout (1 s) and a query timeout, with room. */
const BOUND_MS = 5_000;
let proxy: OutageProxy;
let runtime: CanonryRuntime;
let url: string;
let secret: string;
let close: () => Promise<void>;
const reported: unknown[] = [];
const logs: string[] = [];

interface Outcome {
  readonly op: string;
  readonly phase: string;
  readonly status: number;
  readonly code: string | null;
  readonly ms: number;
  readonly text: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function terminateBackends(): Promise<number> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const { rowCount } = await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [NAME],
    );
    return rowCount ?? 0;
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgresAvailable)(
  'a server on PostgreSQL while the database goes and comes back',
  () => {
    beforeAll(async () => {
      const schema = await freshPostgresSchema();
      const { dir, cleanup } = tempDir();
      mkdirSync(join(dir, 'classifiers'), { recursive: true });
      writeFileSync(join(dir, 'classifiers', `${P}.json`), JSON.stringify(STORY_SUBJECTS));
      proxy = await outageProxy();
      const through = proxy.via(schema.url);
      through.searchParams.set('application_name', NAME);
      through.searchParams.set('query_timeout', String(QUERY_TIMEOUT_MS));
      through.searchParams.set('connect_timeout', '1');
      // The test server trusts loopback, so any password is taken; a CI server's own is kept.
      secret = through.password || `pw-${process.pid}-${Date.now().toString(36)}`;
      through.password = secret;
      runtime = await createCanonry(
        { dataDir: dir, db: through.toString(), logLevel: 'silent' },
        { onError: (err) => reported.push(err) },
      );
      const logStream = new Writable({
        write(chunk, _encoding, done) {
          logs.push(String(chunk));
          done();
        },
      });
      const app = buildServer(runtime, { logLevel: 'info', logStream });
      url = await app.listen({ port: 0, host: '127.0.0.1' });
      close = async () => {
        await app.close();
        await runtime.close();
        await proxy.close();
        await schema.drop();
        cleanup();
      };
    }, 60_000);
    afterAll(() => close?.());

    it('answers every request typed and in time, loses nothing acknowledged, and recovers by itself', async () => {
      const t = await tokensFor(runtime, P, { alice: 'owner', agent: 'agent', val: 'viewer' });
      const outcomes: Outcome[] = [];
      let phase = 'up';
      const record = async (op: string, send: () => Promise<{ status: number; body: any }>) => {
        const started = Date.now();
        const r = await send().catch((err: Error) => ({
          status: 0,
          body: { error: { code: `FETCH: ${err.message}` } },
        }));
        const outcome = {
          op,
          phase,
          status: r.status,
          code: r.body?.error?.code ?? null,
          ms: Date.now() - started,
          text: JSON.stringify(r.body),
        };
        outcomes.push(outcome);
        return { ...outcome, body: r.body };
      };
      const api = (op: string, method: string, path: string, token: string, body?: unknown) =>
        record(op, () => call(url, method, `/v1/projects/${P}${path}`, token, body));
      const ready = () =>
        record('readyz', async () => {
          const res = await fetch(`${url}/readyz`);
          return { status: res.status, body: await res.json() };
        });

      const acked = {
        messages: [] as string[],
        committed: [] as string[],
        windows: new Map<string, number>(),
        tokens: [] as string[],
      };
      let n = 0;
      let stop = false;
      const protocol = refundProtocol();
      const worker = async (w: number) => {
        let session: string | null = null;
        while (!stop) {
          const i = n++;
          switch (i % 7) {
            case 0: {
              const r = await api('message', 'POST', '/messages', t.alice, {
                text: `I would like a ${i % 2 ? 'red' : 'blue'} interface, take ${i}.`,
              });
              if (r.status === 201) acked.messages.push(r.body.message.message_id);
              break;
            }
            case 1: {
              const r = await api('propose', 'POST', '/proposals', t.agent, {
                object_id: `note.n${i}`,
                intent: 'create',
                base_version: null,
                candidate: { object_type: 'fact', title: `Note ${i}`, text: `Fact number ${i}.` },
              });
              if (r.status !== 201) break;
              const id = r.body.proposal.proposal_id;
              if (r.body.proposal.status === 'committed') acked.committed.push(id);
              else {
                const a = await api('approve', 'POST', `/proposals/${id}/approve`, t.alice, {});
                if (a.status === 200) acked.committed.push(id);
              }
              break;
            }
            case 2: {
              if (session === null) {
                const r = await api('relay.start', 'POST', '/relay/sessions', t.agent, {
                  mode: 'DOCUMENT',
                  objective: `Document ${w}`,
                  remaining: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'],
                });
                if (r.status === 201) session = r.body.session.session_id;
                break;
              }
              const path = `/relay/sessions/${session}`;
              if (
                (await api('relay.prepare', 'POST', `${path}/prepare`, t.agent, {})).status !== 200
              )
                break;
              const done = await api('relay.window', 'POST', `${path}/windows`, t.agent, {
                output: `Section ${i}: the service has ${i} users.`,
                contribution: {
                  facts: [
                    {
                      fact_id: `f_${i}`,
                      statement: `the service has ${i} users`,
                      provenance: 'CONVERSATION',
                    },
                  ],
                },
                model: 'the-test',
              });
              if (done.status === 200) {
                acked.windows.set(session, done.body.window_number);
                if (done.body.window_number >= 6) session = null;
              }
              break;
            }
            case 3:
              await api('validate', 'POST', '/validate', t.val, {
                artifact: { amount: 40 },
                agentic_protocol: protocol,
                generation_metadata_hash: `sha256:${'0'.repeat(64)}`,
              });
              break;
            case 4: {
              const r = await api('token', 'POST', '/tokens', t.alice, {
                principal: `p${i}`,
                role: 'viewer',
              });
              if (r.status === 201) acked.tokens.push(r.body.info.token_id);
              break;
            }
            case 5:
              await api('board', 'GET', '/board', t.val);
              break;
            default:
              await api('working-set', 'POST', '/working-set', t.val, {});
          }
          await sleep(5);
        }
      };

      const workers = [0, 1, 2, 3, 4].map(worker);
      await sleep(800);
      phase = 'terminated';
      expect(await terminateBackends()).toBeGreaterThan(0);
      await sleep(1_200);
      phase = 'cut';
      proxy.cut();
      await sleep(300);
      const cut = await ready();
      await sleep(1_700);
      proxy.restore();
      phase = 'back';
      await sleep(1_500);
      phase = 'silent';
      proxy.hang();
      await sleep(300);
      const silent = await ready();
      await sleep(2_700);
      proxy.restore();
      phase = 'back again';
      await sleep(2_000);
      stop = true;
      await Promise.all(workers);
      phase = 'after';

      // Not ready while the database could not be reached, ready again without a restart.
      expect([cut.status, cut.code]).toEqual([503, 'STORE_UNAVAILABLE']);
      expect([silent.status, silent.code]).toEqual([503, 'STORE_UNAVAILABLE']);
      expect((await ready()).status).toBe(200);

      // Every request answered in time: a success, or a typed refusal — never INTERNAL.
      const show = (o: Outcome) => `${o.phase} ${o.op} ${o.status} ${o.code} ${o.ms}ms`;
      expect(outcomes.filter((o) => o.status === 0 || o.status === 500).map(show)).toEqual([]);
      expect(outcomes.filter((o) => o.ms > BOUND_MS).map(show)).toEqual([]);
      const failed = outcomes.filter((o) => o.status >= 400);
      expect(failed.filter((o) => o.code !== 'STORE_UNAVAILABLE').map(show)).toEqual([]);
      expect(failed.filter((o) => o.phase === 'silent').length).toBeGreaterThan(0);
      // Served before, between and after the outages.
      for (const at of ['up', 'back', 'back again']) {
        expect(outcomes.some((o) => o.phase === at && o.status < 300 && o.op !== 'readyz')).toBe(
          true,
        );
      }

      // Everything acknowledged is there.
      expect(acked.messages.length).toBeGreaterThan(0);
      for (const id of acked.messages) {
        expect((await api('check', 'GET', `/messages/${id}`, t.alice)).status).toBe(200);
      }
      for (const id of acked.committed) {
        const r = await api('check', 'GET', `/proposals/${id}`, t.alice);
        expect([id, r.body.status ?? r.body.proposal?.status]).toEqual([id, 'committed']);
      }
      for (const [id, windows] of acked.windows) {
        const r = await api('check', 'GET', `/relay/sessions/${id}`, t.val);
        expect(r.body.windows).toBeGreaterThanOrEqual(windows);
      }
      const tokens = new Set(
        (await api('check', 'GET', '/tokens', t.alice)).body.tokens.map((x: any) => x.token_id),
      );
      expect(acked.tokens.filter((id) => !tokens.has(id))).toEqual([]);

      // Nothing half-written: the chain and every projection verify against a replay.
      const verify = await api('verify', 'GET', '/journal/verify?projections=true', t.alice);
      expect(verify.status).toBe(200);
      expect(verify.body).toMatchObject({
        ok: true,
        broken: null,
        projections: { mismatch: null },
      });

      // The password nowhere: responses, the server's log, what the runtime reported.
      expect(outcomes.filter((o) => o.text.includes(secret)).map(show)).toEqual([]);
      expect(logs.filter((line) => line.includes(secret))).toEqual([]);
      for (const err of reported) {
        expect(
          `${(err as Error).message} ${(err as Error).stack} ${JSON.stringify(err)}`,
        ).not.toContain(secret);
      }
    }, 30_000);
  },
);
