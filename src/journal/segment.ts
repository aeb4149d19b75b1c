import {
  CanonryError,
  type ContentHash,
  canonicalize,
  isContentHash,
  jsonTextDepth,
  MAX_CANONICAL_DEPTH,
} from '../core/index.js';
import { checkRevocationList, type TrustAnchor } from '../trust/index.js';
import { readBase } from './base.js';
import { type Checkpoint, verifyCheckpoint } from './checkpoint.js';
import { genesisHash } from './entry-hash.js';
import { parseProject } from './entry-input.js';
import type { Journal } from './journal.js';
import { scanEntries } from './scan.js';
import type { JournalEntry, VerifyReport } from './types.js';
import { type ChainItem, verifyChain } from './verify-chain.js';

/** The type tag of a segment's first line. */
export const SEGMENT_TYPE = 'canonry/journal-segment';

/** The first line of an exported segment. */
export interface SegmentHeader {
  readonly type: typeof SEGMENT_TYPE;
  readonly v: 1;
  readonly project: string;
  readonly from_seq: number;
  readonly to_seq: number;
  readonly start_prev_hash: ContentHash;
  /**
   * The root-signed revocation list (PEM) current when the segment was exported, so that a relying
   * party holding only the pinned root can check revocation offline. It is as fresh as the export:
   * a later list, passed to the verifier, takes precedence.
   */
  readonly revocation_list?: string;
}

/** How an exported segment is written. */
export interface ExportOptions {
  /** The root-signed revocation list to carry in the header (PEM). */
  readonly revocationList?: string;
}

/** How a segment is verified beyond its trust anchor. */
export interface SegmentVerifyOptions {
  /**
   * Also check revocation against the list the segment carries (its root signature is checked
   * either way), besides the anchor's list when it has one: an issuer revoked on either fails.
   * Off by default: the caller chooses.
   */
  readonly useEmbeddedRevocationList?: boolean;
}

const MAX_REVOCATION_LIST = 1 << 20;

/**
 * Exports a project as JSONL, one canonical JSON value per line: a header (with the revocation list,
 * when given), every entry after `after`, and a checkpoint signed at the head (made now if the head
 * has none). With the pinned root alone the segment verifies offline, and any changed character in
 * any line fails it.
 */
export async function* exportSegment(
  journal: Journal,
  project: string,
  after = 0,
  options: ExportOptions = {},
): AsyncGenerator<string> {
  const name = parseProject(project);
  const checkpoint = await journal.checkpoint(name);
  if (checkpoint.seq === 0)
    throw new CanonryError('UNKNOWN_PROJECT', `project ${name} has no entries`);
  // A pruned prefix is gone: the segment starts at the chain's base at the earliest.
  const base = await readBase(journal.store, name);
  const from = Math.max(after, base.seq);
  // The entry the segment follows: its hash is what the segment's first entry links to.
  const before =
    from === base.seq ? null : (await journal.read(name, { after: from - 1, limit: 1 }))[0];
  const header: SegmentHeader = {
    type: SEGMENT_TYPE,
    v: 1,
    project: name,
    from_seq: from + 1,
    to_seq: checkpoint.seq,
    start_prev_hash: before ? before.hash : from === 0 ? genesisHash(name) : base.hash,
    ...(options.revocationList === undefined ? {} : { revocation_list: options.revocationList }),
  };
  yield `${canonicalize(header)}\n`;
  for await (const item of scanEntries(journal.store, name, from)) {
    if ('unreadable' in item)
      throw new CanonryError('STORE_CORRUPT', `entry ${item.unreadable} is unreadable`);
    if (item.seq > checkpoint.seq) break;
    yield `${canonicalize(item)}\n`;
  }
  yield `${canonicalize(checkpoint)}\n`;
}

/**
 * Verifies an exported segment offline against the pinned root: every line must be exactly the
 * canonical JSON of its value, the checkpoint's signature must chain to the root, a revocation list
 * carried in the header must be the root's, the checkpoint's issuer must not be revoked (on the
 * anchor's list nor, when asked, on the carried one), and the entries must chain from the header's start
 * to the signed head. Throws INVALID_SEGMENT for a text that is not a segment at all; otherwise
 * reports the first broken seq.
 */
