import { type Canon, mayReadEntry, type Principal } from '../canon/index.js';
import type { JsonValue } from '../core/index.js';
import type { EntryKinds, JournalEntry } from '../journal/index.js';

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
  /** The kind's public summary (`EntryKindSpec.summary`); null for kinds with nothing to name. */
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

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
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
  kinds: EntryKinds | undefined,
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
    // Each kind says what of it may be shown (its `summary`); an unknown or unsummarised kind: null.
    summary: kinds?.summaryOf(entry) ?? null,
  };
}
