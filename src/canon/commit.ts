import { randomBytes } from 'node:crypto';
import { type ContentHash, contentHash } from '../core/index.js';
import type {
  AffectedDependent,
  EntryInput,
  ReceiptCheck,
  ReceiptInput,
} from '../journal/index.js';
import { COMPARISON_CHECKS, type Comparison, isConcern } from './compare.js';
import { disputeCheck, nextClaims } from './disputes.js';
import { COMMIT } from './entry-kinds.js';
import type { CommitBody, ProposalBody } from './records.js';
import type { NoteVersion, Principal } from './types.js';

/** A short random id with a prefix (`prop_…`, `msg_…`, `op_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/** The authority a principal's journal entry records: who, in which role, for which project. */
export function authorityOf(principal: Principal) {
  return { principal: principal.id, role: principal.role, project: principal.project };
}

/** The version a commit appends: immutable, hashed over everything but the receipt it will get. */
export function buildVersion(
  proposal: ProposalBody,
  current: NoteVersion | null,
  approver: Principal | null,
  timestamp: string,
): Omit<NoteVersion, 'receipt_ref'> {
  const unhashed = {
    note_id: proposal.object_id,
    version_id: (current?.version_id ?? 0) + 1,
    parent_version_hash: current?.version_hash ?? null,
    content: proposal.candidate,
    shape: proposal.candidate.shape,
    sources: proposal.candidate.sources,
    actor: (approver ?? proposal.proposer).id,
    authority: {
      proposer: { id: proposal.proposer.id, role: proposal.proposer.role },
      approver: approver ? { id: approver.id, role: approver.role } : null,
      gate: proposal.gate.label,
      gate_event: proposal.gate.event_hash,
      proposal_id: proposal.proposal_id,
    },
    timestamp,
    ...nextClaims(proposal, current, approver),
  };
  return { ...unhashed, version_hash: contentHash(unhashed) };
}

function checksOf(comparison: Comparison): ReceiptCheck[] {
  return COMPARISON_CHECKS.map((name) => {
    const { result, detail } = comparison.checks[name];
    return { name, result: isConcern(name, result) ? 'warn' : 'pass', detail };
  });
}

/** The receipt input of a commit: the §5 checks, the gate, warnings and what became stale. */
function receiptOf(
  proposal: ProposalBody,
  approver: Principal | null,
  affected: readonly AffectedDependent[],
  version: Omit<NoteVersion, 'receipt_ref'>,
): ReceiptInput {
  const dispute = disputeCheck(version);
  const c = proposal.comparison.checks;
  const warnings = [
    ...(c.information_removed.result
      ? [`removed: ${(c.information_removed.items ?? []).join('; ')}`]
      : []),
    ...(c.dependents_made_stale.result
      ? [`stale: ${(c.dependents_made_stale.items ?? []).join(', ')}`]
      : []),
  ];
  const uncertain = ['uncertain', 'inferred'].includes(proposal.candidate.confidence_state);
  return {
    checks: [
      ...checksOf(proposal.comparison),
      {
        name: 'stakes_gate',
        result: 'pass',
        detail: `${proposal.comparison.stakes} → ${proposal.gate.label}${approver ? `, approved by ${approver.id} (${approver.role})` : ''}; signed verdict ${proposal.gate.event_hash}`,
      },
      ...(dispute ? [dispute] : []),
    ],
    warnings,
    uncertainty: uncertain ? `held as ${proposal.candidate.confidence_state}` : null,
    affected_dependents: [...affected],
    rollback_route: proposal.base_version
      ? `restore ${proposal.object_id} to version ${proposal.base_version} (appends; history is kept)`
      : `retire ${proposal.object_id} (appends; history is kept)`,
    acceptance_state: proposal.candidate.status === 'provisional' ? 'provisional' : 'accepted',
  };
}

/**
 * The `canon.commit` entry for a proposal: version, §7 operation, receipt input (`affected`: what the
 * cascade reaches, as the proposal's readers may see it), and the artifacts built on the base.
 */
export function commitEntry(
  proposal: ProposalBody,
  current: NoteVersion | null,
  approver: Principal | null,
  stale: readonly string[],
  timestamp: string,
  affected: readonly AffectedDependent[],
  version: Omit<NoteVersion, 'receipt_ref'>,
): EntryInput {
  const actor = approver ?? proposal.proposer;
  const body: CommitBody = {
    proposal_id: proposal.proposal_id,
    version,
    supersedes: proposal.supersedes,
    stale_artifacts: stale,
    operation: {
      operation_id: newId('op'),
      operation_type: proposal.intent,
      target_object: proposal.object_id,
      prior_version: (current?.version_hash as ContentHash | undefined) ?? null,
      candidate_version: version.version_hash,
      acting_actor: actor.id,
      authority_basis: { proposer: proposal.proposer, approver },
      source_refs: proposal.candidate.sources.map(
        (s) => `${s.message_id}[${s.span[0]}:${s.span[1]}]`,
      ),
      policy_result: {
        label: proposal.gate.label,
        event_hash: proposal.gate.event_hash,
        protocol_hash: proposal.gate.protocol_hash,
      },
      timestamp,
      correlation_id: proposal.proposal_id,
    },
  };
  return COMMIT.input(body, {
    actor: actor.id,
    authority: authorityOf(actor),
    correlation_id: proposal.proposal_id,
    receipt: receiptOf(proposal, approver, affected, version),
  });
}
