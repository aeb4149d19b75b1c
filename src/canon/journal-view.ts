import type { JournalEntry } from '../journal/index.js';
import type { Canon } from './canon.js';
import {
  ARTIFACT,
  CLASSIFICATION,
  CLASSIFICATION_FAILED,
  CLASSIFIER,
  COMMIT,
  INTAKE_DONE,
  MESSAGE,
  PROPOSAL,
  RECOMPARE,
  REJECT,
} from './entry-kinds.js';
import {
  type Audience,
  mayRead,
  messageAudience,
  proposalAudience,
  versionAudience,
} from './planes.js';
import type { CanonReader } from './read.js';
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

/** Who may read a journal entry: canon's entries carry note bodies and follow their note's plane. */
async function entryAudience(reader: CanonReader, entry: JournalEntry): Promise<Audience> {
  if (!entry.kind.startsWith('canon.')) return { shared: true };
  // A body without the fields its kind promises (a bug, or a hand-edited row) is read by nobody.
  if (MESSAGE.is(entry)) return messageAudience(entry.body.message);
  if (PROPOSAL.is(entry)) return proposalAudience(entry.body.proposal);
  if (COMMIT.is(entry)) return versionAudience(entry.body.version);
  if (RECOMPARE.is(entry) || REJECT.is(entry)) {
    const proposal = await reader.proposal(entry.body.proposal_id);
    return proposal ? proposalAudience(proposal) : NOBODY;
  }
  // Its drafts may name the speaker's own personal notes (the classifier saw the canon the
  // speaker may read): only the speaker reads it.
  if (CLASSIFICATION.is(entry)) return { shared: false, holder: entry.actor };
  // What an intake made of those drafts (failures name their objects): the speaker's too.
  if (INTAKE_DONE.is(entry)) return { shared: false, holder: entry.actor };
  if (CLASSIFICATION_FAILED.is(entry)) {
    // Follows its message: a personal message's failures are its speaker's alone.
    const message = await reader.message(entry.body.message_id);
    return message ? messageAudience(message) : NOBODY;
  }
  // Subject ids may name notes of any plane: principals read the configuration through the
  // classifier route (editors and owners); its entries are their author's (an import: nobody's).
  if (CLASSIFIER.is(entry)) return { shared: false, holder: entry.actor };
  if (ARTIFACT.is(entry)) return reader.artifactAudience(entry.body.manifest);
  return NOBODY;
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
