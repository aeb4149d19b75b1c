// A runtime closed while its background work is in flight waits for that work before the store
// closes. It closed the audit first, then stopped the coordinator: a delivery still running then
// proposed to canon, its gate verdict's audit record went to a closed audit, was written on a timer
// after the store had closed ('background work failed: the store is closed') and was lost. Here a
// target holds its delivery until close has begun, then proposes; nothing may be reported, nothing
// rejected unhandled, and the reopened store must hold the proposal, the delivery and every audit
// record. Real SQLite files and the real PostgreSQL.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type CanonryRuntime,
  createCanonry,
  KERNEL_AUDIT_PROJECT,
  type RuntimeLogger,
} from '../../src/app/index.js';
import { CanonryError } from '../../src/core/index.js';
import { EVOLUTION_FEEDBACK, EventStore, type EvolutionTarget } from '../../src/evolution/index.js';
import { verifyProject } from '../../src/journal/index.js';
import { create, PROJECT, principals } from '../helpers/canon.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const { owner } = principals();
const FEEDBACK_PROJECT = 'close-drains';

/** A target that signals when a delivery reaches it and holds it until released; then it proposes. */
function heldTarget(propose: () => Promise<unknown>) {
  let entered!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const target: EvolutionTarget = {
    name: 'held',
    path: { name: 'held', enforces: ['project'] },
    accepts: (event) => event.event_type === 'memory',
    receive: async () => {
      entered();
      await released;
      await propose();
      return { ok: true, record: { proposed: true } };
    },
  };
  return { target, reached, release };
}

/** Every record of the kernel's audit journal, counted. */
async function auditRecords(runtime: CanonryRuntime): Promise<number> {
  let count = 0;
  let after = 0;
  for (;;) {
    const page = await runtime.journal.read(KERNEL_AUDIT_PROJECT, { after, limit: 1_000 });
    if (page.length === 0) return count;
    for (const entry of page) {
      if (entry.kind === 'kernel.verdicts')
        count += (entry.body as { records: unknown[] }).records.length;
      else if (entry.kind === 'kernel.verdict') count++;
    }
    after = page.at(-1)!.seq;
  }
}

interface Reported {
  readonly onError: unknown[];
  readonly logged: string[];
  readonly unhandled: unknown[];
}

const ENGINES = [
  { name: 'sqlite', available: true, db: async () => ({ url: undefined, drop: async () => {} }) },
  { name: 'postgres', available: postgresAvailable, db: freshPostgresSchema },
] as const;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`runtime close on ${engine.name}`, () => {
    const reported: Reported = { onError: [], logged: [], unhandled: [] };
    const onUnhandled = (reason: unknown) => reported.unhandled.push(reason);
    const cleanups: (() => unknown)[] = [];
    beforeAll(() => {
      process.on('unhandledRejection', onUnhandled);
    });
    afterAll(() => {
      process.off('unhandledRejection', onUnhandled);
    });
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('waits for a delivery in flight, its proposal and its audit record, then closes the store', async () => {
      const { dir, cleanup } = tempDir();
      cleanups.push(cleanup);
      const { url, drop } = await engine.db();
      cleanups.push(drop);
      const logger: RuntimeLogger = {
        info: () => undefined,
        warn: (_details, message) => reported.logged.push(`warn: ${message}`),
        error: (_details, message) => reported.logged.push(`error: ${message}`),
      };
      // The feedback is there before the coordinator starts: it is followed from the start.
      const before = await createCanonry({ dataDir: dir, db: url, logLevel: 'silent' });
      await before.journal.append(
        FEEDBACK_PROJECT,
        EVOLUTION_FEEDBACK.input(
          { feedback_id: 'fb-close', subject: 'w', score: 0.5, principal: 'ada', remember: null },
          { actor: 'ada' },
        ),
      );
      await before.close();
      let runtime: CanonryRuntime | undefined;
      const held = heldTarget(() =>
        create(runtime!, owner, 'close.during', { text: 'Proposed while the runtime closes.' }),
      );
      runtime = await createCanonry(
        // Every append starts the checkpoint timer: its signing runs beside everything else.
        {
          dataDir: dir,
          db: url,
          evolution: 'on',
          logLevel: 'silent',
          checkpoints: { intervalMs: 10 },
        },
        {
          onError: (err) => reported.onError.push(err),
          logger,
          evolution: { targets: [held.target], sleep: async () => undefined },
        },
      );
      cleanups.push(() => runtime!.close());

      // What one proposal leaves in the audit, measured while the runtime is open.
      await runtime.kernel.flushAudit();
      const atStart = await auditRecords(runtime);
      await create(runtime, owner, 'close.before', { text: 'Proposed before the close.' });
      await runtime.kernel.flushAudit();
      const perProposal = (await auditRecords(runtime)) - atStart;
      expect(perProposal).toBeGreaterThanOrEqual(1);

      await held.reached;
      const closing = runtime.close();
      held.release();
      await closing;
      // Closed once: a second close is the same close.
      await runtime.close();

      expect(reported.onError).toEqual([]);
      expect(reported.logged).toEqual([]);
      expect(reported.unhandled).toEqual([]);
      // Work after the close is refused with a typed error, and the store is closed.
      await expect(
        runtime.journal.append(
          FEEDBACK_PROJECT,
          EVOLUTION_FEEDBACK.input(
            { feedback_id: 'fb-late', subject: 'w', score: 0.5, principal: 'ada', remember: null },
            { actor: 'ada' },
          ),
        ),
      ).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });
      await expect(runtime.store.all('SELECT 1 AS one')).rejects.toBeInstanceOf(CanonryError);

      const reopened = await createCanonry({ dataDir: dir, db: url, logLevel: 'silent' });
      try {
        const objects = await reopened.store.all<{ object_id: string }>(
          'SELECT object_id FROM canon_objects WHERE project = $1 ORDER BY object_id',
          [PROJECT],
        );
        expect(objects.map((o) => o.object_id)).toEqual(['close.before', 'close.during']);
        expect(await auditRecords(reopened)).toBe(atStart + 2 * perProposal);
        const events = new EventStore(reopened.store);
        const [event] = await events.list(FEEDBACK_PROJECT);
        const stored = await events.get(FEEDBACK_PROJECT, event!.event_id);
        expect(stored.deliveries.find((d) => d.target === 'held')).toMatchObject({
          outcome: 'delivered',
          record: { proposed: true },
        });
        for (const project of [PROJECT, FEEDBACK_PROJECT, KERNEL_AUDIT_PROJECT]) {
          expect((await verifyProject(reopened.journal, project)).ok).toBe(true);
        }
      } finally {
        await reopened.close();
      }
      expect(reported.unhandled).toEqual([]);
      expect(reported.onError).toEqual([]);
    });
  });
}
