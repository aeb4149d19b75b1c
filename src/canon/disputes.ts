import { CanonryError, canonicalize, contentHash } from '../core/index.js';
import type { ReceiptCheck } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import type { ClaimInput, ProposalBody } from './records.js';
import type {
  Claim,
  ClaimHolder,
  DisputeResolution,
  NoteContent,
  NoteVersion,
  Principal,
  ProposalInput,
  SourceRef,
} from './types.js';

/**
 * Disputes keep every claim (§15: disputed state stays distinct and plural state is representable).
 * A `dispute` does not replace the disputed statement: the object keeps it, turns `disputed`, and its
 * version lists the competing claims, each once, with everyone who holds it, their sources and the
 * authority under which each entered canon. A `resolve` names the claim that stands and says why;
 * the others are set aside and stay in history. Any other change that settles a disputed object
 * collapses its claims (`collapsed`), which the two-note check `dispute_collapsed` flags.
 */

type Proposal = ProposalBody;
type Unreceipted = Omit<NoteVersion, 'receipt_ref'>;

/** A statement as a claim compares: case and spacing aside. */
const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Two statements are one claim when they say the same words (case and spacing aside). */
function sameClaim(a: string, b: string): boolean {
  return norm(a) === norm(b);
}

function claimId(objectId: string, openedIn: number, statement: string): string {
  const hash = contentHash({
    object_id: objectId,
    opened_in: openedIn,
    statement: norm(statement),
  });
  return `claim_${hash.slice('sha256:'.length, 'sha256:'.length + 16)}`;
}

/** The open claims of a version (none when it is not disputed through `dispute`). */
export function openClaims(version: NoteVersion | null): readonly Claim[] {
  return (version?.claims ?? []).filter((c) => c.state === 'open');
}

/** The holder a version stands for: its proposer (and approver), sources and gate. */
function holderOfVersion(version: NoteVersion): ClaimHolder {
  const a = (version.authority ?? {}) as {
    proposer?: ClaimHolder['principal'];
    approver?: ClaimHolder['approver'];
    gate?: string;
    gate_event?: ClaimHolder['gate_event'];
    proposal_id?: string;
  };
  return {
    principal: a.proposer ?? { id: version.actor, role: 'owner' },
    approver: a.approver ?? null,
    confidence_state: version.content.confidence_state,
    sources: version.sources,
    gate: a.gate ?? null,
    gate_event: a.gate_event ?? null,
    proposal_id: a.proposal_id ?? null,
    version_id: version.version_id,
    receipt_ref: version.receipt_ref,
  };
}

/**
 * A dispute proposal: the candidate's statement, sources and confidence are the competing claim; what
 * is proposed for the object is its current content, `disputed`. Refuses a claim that repeats the
 * disputed statement, or one its proposer already holds.
 */
export function prepareDispute(
  current: NoteVersion,
  input: ProposalInput,
  proposer: Principal,
): { candidate: NoteContent; claim: ClaimInput } {
  const claim: ClaimInput = {
    statement: input.candidate.text,
    sources: input.candidate.sources,
    confidence_state: input.candidate.confidence_state,
  };
  const open = openClaims(current);
  const held = open.find((c) => sameClaim(c.statement, claim.statement));
  if (open.length === 0 && sameClaim(current.content.text, claim.statement)) {
    throw new CanonryError(
      'INVALID_PROPOSAL',
      'a dispute states a competing claim: this is the statement it disputes',
      { field: 'candidate.text' },
    );
  }
  if (held?.holders.some((h) => h.principal.id === proposer.id)) {
    throw new CanonryError('CONFLICT', `${proposer.id} already holds ${held.claim_id}`, {
      claim_id: held.claim_id,
    });
  }
  return { candidate: { ...current.content, status: 'disputed' }, claim };
}

/**
 * A resolution: the object must have open claims, `claim_id` must be one of them, and the candidate
 * must state that claim and leave the disputed status.
 */
