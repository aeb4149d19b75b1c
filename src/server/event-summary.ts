import { type Canon, mayReadEntry, type Principal } from '../canon/index.js';
import type { JsonValue } from '../core/index.js';
import type { JournalEntry } from '../journal/index.js';

/**
 * One entry as the live feed tells it: where it sits in the chain, who did it under which authority,
 * and a few identifiers of what it did — never its body. A client that wants the whole entry reads it
 * (`GET …/journal?after=seq-1&limit=1`), under the journal route's own redaction.
 */
export interface FeedEvent {
  readonly seq: number;
  readonly kind: string;
  readonly at: string;
  readonly actor: string;
  readonly authority: Readonly<Record<string, string>>;
  readonly hash: string;
  readonly prev_hash: string;
  /** Per kind (see {@link summaryOf}); null for kinds with nothing to name. */
  readonly summary: Readonly<Record<string, JsonValue>> | null;
}

/** An entry the viewer may not read (another principal's personal plane, LCSM §14): its place only. */
export interface RedactedFeedEvent {
  readonly seq: number;
  readonly hash: string;
  readonly prev_hash: string;
  readonly redacted: true;
}

type Body = Record<string, unknown>;

function record(value: unknown): Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Body)
    : {};
}

/** A string field, or null: bodies are read as found, never trusted to have their kind's shape. */
function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function integer(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The identifiers a kind's summary names: ids, versions, outcomes and the gate's label. Never note or
 * message text, comparisons, the gate's signed event, classifier output or failure details, and
 * nothing of kinds not listed here (the kernel's `kernel.verdict` audit is never in a served project).
 */
export function summaryOf(entry: JournalEntry): Record<string, JsonValue> | null {
  const body = record(entry.body);
  switch (entry.kind) {
    case 'canon.message': {
      const message = record(body.message);
      return {
        message_id: text(message.message_id),
        role: text(message.role),
        visibility: text(message.visibility) ?? 'project',
      };
    }
    case 'canon.classification':
      return { message_id: text(body.message_id) };
    case 'canon.classification_failed':
      return { message_id: text(body.message_id), code: text(body.code) };
    case 'canon.proposal': {
      const proposal = record(body.proposal);
      return {
        proposal_id: text(proposal.proposal_id),
        object_id: text(proposal.object_id),
        intent: text(proposal.intent),
        status: text(proposal.status),
        gate: text(record(proposal.gate).label),
        required_role: text(proposal.required_role),
      };
    }
    case 'canon.recompare':
      return {
        proposal_id: text(body.proposal_id),
        gate: text(record(body.gate).label),
        required_role: text(body.required_role),
      };
    case 'canon.commit': {
      const version = record(body.version);
      return {
        proposal_id: text(body.proposal_id),
        object_id: text(version.note_id),
        version_id: integer(version.version_id),
        version_hash: text(version.version_hash),
        supersedes: strings(body.supersedes),
        stale_artifacts: strings(body.stale_artifacts),
      };
    }
    case 'canon.reject':
      return {
        proposal_id: text(body.proposal_id),
        outcome: 'rejected',
        by: text(record(body.by).id),
      };
    case 'canon.classifier':
      return { source: text(body.source) };
    case 'canon.artifact': {
      const manifest = record(body.manifest);
      return {
        artifact_id: text(manifest.artifact_id),
        artifact_version: integer(manifest.artifact_version),
        acceptance_state: text(manifest.acceptance_state),
      };
    }
    case 'auth.token.issued':
    case 'auth.token.revoked':
      return {
        token_id: text(body.token_id),
        principal: text(body.principal),
        role: text(body.role),
      };
    case 'kernel.protocol':
      return { hash: text(body.hash) };
    default:
      return null;
  }
}

/** The authority's naming fields (principal, role, project, system), nothing else it may carry. */
function authorityOf(value: JsonValue): Record<string, string> {
  const authority = record(value);
  const out: Record<string, string> = {};
  for (const key of ['principal', 'role', 'project', 'system']) {
    const v = text(authority[key]);
    if (v !== null) out[key] = v;
  }
  return out;
}

/** The feed event of an entry for `viewer`: summarised, or redacted when it may not read it (§14). */
export async function feedEvent(
  canon: Canon,
  viewer: Principal,
  entry: JournalEntry,
): Promise<FeedEvent | RedactedFeedEvent> {
  const { seq, hash, prev_hash } = entry;
  if (!(await mayReadEntry(canon, viewer, entry))) return { seq, hash, prev_hash, redacted: true };
  return {
    seq,
    kind: entry.kind,
    at: entry.at,
    actor: entry.actor,
    authority: authorityOf(entry.authority),
    hash,
    prev_hash,
    summary: summaryOf(entry),
  };
}
