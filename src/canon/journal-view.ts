import type { JournalEntry } from '../journal/index.js';
import type { Canon } from './canon.js';
import {
  type Audience,
  mayRead,
  messageAudience,
  proposalAudience,
  versionAudience,
} from './planes.js';
import type { CanonReader } from './read.js';
import type { CanonEntryBodies } from './records.js';
import type { Principal } from './types.js';

/**
 * A journal entry as a principal who may not read it sees it: where it sits in the chain and its
 * hash, so the chain still links (`prev_hash` of the next entry), and nothing else — not its kind,
 * time, actor, body, keys or receipt. A count of such entries is what the chain itself shows.
 */
export interface RedactedEntry {
  readonly project: string;
  readonly seq: number;
  readonly format: number;
  readonly prev_hash: string;
  readonly hash: string;
  readonly redacted: true;
}

/** Nobody's: an entry whose body is not what canon writes is never shown to a principal. */
const NOBODY: Audience = { shared: false, holder: '' };

type Body = Record<string, unknown> | null;

function record(value: unknown): Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Who may read a journal entry: canon's entries carry note bodies and follow their note's plane. */
async function entryAudience(reader: CanonReader, entry: JournalEntry): Promise<Audience> {
  if (!entry.kind.startsWith('canon.')) return { shared: true };
  const body = record(entry.body);
  try {
    switch (entry.kind) {
      case 'canon.message': {
        const { message } = body as unknown as CanonEntryBodies['canon.message'];
        return messageAudience(message);
      }
      case 'canon.proposal': {
        const { proposal } = body as unknown as CanonEntryBodies['canon.proposal'];
        return proposalAudience(proposal);
      }
      case 'canon.commit':
        return versionAudience((body as unknown as CanonEntryBodies['canon.commit']).version);
      case 'canon.recompare':
      case 'canon.reject': {
        const id = body?.proposal_id;
        const proposal = typeof id === 'string' ? await reader.proposal(id) : null;
        return proposal ? proposalAudience(proposal) : NOBODY;
      }
      case 'canon.classification':
        // Its drafts may name the speaker's own personal notes (the classifier saw the canon the
        // speaker may read): only the speaker reads it.
        return { shared: false, holder: entry.actor };
      case 'canon.classification_failed': {
        // Follows its message: a personal message's failures are its speaker's alone.
        const id = body?.message_id;
        const message = typeof id === 'string' ? await reader.message(id) : null;
        return message ? messageAudience(message) : NOBODY;
      }
      case 'canon.classifier':
        // Subject ids may name notes of any plane: principals read the configuration through the
        // classifier route (editors and owners); its entries are their author's (an import: nobody's).
        return { shared: false, holder: entry.actor };
      case 'canon.artifact': {
        const { manifest } = body as unknown as CanonEntryBodies['canon.artifact'];
        return await reader.artifactAudience(manifest);
      }
      default:
        return NOBODY;
    }
  } catch {
    // A body without the fields its kind promises (a bug, or a hand-edited row): fail closed.
    return NOBODY;
  }
}

function redact(entry: JournalEntry): RedactedEntry {
  const { project, seq, format, prev_hash, hash } = entry;
  return { project, seq, format, prev_hash, hash, redacted: true };
}

/** Whether `viewer` may read a journal entry of its project (§14), e.g. before answering its receipt. */
export async function mayReadEntry(
  canon: Canon,
  viewer: Principal,
  entry: JournalEntry,
): Promise<boolean> {
  return mayRead(viewer.id, await entryAudience(canon.reader(viewer.project), entry));
}

/**
 * Journal entries as `viewer` may read them (§14): an entry about another principal's personal note,
 * message, proposal or artifact is a {@link RedactedEntry}; every other entry is whole, so it
 * re-hashes to its `hash`. The unredacted chain stays the store's: `verifyProject` and exported
 * segments (an operator's act) verify it whole.
 */
export async function readableEntries(
  canon: Canon,
  viewer: Principal,
  entries: readonly JournalEntry[],
): Promise<(JournalEntry | RedactedEntry)[]> {
  const reader = canon.reader(viewer.project);
  const out: (JournalEntry | RedactedEntry)[] = [];
  for (const entry of entries) {
    out.push(mayRead(viewer.id, await entryAudience(reader, entry)) ? entry : redact(entry));
  }
  return out;
}
