// Canon does not run in the evolution system project (the project of the kernel's verdict events),
// and feedback there cannot make it: an agent's feedback with `remember` in `evolution` became a canon
// proposal, committed, whose commit came back as an arbitration event of the system project as if it
// were the kernel's. Now the face refuses `remember` there (403, nothing journaled), and the memory
// target proposes nothing for a memory stored there (a library caller's feedback entry). Over HTTP
// on loopback with a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonryRuntime } from '../../src/app/index.js';
import { EVOLUTION_FEEDBACK, EVOLUTION_SYSTEM_PROJECT } from '../../src/evolution/index.js';
import { call, tokensFor } from '../helpers/auth.js';
import { servedEvolution } from '../helpers/evolution.js';

const P = EVOLUTION_SYSTEM_PROJECT;
let url: string;
let rt: CanonryRuntime;
let t: Record<'ada' | 'vic', string>;
const closers: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  ({ rt, url } = await servedEvolution(closers));
  t = await tokensFor(rt, P, { ada: 'agent', vic: 'viewer' });
});

afterAll(async () => {
  for (const close of closers) await close();
});

const kinds = async () => (await rt.journal.read(P, { after: 0, limit: 1_000 })).map((e) => e.kind);
const head = async () => (await rt.journal.projects()).find((h) => h.project === P)?.seq ?? 0;
const feedback = (body: unknown) =>
  call(url, 'POST', `/v1/projects/${P}/evolution/feedback`, t.ada, body);

describe('feedback in the evolution system project', () => {
  it('refuses remember (nothing journaled) and takes a score alone; canon never runs there', async () => {
    const before = await head();
    const refused = await feedback({
      subject: 'kernel-verdict-1',
      score: 0.2,
      remember: { title: 'Tone', text: 'Keep answers short.' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'FORBIDDEN', details: { field: 'remember' } });
    expect(await head()).toBe(before);

    expect((await feedback({ subject: 'kernel-verdict-1', score: 0.2 })).status).toBe(201);
    await rt.evolution!.idle();
    expect((await kinds()).filter((k) => k.startsWith('canon.'))).toEqual([]);
  });

  it('the memory target proposes nothing for a memory stored there, and says why', async () => {
    await rt.journal.append(
      P,
      EVOLUTION_FEEDBACK.input(
        {
          feedback_id: 'fb-lib',
          subject: 'kernel-verdict-2',
          score: 0.9,
          principal: 'ada',
          remember: { title: 'Tone', text: 'Keep answers short.' },
        },
        { actor: 'ada' },
      ),
    );
    await rt.evolution!.idle();
    expect((await kinds()).filter((k) => k.startsWith('canon.'))).toEqual([]);
    const events = await call(url, 'GET', `/v1/projects/${P}/evolution/events`, t.vic);
    const stored = await Promise.all(
      (events.body.events as { event_id: string }[]).map(
        async (e) =>
          (await call(url, 'GET', `/v1/projects/${P}/evolution/events/${e.event_id}`, t.vic)).body,
      ),
    );
    const remembered = stored.find((s) => s.event.outcome.feedback_id === 'fb-lib');
    expect(remembered.deliveries).toEqual([
      expect.objectContaining({
        target: 'memory',
        outcome: 'delivered',
        record: {
          proposal: null,
          reason: expect.stringMatching(/canon does not run in evolution/),
        },
      }),
    ]);
    expect(stored.map((s) => s.event.event_type).sort()).toEqual(['memory', 'memory']);
  });
});
