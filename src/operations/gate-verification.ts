import type { CanonryRuntime } from '../app/index.js';
import type { ProposalRecord } from '../canon/index.js';
import { verifyConformanceEvent } from '../kernel/index.js';

/** A proposal's signed gate verdict checked against this server's root and revocation list. */
export interface GateVerification {
  readonly ok: boolean;
  /**
   * Why it does not verify: the kernel's code (CHAIN_INVALID, ISSUER_REVOKED, …), HASH_MISMATCH when
   * it verifies but binds another label or input, or ISSUER_EXPIRED when it fails at now only because
   * its issuer's (or root's) window ended after the proposal was recorded.
   */
  readonly issue: string | null;
  /** With ISSUER_EXPIRED: when the proposal was recorded, an instant at which it verifies (`at`). */
  readonly valid_at?: string;
}

function checked(runtime: CanonryRuntime, p: ProposalRecord, at: Date): GateVerification {
  const keyring = runtime.keyring;
  const result = verifyConformanceEvent(p.gate.event, {
    root: keyring.rootCertificatePem,
    revocationList: keyring.revocationListPem(),
    at,
  });
  if (!result.ok) return { ok: false, issue: `${result.issues[0]!.code}` };
  if (result.value.label !== p.gate.label || result.value.artifact_hash !== p.gate.input_hash) {
    return { ok: false, issue: 'HASH_MISMATCH' };
  }
  return { ok: true, issue: null };
}

/**
 * Checks the gate event at `at`, now when absent. An event carries no signing time, so an issuer
 * that expired since makes an old proposal's verdict fail at now like a forged chain would; the
 * proposal's journal entry does carry a time, after the gate signed: when the verdict verifies at
 * that instant, the failure is named ISSUER_EXPIRED with that instant, for a verifier to ask with.
 */
export async function verifyGate(
  runtime: CanonryRuntime,
  project: string,
  p: ProposalRecord,
  at: Date | undefined,
): Promise<GateVerification> {
  if (!p.gate.event) return { ok: false, issue: 'no signed event (the gate failed closed)' };
  const judged = checked(runtime, p, at ?? new Date());
  if (judged.ok || at !== undefined || judged.issue !== 'CHAIN_INVALID') return judged;
  const [entry] = await runtime.journal.read(project, { after: p.seq - 1, limit: 1 });
  if (entry?.seq !== p.seq) return judged;
  const recorded = new Date(entry.at);
  if (!(recorded.getTime() < Date.now()) || !checked(runtime, p, recorded).ok) return judged;
  return { ok: false, issue: 'ISSUER_EXPIRED', valid_at: entry.at };
}
