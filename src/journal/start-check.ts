import type { TrustAnchor } from '../trust/index.js';
import type { Journal, Quarantine } from './journal.js';
import { verifyProject } from './maintenance.js';

/** What {@link verifyOnStart} found. */
export interface StartCheck {
  /** Projects whose chain verified. */
  readonly verified: number;
  /** Entries walked over all projects. */
  readonly entries: number;
  /** Projects whose chain did not verify; appends to them are now refused. */
  readonly broken: readonly Quarantine[];
  /** Projects whose unsigned tail was closed with a checkpoint signed now. */
  readonly signed: number;
  /** Projects whose unsigned tail could not be signed now, and why. */
  readonly unsigned: readonly { readonly project: string; readonly reason: string }[];
}

/**
 * Verifies every project's chain before a server serves it: the tail since its last signed
 * checkpoint (`tail`, the checkpoint's signature and entry included) or the whole chain (`full`).
 * A project that does not verify is quarantined (its appends refused with CHAIN_BROKEN) and
 * reported; the others get a checkpoint at their head if entries followed the last one (left by a
 * crash), so the unsigned window starts closed. `onProject` reports progress.
 */
export async function verifyOnStart(
  journal: Journal,
  anchor: TrustAnchor,
  scope: 'tail' | 'full',
  onProject?: (project: string, index: number, total: number) => void,
): Promise<StartCheck> {
  const projects = await journal.projects();
  const broken: Quarantine[] = [];
  let entries = 0;
  let signed = 0;
  const unsigned: { project: string; reason: string }[] = [];
  for (const [i, { project }] of projects.entries()) {
    onProject?.(project, i, projects.length);
    // A checkpoint of an issuer revoked since is no tampering: verified past, from the one before.
    const report = await verifyProject(journal, project, anchor, { scope, revoked: 'skip' });
    entries += report.checked;
    if (report.broken !== null) {
      const quarantine = { project, ...report.broken };
      journal.quarantine(quarantine);
      broken.push(quarantine);
      continue;
    }
    if ((report.unsigned?.entries ?? 0) > 0) {
      try {
        await journal.checkpoint(project);
        signed++;
      } catch (err) {
        // No issuer to sign with (a keyring between issuers), or a store that refused: the chain
        // verified, it is only not yet covered; the timer or the next start signs it.
        unsigned.push({ project, reason: err instanceof Error ? err.message : String(err) });
      }
    }
  }
  return { verified: projects.length - broken.length, entries, broken, signed, unsigned };
}
