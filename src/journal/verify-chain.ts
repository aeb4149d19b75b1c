import type { ContentHash } from '../core/index.js';
import { entryHash, genesisHash, withoutHash } from './entry-hash.js';
import type { BreakReason, JournalEntry, VerifyReport } from './types.js';

/** An entry, or the seq of a row that could not be read back. */
export type ChainItem = JournalEntry | { readonly unreadable: number };

/** What the walk is checked against besides the entries themselves. */
export interface ChainContext {
  readonly project: string;
  /** The seq and prev_hash the walk starts from (an exported segment may start mid-chain). */
  readonly start?: { readonly seq: number; readonly prevHash: ContentHash };
  /** The recorded head, when there is one to compare with. */
  readonly head?: { readonly seq: number; readonly hash: ContentHash } | null;
  /** Signed checkpoints already verified as signatures: each must match the entry at its seq. */
  readonly checkpoints?: readonly { readonly seq: number; readonly head_hash: ContentHash }[];
  /** Finds which stored entry carries a hash; used only to explain a break. */
  readonly findByHash: (hash: ContentHash) => Promise<number | null>;
  /**
   * What is walked: the live store's rows (the default) or an exported segment file, whose entries
   * are lines after its header and whose head is its signed checkpoint; the break details say so.
   */
  readonly source?: 'store' | 'segment';
}

/** The words a break detail uses for what was walked. */
interface ChainWords {
  unreadable(seq: number): string;
  missing(expected: number, found: number): string;
  headMismatch(head: number, end: number): string;
  linksTo(seq: number, elsewhere: number): string;
  hashChanged(seq: number): string;
  checkpointBeyond(seq: number): string;
}

const STORE_WORDS: ChainWords = {
  unreadable: () => 'the stored row does not parse',
  missing: (expected, found) => `seq ${expected} is missing (next stored seq is ${found})`,
  headMismatch: (head, end) => `the recorded head is seq ${head}; the chain ends at seq ${end}`,
  linksTo: (seq, elsewhere) => `seq ${seq} links to the entry stored at seq ${elsewhere}`,
  hashChanged: (seq) => `the stored hash of seq ${seq} was changed; its content was not`,
  checkpointBeyond: (seq) => `a signed checkpoint covers seq ${seq}, past the end of the chain`,
};

/** A segment's line n (1-based; the header is line 1) holds seq `from + n - 2`. */
function segmentWords(from: number): ChainWords {
  const line = (seq: number) => seq - from + 2;
  return {
    unreadable: (seq) => `line ${line(seq)} of the segment is not a journal entry`,
    missing: (expected, found) =>
      `seq ${expected} is missing from the segment (line ${line(expected)} holds seq ${found})`,
    headMismatch: (head, end) =>
      `the segment's signed checkpoint is at seq ${head}; its entry lines end at seq ${end}`,
    linksTo: (seq, elsewhere) =>
      `seq ${seq} links to the entry the segment holds at seq ${elsewhere}`,
    hashChanged: (seq) =>
      `the hash written for seq ${seq} in the segment was changed; its content was not`,
    checkpointBeyond: (seq) =>
      `the segment's signed checkpoint covers seq ${seq}, past its last entry line`,
  };
}

/**
 * Walks a chain in seq order and names the first seq that breaks it and why: an entry missing, rows
 * reordered, a body changed under its stored hash, a hash rewritten (the row was re-hashed, so the
 * next entry no longer links to it), a head or signed checkpoint that disagrees.
 */
export async function verifyChain(
  items: AsyncIterable<ChainItem>,
  ctx: ChainContext,
): Promise<VerifyReport> {
  const first = ctx.start ?? { seq: 1, prevHash: genesisHash(ctx.project) };
  const words = ctx.source === 'segment' ? segmentWords(first.seq) : STORE_WORDS;
  const checkpoints = new Map((ctx.checkpoints ?? []).map((c) => [c.seq, c.head_hash]));
  let expected = first.seq;
  let prevHash = first.prevHash;
  let checked = 0;
  let matchedCheckpoints = 0;
  const report = (broken: VerifyReport['broken']): VerifyReport => ({
    project: ctx.project,
    ok: broken === null,
    checked,
    head: { seq: expected - 1, hash: prevHash },
    broken,
    checkpoints: matchedCheckpoints,
  });
  const brokenAt = (seq: number, reason: BreakReason, detail: string) =>
    report({ seq, reason, detail });

  const iterator = items[Symbol.asyncIterator]();
  let next = await iterator.next();
  while (!next.done) {
    const item = next.value;
    next = await iterator.next();
    if ('unreadable' in item)
      return brokenAt(item.unreadable, 'unreadable', words.unreadable(item.unreadable));
    if (item.seq !== expected) {
      return brokenAt(expected, 'missing-entry', words.missing(expected, item.seq));
    }
    const recomputed = entryHash(withoutHash(item));
    const selfOk = recomputed === item.hash && item.project === ctx.project;
    const linkOk = item.prev_hash === prevHash;
    if (!selfOk || !linkOk) {
      const following = next.done || 'unreadable' in next.value ? null : next.value;
      const [seq, reason, detail] = await explain(item, recomputed, selfOk, following, ctx, words);
      return brokenAt(seq, reason, detail);
    }
    const signed = checkpoints.get(item.seq);
    if (signed !== undefined) {
      if (signed !== item.hash) {
        return brokenAt(
          item.seq,
          'checkpoint-mismatch',
          `the signed checkpoint at seq ${item.seq} names another hash`,
        );
      }
      matchedCheckpoints++;
    }
    checked++;
    expected++;
    prevHash = item.hash;
  }
  if (ctx.head && (ctx.head.seq !== expected - 1 || ctx.head.hash !== prevHash)) {
    const seq = Math.min(ctx.head.seq, expected);
    return brokenAt(seq, 'head-mismatch', words.headMismatch(ctx.head.seq, expected - 1));
  }
  const beyond = [...checkpoints.keys()].find((seq) => seq >= expected);
  if (beyond !== undefined) {
    return brokenAt(expected, 'missing-entry', words.checkpointBeyond(beyond));
  }
  return report(null);
}

async function explain(
  item: JournalEntry,
  recomputed: ContentHash,
  selfOk: boolean,
  following: JournalEntry | null,
  ctx: ChainContext,
  words: ChainWords,
): Promise<[number, BreakReason, string]> {
  const elsewhere = await ctx.findByHash(item.prev_hash);
  if (elsewhere !== null && elsewhere !== item.seq - 1) {
    return [item.seq, 'reordered', words.linksTo(item.seq, elsewhere)];
  }
  if (selfOk) {
    // The row itself is consistent but its predecessor's stored hash is not what it committed to:
    // the predecessor was re-hashed after its content changed.
    return [
      item.seq - 1,
      'hash-rewritten',
      `seq ${item.seq} commits to a different hash for seq ${item.seq - 1}`,
    ];
  }
  if (following && following.prev_hash === recomputed) {
    return [item.seq, 'hash-rewritten', words.hashChanged(item.seq)];
  }
  const onRecord = following?.prev_hash ?? ctx.head?.hash;
  if (onRecord === recomputed) {
    return [item.seq, 'hash-rewritten', words.hashChanged(item.seq)];
  }
  return [item.seq, 'body-changed', `the content of seq ${item.seq} no longer matches its hash`];
}
