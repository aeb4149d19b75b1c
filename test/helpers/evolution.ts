// Builders for the evolution suites: a runtime with the coordinator on (its retry pauses skipped)
// served over HTTP on loopback, and a store holding one signed event many times over.
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import { buildServer } from '../../src/server/index.js';
import { tempDir } from './runtime.js';

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
