import type { Journal } from '../journal/index.js';
import { pruneProject } from '../journal/index.js';
import type { Signer } from '../trust/index.js';
import { KERNEL_AUDIT_PROJECT } from './journal-audit-sink.js';
import type { RuntimeLogger } from './logger.js';

/** How often the retention sweep runs (and once shortly after start). */
const SWEEP_MS = 60 * 60 * 1000;
const FIRST_SWEEP_MS = 10_000;

/**
 * Keeps the kernel's audit journal to its retention: entries older than `days` are pruned (the
 * chain then starts from a signed anchor, see `pruneProject`), soon after start and every hour.
 * Only the audit is pruned: canon's journals are history. Failures are logged; the next sweep
 * tries again.
 */
export function startAuditRetention(
  journal: Journal,
  days: number,
  signer: () => Signer,
  logger: RuntimeLogger,
  now: () => Date = () => new Date(),
): { stop(): Promise<void>; sweep(): Promise<void> } {
  let running: Promise<void> | undefined;
  let stopped = false;
  const sweep = async (): Promise<void> => {
    if (running) return running;
    if (stopped) return;
    running = (async () => {
      try {
        const cutoff = new Date(now().getTime() - days * 86_400_000);
        if ((await journal.head(KERNEL_AUDIT_PROJECT)).seq === 0) return;
        const result = await pruneProject(journal, KERNEL_AUDIT_PROJECT, cutoff, signer());
        if (result.pruned > 0) {
          logger.info(
            { project: KERNEL_AUDIT_PROJECT, pruned: result.pruned, base: result.base, days },
            'audit retention: pruned entries past their retention',
          );
        }
      } catch (err) {
        logger.error({ err }, 'audit retention failed; the next sweep will try again');
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
  const first = setTimeout(() => void sweep(), FIRST_SWEEP_MS).unref();
  const every = setInterval(() => void sweep(), SWEEP_MS).unref();
  return {
    sweep,
    // A sweep in flight is waited for: the store closes after this resolves.
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