export function checkResolve(current: NoteVersion, input: ProposalInput): void {
  if (!input.rationale?.trim()) {
    throw new CanonryError('INVALID_PROPOSAL', 'a resolution must say why the claim stands', {
      field: 'rationale',
    });
  }
  const open = openClaims(current);
  const claim = open.find((c) => c.claim_id === input.claim_id);
  if (!claim) {
    throw new CanonryError(
      'UNKNOWN_CLAIM',
      open.length === 0
        ? `${input.object_id} has no open dispute to resolve`
        : `${input.claim_id} is not an open claim of ${input.object_id}`,
      { field: 'claim_id', open_claims: open.map((c) => c.claim_id) },
    );
  }
  if (!sameClaim(input.candidate.text, claim.statement)) {
    throw new CanonryError(
      'INVALID_PROPOSAL',
      `the candidate must state the claim that stands: "${claim.statement.slice(0, 200)}"`,
      { field: 'candidate.text' },
    );
  }
  if (input.candidate.status === 'disputed') {
    throw new CanonryError('INVALID_PROPOSAL', 'a resolution leaves the disputed status', {
      field: 'candidate.status',
    });
  }
}

/** The candidate of a resolution in which `claimId` stands: the current content with its statement. */
export function resolvedContent(current: NoteVersion, claimId: string): NoteContent {
  const claim = openClaims(current).find((c) => c.claim_id === claimId);
  if (!claim) {
    throw new CanonryError(
      'UNKNOWN_CLAIM',
      `${claimId} is not an open claim of ${current.note_id}`,
      {
        field: 'claim_id',
        open_claims: openClaims(current).map((c) => c.claim_id),
      },
    );
  }
  const sources = new Map(claim.holders.flatMap((h) => h.sources).map((s) => [canonicalize(s), s]));
  return {
    ...current.content,
    text: claim.statement,
    sources: [...sources.values()],
    confidence_state: claim.holders[0]!.confidence_state,
    status: 'active',
  };
}

/** Carries a claim into the next version: every holder names the receipt that recorded it. */
function carried(claim: Claim, current: NoteVersion): Claim {
  return {
    ...claim,
    holders: claim.holders.map((h) => ({
      ...h,
      receipt_ref: h.receipt_ref ?? current.receipt_ref,
    })),
  };
}

/**
 * The claims (and resolution) of the version a commit appends, from the current version's open
 * claims and the proposal: a dispute adds its claim (or a holder to the same claim), a resolution
 * closes them, any other change keeps them open while the object stays disputed and collapses them
 * when it does not.
 */
export function nextClaims(
  proposal: Proposal,
  current: NoteVersion | null,
  approver: Principal | null,
): { claims?: readonly Claim[]; resolution?: DisputeResolution } {
  const versionId = (current?.version_id ?? 0) + 1;
  const open = current ? openClaims(current).map((c) => carried(c, current)) : [];
  if (proposal.intent === 'dispute' && proposal.claim && current) {
    const claims =
      open.length > 0 ? [...open] : [opening(current, current.content.text, versionId)];
    const holder: ClaimHolder = {
      principal: { id: proposal.proposer.id, role: proposal.proposer.role },
      approver: approver ? { id: approver.id, role: approver.role } : null,
      confidence_state: proposal.claim.confidence_state,
      sources: proposal.claim.sources,
      gate: proposal.gate.label,
      gate_event: proposal.gate.event_hash,
      proposal_id: proposal.proposal_id,
      version_id: versionId,
      receipt_ref: null,
    };
    const at = claims.findIndex((c) => sameClaim(c.statement, proposal.claim!.statement));
    if (at >= 0) claims[at] = { ...claims[at]!, holders: [...claims[at]!.holders, holder] };
    else {
      const openedIn = claims[0]!.opened_in;
      const statement = proposal.claim.statement;
      claims.push({
        claim_id: claimId(proposal.object_id, openedIn, statement),
        statement,
        state: 'open',
        opened_in: openedIn,
        holders: [holder],
      });
    }
    return { claims };
  }
  if (open.length === 0) return {};
  if (proposal.intent === 'resolve' && proposal.claim_id) {
    const stands = open.find((c) => c.claim_id === proposal.claim_id)!;
    return {
      claims: open.map((c) => ({ ...c, state: c === stands ? 'stands' : 'set_aside' })),
      resolution: {
        claim_id: stands.claim_id,
        statement: stands.statement,
        rationale: proposal.rationale ?? '',
        set_aside: open.filter((c) => c !== stands).map((c) => c.claim_id),
      },
    };
  }
  const stillDisputed = proposal.intent !== 'retire' && proposal.candidate.status === 'disputed';
  return { claims: stillDisputed ? open : open.map((c) => ({ ...c, state: 'collapsed' })) };
}

