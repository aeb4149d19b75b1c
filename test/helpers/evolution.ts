// Builders for the evolution suites: a runtime with the coordinator on (its retry pauses skipped)
// served over HTTP on loopback (with one feedback's event made), a runtime holding one replayable
// verdict for promotions, and a store holding one signed event many times over.
import { expect } from 'vitest';
import {
  type CanonryRuntime,
  createCanonry,
  type ReplayCase,
  useReplayCases,
} from '../../src/app/index.js';
import {
  assembleQualifiedEvent,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcomeOf,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { buildServer } from '../../src/server/index.js';
import { asset, draft, userPrivate } from '../evolution/assets.js';
import { call, tokensFor } from './auth.js';
import { runtimeOn } from './engine-runtime.js';
import { readRepoJson, tempDir } from './runtime.js';

/** A runtime with evolution on over a fresh data directory; its retries do not pause. */
export function evolutionRuntime(dataDir: string): Promise<CanonryRuntime> {
  return createCanonry(
    { dataDir, evolution: 'on', logLevel: 'silent' },
    { evolution: { sleep: async () => undefined } },
  );
}

/** {@link evolutionRuntime} served on loopback; `closers` gets what ends it, in order. */
export async function servedEvolution(
  closers: (() => Promise<unknown> | unknown)[],
): Promise<{ rt: CanonryRuntime; url: string }> {
  const { dir, cleanup } = tempDir();
  closers.push(cleanup);
  const rt = await evolutionRuntime(dir);
  closers.unshift(() => rt.close());
  const app = buildServer(rt, { logLevel: 'silent' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  closers.unshift(() => app.close());
  return { rt, url };
}

/**
 * {@link servedEvolution} where the agent `ada` gave one feedback on `project` over HTTP and the
 * coordinator made its event; `viewer` is the token of `vic`, a viewer of the project.
 */
export async function servedFeedback(
  closers: (() => Promise<unknown> | unknown)[],
  project: string,
): Promise<{ rt: CanonryRuntime; url: string; viewer: string }> {
  const { rt, url } = await servedEvolution(closers);
  const t = await tokensFor(rt, project, { ada: 'agent', vic: 'viewer' });
  const res = await call(url, 'POST', `/v1/projects/${project}/evolution/feedback`, t.ada, {
    subject: 'work-1',
    score: 0.5,
  });
  expect(res.status).toBe(201);
  await rt.evolution!.idle();
  return { rt, url, viewer: t.vic };
}

/**
 * The project's one stored event stored again under `copies` more ids (as a long-lived project
 * accumulates events), each verifying as the original does; the last copy's record is then edited,
 * so it alone fails verification.
 */
export async function copiesOfEvent(
  rt: CanonryRuntime,
  project: string,
  copies: number,
): Promise<void> {
  const [row] = await rt.store.all<{ seq: number | string }>(
    'SELECT seq FROM evolution_events WHERE project = $1',
    [project],
  );
  const first = Number(row!.seq);
  for (let i = 1; i <= copies; i++) {
    await rt.store.run(
      `INSERT INTO evolution_events (project, event_id, seq, event_type, class, schema_version, created_at, pending, record)
       SELECT project, $2, $3, event_type, class, schema_version, created_at, 0, record
       FROM evolution_events WHERE project = $1 AND seq = $4`,
      [project, `copy-${i}`, first + 1_000 + i, first],
    );
  }
  const [stored] = await rt.store.all<{ record: string }>(
    'SELECT record FROM evolution_events WHERE project = $1 AND event_id = $2',
    [project, `copy-${copies}`],
  );
  const record = JSON.parse(stored!.record);
  record.event.outcome.score = 0.9;
  await rt.store.run(
    'UPDATE evolution_events SET record = $1 WHERE project = $2 AND event_id = $3',
    [JSON.stringify(record), project, `copy-${copies}`],
  );
}

/**
 * A fresh runtime on the embedded SQLite file or in a fresh PostgreSQL schema, holding one
 * recorded, signed, replayable verdict as replay case `v1` (the refund protocol judging
 * `{ amount: 20 }`): what a candidate's replay validation re-executes.
 */
export async function replayableRuntime(
  engine: 'sqlite' | 'postgres',
): Promise<{ runtime: CanonryRuntime; close: () => Promise<void> }> {
  const { runtime, close } = await runtimeOn(engine);
  const { protocol } = await runtime.kernel.registry.register(
    readRepoJson('examples/refund/protocol.json'),
  );
  const artifact = { amount: 20 };
  const evaluation = runtime.kernel.evaluate(artifact, protocol, EMPTY_METADATA_HASH);
  const made = assembleQualifiedEvent(
    draft({
      outcome: kernelVerdictOutcomeOf(evaluation, EMPTY_METADATA_HASH),
      replay: { execution_class: KERNEL_VERDICT_CLASS },
    }),
    [asset('a:1', userPrivate('alice'))],
    { signer: runtime.keyring.signer() },
  );
  if (!made.ok) throw new Error(made.issues[0]!.message);
  const cases = new Map<string, ReplayCase>([['v1', { event: made.value, artifact }]]);
  useReplayCases(runtime, (_project, id) => cases.get(id));
  return { runtime, close };
}

/** The artifact the baseline verdict of {@link baselineVerdict} judges. */
export const VERDICT_ARTIFACT = { amount: 20 };

/**
 * Over HTTP, as an editor of `project` would: the refund protocol registered and
 * {@link VERDICT_ARTIFACT} validated against it, then the replayable event the coordinator makes of
 * that verdict in the system project, waited for (read with a viewer token of `evolution`).
 */
export async function baselineVerdict(
  url: string,
  project: string,
  editor: string,
  systemViewer: string,
): Promise<{ protocol: Record<string, unknown>; baseline: string; verdictEvent: string }> {
  const protocol = readRepoJson('examples/refund/protocol.json') as Record<string, unknown>;
  const registered = await call(url, 'POST', '/v1/protocols', editor, protocol);
  expect(registered.status).toBe(201);
  const baseline = registered.body.hash as string;
  const validated = await call(url, 'POST', `/v1/projects/${project}/validate`, editor, {
    artifact: VERDICT_ARTIFACT,
    agentic_protocol: baseline,
    generation_metadata_hash: EMPTY_METADATA_HASH,
  });
  expect(validated.status).toBe(200);
  // The audit batches the verdict into the kernel's journal; the coordinator makes its events in
  // the system project. Wait for the replayable one.
  let verdictEvent: string | undefined;
  for (let i = 0; i < 400 && verdictEvent === undefined; i++) {
    const listed = await call(url, 'GET', '/v1/projects/evolution/evolution/events', systemViewer);
    for (const e of listed.body?.events ?? []) {
      const one = await call(
        url,
        'GET',
        `/v1/projects/evolution/evolution/events/${e.event_id}`,
        systemViewer,
      );
      if (one.body.event?.replay?.execution_class === KERNEL_VERDICT_CLASS) {
        verdictEvent = e.event_id;
      }
    }
    if (verdictEvent === undefined) await new Promise((r) => setTimeout(r, 50));
  }
  expect(verdictEvent).toBeDefined();
  return { protocol, baseline, verdictEvent: verdictEvent! };
}
