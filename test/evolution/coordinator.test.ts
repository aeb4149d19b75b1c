import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry, type EvolutionOptions } from '../../src/app/index.js';
import {
  EVOLUTION_FEEDBACK,
  type EvolutionCoordinator,
  effectivePolicyHash,
  memoryTarget,
  QualifiedEventVerifier,
  receiveWebhook,
  signQualifiedEvent,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../src/evolution/index.js';
import { tempDir } from '../helpers/runtime.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function runtime(dir: string, evolution: EvolutionOptions = {}): Promise<CanonryRuntime> {
  const rt = await createCanonry(
    { dataDir: dir, evolution: 'on', logLevel: 'silent', auditRetentionDays: 'forever' },
    { evolution: { sleep: async () => undefined, ...evolution }, logger: quiet },
  );
  return rt;
}

const quiet = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as NonNullable<Parameters<typeof createCanonry>[1]>['logger'];

function feedback(rt: CanonryRuntime, project: string, n: number, remember = false) {
  return rt.journal.append(
    project,
    EVOLUTION_FEEDBACK.input(
      {
        feedback_id: `fb-${n}`,
        subject: `canon.commit:${project}:1`,
        score: 0.5,
        principal: 'alice',
        remember: remember ? { title: 'Tone', text: 'Keep answers short.' } : null,
      },
      { actor: 'alice' },
    ),
  );
}

const coordinator = (rt: CanonryRuntime): EvolutionCoordinator => rt.evolution!;

describe('evolution coordinator', () => {
  it('turns each source entry into exactly one stored event across a restart mid-stream', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    let rt = await runtime(dir);
    for (let i = 0; i < 5; i++) await feedback(rt, 'p1', i);
    await coordinator(rt).idle();
    // Stop mid-stream: more source entries arrive while no coordinator runs.
    await rt.close();
    rt = await createCanonry({ dataDir: dir, evolution: 'off' }, { logger: quiet });
    for (let i = 5; i < 12; i++) await feedback(rt, 'p1', i);
    await rt.close();
    rt = await runtime(dir);
    cleanups.push(() => rt.close());
    for (let i = 12; i < 15; i++) await feedback(rt, 'p1', i);
    await coordinator(rt).idle();
    const events = await coordinator(rt).events.list('p1', { limit: 1000 });
    const bySource = new Map<number, number>();
    for (const row of events) {
      const stored = await coordinator(rt).events.get('p1', row.event_id);
      expect(stored.origin.kind).toBe('evolution.feedback');
      bySource.set(stored.origin.seq, (bySource.get(stored.origin.seq) ?? 0) + 1);
    }
    const sources = (await rt.journal.read('p1', { after: 0, limit: 1000 })).filter(
      (e) => e.kind === 'evolution.feedback',
    );
    expect(sources).toHaveLength(15);
    expect([...bySource.keys()].sort((a, b) => a - b)).toEqual(sources.map((e) => e.seq));
    expect([...bySource.values()].every((n) => n === 1)).toBe(true);
    // Every stored event verifies (signature from the root, governance against its sources).
    const report = await coordinator(rt).events.verify(
      'p1',
      new QualifiedEventVerifier({ root: rt.keyring.rootCertificatePem }),
    );
    expect(report).toMatchObject({ checked: 15, verified: 15, failed: [] });
    // Memory events reached the memory target: delivered, no remember → no proposal.
    const one = await coordinator(rt).events.get('p1', events[0]!.event_id);
    expect(one.targets).toEqual(['memory']);
    expect(one.deliveries).toMatchObject([{ target: 'memory', outcome: 'delivered' }]);
  });

  it('turns a memory event into a canon proposal, never a direct commit by itself', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const rt = await runtime(dir);
    cleanups.push(() => rt.close());
    await feedback(rt, 'p2', 1, true);
    await coordinator(rt).idle();
    const [row] = await coordinator(rt).events.list('p2', { event_type: 'memory' });
    const stored = await coordinator(rt).events.get('p2', row!.event_id);
    const delivery = stored.deliveries.find((d) => d.target === 'memory')!;
    expect(delivery.outcome).toBe('delivered');
    const proposalId = (delivery.record as { proposal_id: string }).proposal_id;
    const proposals = (await rt.journal.read('p2', { after: 0, limit: 100 })).filter(
      (e) => e.kind === 'canon.proposal',
    );
    expect(
      proposals.map((p) => (p.body as { proposal: { proposal_id: string } }).proposal.proposal_id),
    ).toContain(proposalId);
    expect(proposals[0]!.actor).toBe('evolution');
  });

  it('a target refuses an unsigned or re-scoped event, with the reason', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const rt = await runtime(dir);
    cleanups.push(() => rt.close());
    await feedback(rt, 'p3', 1);
    await coordinator(rt).idle();
    const [row] = await coordinator(rt).events.list('p3');
    const stored = await coordinator(rt).events.get('p3', row!.event_id);
    const verifier = new QualifiedEventVerifier({ root: rt.keyring.rootCertificatePem });
    const target = memoryTarget(() => verifier, {
      propose: async () => {
        throw new Error('a refused event must never be used');
      },
    });
    const { signature: _s, ...unsigned } = stored.event;
    const refusedUnsigned = await target.receive({
      project: 'p3',
      event: unsigned,
      sources: stored.sources,
    });
    expect(refusedUnsigned).toMatchObject({ ok: false, issue: { code: 'EVENT_UNSIGNED' } });
    // Re-scoped: wider training, hash left as it was.
    const rescoped = { ...stored.event, training_policy: 'allowed' };
    expect(
      await target.receive({ project: 'p3', event: rescoped, sources: stored.sources }),
    ).toMatchObject({
      ok: false,
      issue: { code: 'POLICY_HASH_MISMATCH' },
    });
    // Re-scoped and re-signed by the node itself: wider than its sources allow.
    const {
      signature: _x,
      signing_identity: _i,
      signing_certificate: _c,
      ...claims
    } = {
      ...stored.event,
      training_policy: 'allowed' as const,
    };
    const resigned = signQualifiedEvent(
      {
        ...claims,
        policy_hash: effectivePolicyHash({ ...stored.event, training_policy: 'allowed' }),
      },
      rt.keyring.signer(),
    );
    expect(
      await target.receive({ project: 'p3', event: resigned, sources: stored.sources }),
    ).toMatchObject({
      ok: false,
      issue: { code: 'GOVERNANCE_WIDENED' },
    });
  });
});