/** The claim a dispute opens with: the disputed statement, held by whoever its version stands for. */
function opening(current: NoteVersion, statement: string, openedIn: number): Claim {
  return {
    claim_id: claimId(current.note_id, openedIn, statement),
    statement,
    state: 'open',
    opened_in: openedIn,
    holders: [holderOfVersion(current)],
  };
}

/** The receipt check of a commit that opened, joined, resolved or collapsed a dispute. */
export function disputeCheck(version: Unreceipted): ReceiptCheck | null {
  if (version.resolution) {
    const r = version.resolution;
    return {
      name: 'dispute_resolved',
      result: 'pass',
      detail: `${r.claim_id} stands ("${r.statement.slice(0, 200)}"); set aside ${r.set_aside.join(', ') || 'none'}; why: ${r.rationale}`,
    };
  }
  const claims = version.claims ?? [];
  if (claims.length === 0) return null;
  const collapsed = claims.every((c) => c.state === 'collapsed');
  return {
    name: 'dispute_claims',
    result: 'warn',
    detail: collapsed
      ? `${claims.length} claim(s) collapsed without a resolution: ${claims.map((c) => c.claim_id).join(', ')}`
      : `disputed: ${claims.length} open claim(s): ${claims.map((c) => c.claim_id).join(', ')}`,
  };
}

/**
 * Projection: the claims of a committed version into `canon_claims` (one row per object and claim,
 * its latest state), each holder recorded in this version naming this entry as its receipt.
 */
export async function applyClaims(
  tx: Queryable,
  project: string,
  seq: number,
  version: NoteVersion,
): Promise<void> {
  for (const claim of version.claims ?? []) {
    const record: Claim = {
      ...claim,
      holders: claim.holders.map((h) => ({
        ...h,
        receipt_ref: h.receipt_ref ?? `${project}#${seq}`,
      })),
    };
    await tx.run(
      `INSERT INTO canon_claims (project, object_id, claim_id, state, seq, record) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (project, object_id, claim_id) DO UPDATE SET state = $4, seq = $5, record = $6`,
      [project, version.note_id, claim.claim_id, claim.state, seq, canonicalize(record)],
    );
  }
}

/** A disputed object as a working set carries it: each claim once, who holds it and on what source. */
export interface DisputedNote {
  readonly object_id: string;
  readonly object_type: string;
  readonly version_id: number;
  readonly title: string;
  readonly claims: readonly {
    /** Null for an object made `disputed` without a dispute: its one statement, no competing claim recorded. */
    readonly claim_id: string | null;
    readonly statement: string;
    readonly held_by: readonly {
      readonly principal: string;
      readonly role: string;
      readonly confidence_state: string;
      readonly sources: readonly SourceRef[];
    }[];
  }[];
}

/** The working-set entry of a disputed object, from its current version. */
export function disputedNote(version: NoteVersion): DisputedNote {
  const open = openClaims(version);
  const claims =
    open.length > 0 ? open : [{ ...opening(version, version.content.text, 0), claim_id: null }];
  return {
    object_id: version.note_id,
    object_type: version.content.object_type,
    version_id: version.version_id,
    title: version.content.title,
    claims: claims.map((c) => ({
      claim_id: c.claim_id,
      statement: c.statement,
      held_by: c.holders.map((h) => ({
        principal: h.principal.id,
        role: h.principal.role,
        confidence_state: h.confidence_state,
        sources: h.sources,
      })),
    })),
  };
}