export async function verifySegment(
  text: string,
  anchor: TrustAnchor,
  options: SegmentVerifyOptions = {},
): Promise<VerifyReport> {
  // Lines are read one at a time as the walk reaches them, never all held at once: a hostile file
  // of millions of tiny lines costs memory bounded by its size and fails at its first non-entry.
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const headerEnd = body.indexOf('\n');
  if (headerEnd < 0) throw bad('a segment has a header, entries and a checkpoint');
  const checkpointStart = body.lastIndexOf('\n');
  const header = readHeader(parseLine(body.slice(0, headerEnd), 1));
  const checkpointValue = parseLine(body.slice(checkpointStart + 1), countLines(body));
  // First the chain to the root (a wrong root is CHAIN_INVALID, whatever else the segment holds),
  // then the list the segment carries, which is part of it, then revocation against the chosen list.
  // The checkpoint carries no signing time: its issuer is judged at the anchor's `at` (now if absent).
  const { root, at } = anchor;
  const chained = checkpointOrThrow(verifyCheckpoint(checkpointValue, { root, at }));
  const embedded = header.revocation_list;
  if (embedded !== undefined && !checkRevocationList(embedded, anchor.root).ok) {
    throw bad('the revocation list in the header is not signed by the pinned root');
  }
  // Both lists are the root's own, so a revocation on either stands: a stale list handed to the
  // verifier must not hide a revocation the (newer) carried list records, nor the reverse.
  const lists = [anchor.revocationList, options.useEmbeddedRevocationList ? embedded : undefined];
  let checkpoint = chained;
  for (const revocationList of lists) {
    if (revocationList === undefined) continue;
    checkpoint = checkpointOrThrow(verifyCheckpoint(checkpointValue, { root, at, revocationList }));
  }
  if (checkpoint.project !== header.project || checkpoint.seq !== header.to_seq) {
    throw bad('the header does not match the signed checkpoint');
  }
  const entries = () => entryLines(body, headerEnd + 1, checkpointStart);
  return verifyChain(asItems(entries(), header.from_seq), {
    project: header.project,
    start: { seq: header.from_seq, prevHash: header.start_prev_hash },
    head: { seq: checkpoint.seq, hash: checkpoint.head_hash },
    checkpoints: [{ seq: checkpoint.seq, head_hash: checkpoint.head_hash }],
    source: 'segment',
    // Only to explain a break, once: one more walk over the entry lines.
    findByHash: async (hash) => {
      for (const entry of entries()) {
        if (isObject(entry) && entry.hash === hash) {
          return Number.isSafeInteger(entry.seq) ? (entry.seq as number) : null;
        }
      }
      return null;
    },
  });
}

/** The value of one line, which must be exactly its canonical JSON; `n` is its 1-based number. */
function parseLine(line: string, n: number): unknown {
  // Nothing nested deeper than canonical JSON allows can be canonical: measured before parsing, so
  // a line of millions of brackets costs one scan, not a parse of millions of nested arrays.
  if (jsonTextDepth(line, MAX_CANONICAL_DEPTH) > MAX_CANONICAL_DEPTH) {
    throw bad(`line ${n} is not canonical JSON (nested deeper than ${MAX_CANONICAL_DEPTH})`);
  }
  try {
    const value: unknown = JSON.parse(line);
    if (canonicalize(value) === line) return value;
  } catch {}
  throw bad(`line ${n} is not canonical JSON`);
}

/** How many lines `body` (without its final newline) has. */
function countLines(body: string): number {
  let n = 1;
  for (let i = body.indexOf('\n'); i >= 0; i = body.indexOf('\n', i + 1)) n++;
  return n;
}

/** The values of the lines from offset `from` up to the newline at `end`, parsed as reached. */
function* entryLines(body: string, from: number, end: number): Generator<unknown> {
  for (let at = from, n = 2; at <= end; n++) {
    const stop = body.indexOf('\n', at);
    yield parseLine(body.slice(at, stop), n);
    at = stop + 1;
  }
}

/** The revocation list a segment's header carries, if it parses as one; the text is not verified. */
export function segmentRevocationList(text: string): string | undefined {
  const end = text.indexOf('\n');
  const first = end < 0 ? text : text.slice(0, end);
  if (jsonTextDepth(first, MAX_CANONICAL_DEPTH) > MAX_CANONICAL_DEPTH) return undefined;
  try {
    const list = (JSON.parse(first) as { revocation_list?: unknown }).revocation_list;
    return typeof list === 'string' ? list : undefined;
  } catch {
    return undefined;
  }
}

function readHeader(value: unknown): SegmentHeader {
  const h = value as Record<string, unknown>;
  const ok =
    typeof h === 'object' &&
    h !== null &&
    Object.keys(h)
      .filter((k) => k !== 'revocation_list')
      .sort()
      .join(',') === 'from_seq,project,start_prev_hash,to_seq,type,v' &&
    (h.revocation_list === undefined ||
      (typeof h.revocation_list === 'string' && h.revocation_list.length <= MAX_REVOCATION_LIST)) &&
    h.type === SEGMENT_TYPE &&
    h.v === 1 &&
    typeof h.project === 'string' &&
    Number.isSafeInteger(h.from_seq) &&
    Number.isSafeInteger(h.to_seq) &&
    (h.from_seq as number) >= 1 &&
    isContentHash(h.start_prev_hash);
  if (!ok) throw bad('the first line is not a segment header');
  parseProject(h.project);
  if (h.from_seq === 1 && h.start_prev_hash !== genesisHash(h.project as string)) {
    throw bad('a segment from seq 1 must start at the project genesis hash');
  }
  return h as unknown as SegmentHeader;
}

/**
 * The entry lines as chain items; a line that is not an entry is unreadable at the seq its place in
 * the segment stands for (`from` is the header's `from_seq`), since it may carry no seq of its own.
 */
async function* asItems(entries: Iterable<unknown>, from: number): AsyncGenerator<ChainItem> {
  let seq = from;
  for (const entry of entries) {
    if (
      !isObject(entry) ||
      !Number.isSafeInteger(entry.seq) ||
      typeof entry.hash !== 'string' ||
      typeof entry.prev_hash !== 'string'
    ) {
      yield { unreadable: seq };
      return;
    }
    yield entry as unknown as JournalEntry;
    seq++;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkpointOrThrow(checked: ReturnType<typeof verifyCheckpoint>): Checkpoint {
  if (checked.ok) return checked.value;
  const issue = checked.issues[0]!;
  throw new CanonryError(
    issue.code === 'INVALID_CHECKPOINT' ? 'INVALID_SEGMENT' : issue.code,
    issue.message,
  );
}

function bad(message: string): CanonryError {
  return new CanonryError('INVALID_SEGMENT', message);
}