describe('signed webhooks', () => {
  async function server(
    failFirst: number,
  ): Promise<{ url: string; bodies: string[]; calls: () => number; secretOk: string[] }> {
    let calls = 0;
    const bodies: string[] = [];
    const secretOk: string[] = [];
    const srv: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        calls++;
        const body = Buffer.concat(chunks).toString('utf8');
        bodies.push(body);
        secretOk.push(String(req.headers[WEBHOOK_SIGNATURE_HEADER]));
        res.statusCode = calls <= failFirst ? 503 : 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => srv.close(() => resolve())));
    const { port } = srv.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/hook`, bodies, calls: () => calls, secretOk };
  }

  /** A runtime of its own whose one webhook target `name` posts to `url`, retried quickly. */
  async function hooked(url: string, name: string, secret: string, maxAttempts: number) {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const rt = await runtime(dir, {
      webhooks: [{ name, url, secret, eventTypes: ['memory'] }],
      retry: { maxAttempts, backoffMs: 1 },
    });
    cleanups.push(() => rt.close());
    return rt;
  }

  it('retries a receiver that fails twice, then delivers; the receiver verifies the delivery', async () => {
    const hook = await server(2);
    const rt = await hooked(hook.url, 'lab', 's3cret', 4);
    await feedback(rt, 'p4', 1);
    await coordinator(rt).idle();
    expect(hook.calls()).toBe(3);
    const [row] = await coordinator(rt).events.list('p4');
    const stored = await coordinator(rt).events.get('p4', row!.event_id);
    expect(stored.deliveries.find((d) => d.target === 'lab')).toMatchObject({
      outcome: 'delivered',
      attempts: 3,
    });
    const received = receiveWebhook(hook.bodies[2]!, hook.secretOk[2], {
      secret: 's3cret',
      verifier: new QualifiedEventVerifier({ root: rt.keyring.rootCertificatePem }),
      path: { name: 'lab', enforces: ['project'], exports: ['with_approval'] },
    });
    expect(received.ok).toBe(true);
    const forged = receiveWebhook(hook.bodies[2]!, hook.secretOk[2], {
      secret: 'other',
      verifier: new QualifiedEventVerifier({ root: rt.keyring.rootCertificatePem }),
      path: { name: 'lab', enforces: ['project'] },
    });
    expect(forged).toMatchObject({ ok: false, issues: [{ code: 'SIGNATURE_INVALID' }] });
    expect(JSON.stringify(await rt.journal.read('p4', { after: 0, limit: 100 }))).not.toContain(
      's3cret',
    );
  });

  it('dead-letters a receiver that always fails, lists it, and retries it', async () => {
    const hook = await server(1_000);
    const rt = await hooked(hook.url, 'down', 'k', 3);
    await feedback(rt, 'p5', 1);
    await coordinator(rt).idle();
    expect(hook.calls()).toBe(3);
    const dead = await coordinator(rt).events.deadLetters('p5');
    expect(dead).toMatchObject([
      { target: 'down', outcome: 'dead_letter', attempts: 3, code: 'TARGET_UNAVAILABLE' },
    ]);
    const again = await coordinator(rt).retryDeadLetter('p5', dead[0]!.event_id, 'down');
    expect(again.outcome).toBe('dead_letter');
    expect(hook.calls()).toBe(6);
    await expect(
      coordinator(rt).retryDeadLetter('p5', dead[0]!.event_id, 'memory'),
    ).rejects.toMatchObject({
      code: 'UNKNOWN_DEAD_LETTER',
    });
  });

  it('pauses between attempts at a failing receiver: retry.backoffMs doubling to 30 s, exactly (no jitter)', async () => {
    const hook = await server(1_000);
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const pauses: number[] = [];
    const rt = await runtime(dir, {
      webhooks: [{ name: 'slow', url: hook.url, secret: 'k', eventTypes: ['memory'] }],
      retry: { maxAttempts: 6, backoffMs: 9_000 },
      sleep: async (ms) => void pauses.push(ms),
    });
    cleanups.push(() => rt.close());
    await feedback(rt, 'p7', 1);
    await coordinator(rt).idle();
    expect(hook.calls()).toBe(6);
    expect(pauses).toEqual([9_000, 18_000, 30_000, 30_000, 30_000]);
  });

  it('a dead letter retried twice at once is delivered once; both retries answer that delivery', async () => {
    const hook = await server(3);
    const rt = await hooked(hook.url, 'down', 'k', 3);
    await feedback(rt, 'p6', 1);
    await coordinator(rt).idle();
    const [dead] = await coordinator(rt).events.deadLetters('p6');
    const retries = await Promise.all([
      coordinator(rt).retryDeadLetter('p6', dead!.event_id, 'down'),
      coordinator(rt).retryDeadLetter('p6', dead!.event_id, 'down'),
    ]);
    expect(retries.map((r) => r.outcome)).toEqual(['delivered', 'delivered']);
    expect(retries[1]).toEqual(retries[0]);
    expect(hook.calls()).toBe(4);
    const deliveries = (await rt.journal.read('p6', { after: 0, limit: 100 }))
      .filter((e) => e.kind === 'evolution.delivery')
      .map((e) => e.body as { target: string; outcome: string })
      .filter((d) => d.target === 'down');
    expect(deliveries.map((d) => d.outcome)).toEqual(['dead_letter', 'delivered']);
    await expect(
      coordinator(rt).retryDeadLetter('p6', dead!.event_id, 'down'),
    ).rejects.toMatchObject({ code: 'UNKNOWN_DEAD_LETTER' });
  });
});
