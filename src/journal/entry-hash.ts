import {
  type ContentHash,
  canonicalize,
  canonicalString,
  contentHash,
  hashBytes,
  isContentHash,
} from '../core/index.js';
import type { PreparedInput } from './entry-input.js';
import type { EntryRow } from './entry-row.js';
import { ENTRY_FORMAT, type JournalEntry } from './types.js';

/** The `prev_hash` of a project's first entry: bound to the project, so chains cannot be spliced. */
export function genesisHash(project: string): ContentHash {
  return contentHash({ genesis: 'canonry-journal', project });
}

/** An entry exactly as it is hashed: every field but `hash`, absent values as null. */
export type UnhashedEntry = Omit<JournalEntry, 'hash'>;

/** The entry without its hash: what the hash covers. */
export function withoutHash(entry: JournalEntry): UnhashedEntry {
  const { hash: _hash, ...rest } = entry;
  return rest;
}

/** `sha256(JCS(entry without hash))`, by the general canonicalizer (verification, tests). */
export function entryHash(entry: UnhashedEntry): ContentHash {
  return contentHash(entry);
}

const str = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));
/** `str` for a new entry's texts, which were checked well-formed on input. */
const quoted = (value: string | null) => (value === null ? 'null' : canonicalString(value));

/**
 * The RFC 8785 text of an entry without its hash, assembled from canonical parts: the keys are fixed
 * and sorted, and every string comes quoted as RFC 8785 writes it, so this equals `canonicalize` of
 * the entry (a property test holds it to that) at a fraction of the cost.
 */
function entryText(
  project: string,
  seq: number,
  at: string,
  kind: string,
  actor: string,
  correlation: string,
  idempotency: string,
  bodyText: string,
  authorityText: string,
  receiptText: string,
  prevHash: string,
  format: number,
): string {
  return (
    `{"actor":${actor},"at":${at},"authority":${authorityText},"body":${bodyText},` +
    `"correlation_id":${correlation},"format":${format},"idempotency_key":${idempotency},` +
    `"kind":${kind},"prev_hash":${prevHash},"project":${project},"receipt":${receiptText},"seq":${seq}}`
  );
}

/** A new entry and the column values that store it (see `insertEntries`). */
export interface BuiltEntry {
  readonly entry: JournalEntry;
  readonly params: (string | number | null)[];
}

/** Builds the next entry of a chain from a prepared input. */
export function buildEntry(
  project: string,
  seq: number,
  prevHash: ContentHash,
  at: string,
  input: PreparedInput,
): BuiltEntry {
  const params: (string | number | null)[] = [];
  const entry = pushEntry(project, seq, prevHash, at, input, params);
  bodyTexts.set(entry, input.bodyText);
  return { entry, params };
}

/** Builds an entry and pushes its column values onto `rows` (flattened, as `insertEntries` takes). */
function pushEntry(
  project: string,
  seq: number,
  prevHash: ContentHash,
  at: string,
  input: PreparedInput,
  rows: (string | number | null)[],
): JournalEntry {
  // The project and kind were checked against patterns without a character to escape (every input
  // passes `checkInput`), and a content hash has none: quoted as they are. The rest as RFC 8785
  // quotes any string (a time may come from another process).
  const hash = hashBytes(
    entryText(
      `"${project}"`,
      seq,
      quoted(at),
      `"${input.kind}"`,
      quoted(input.actor),
      quoted(input.correlation_id),
      quoted(input.idempotency_key),
      input.bodyText,
      input.authorityText,
      input.receiptText,
      isContentHash(prevHash) ? `"${prevHash}"` : str(prevHash),
      ENTRY_FORMAT,
    ),
  );
  rows.push(
    project,
    seq,
    ENTRY_FORMAT,
    at,
    input.kind,
    input.bodyText,
    input.actor,
    input.authorityText,
    input.correlation_id,
    input.idempotency_key,
    input.receiptText,
    prevHash,
    hash,
  );
  const entry: JournalEntry = {
    project,
    seq,
    format: ENTRY_FORMAT,
    at,
    kind: input.kind,
    body: input.body,
    actor: input.actor,
    authority: input.authority,
    correlation_id: input.correlation_id,
    idempotency_key: input.idempotency_key,
    receipt: input.receipt,
    prev_hash: prevHash,
    hash,
  };
  return entry;
}

/** The canonical body text of each entry this process built, by entry object. */
const bodyTexts = new WeakMap<JournalEntry, string>();

/**
 * The RFC 8785 text of an entry's body — what its hash covers and its row stores: the text the
 * append computed, for an entry this process built (a projection need not encode the body again),
 * else encoded now.
 */
export function canonicalBody(entry: JournalEntry): string {
  return bodyTexts.get(entry) ?? canonicalize(entry.body);
}

/**
 * The hash a stored row commits to, from its stored texts without parsing them: the texts were
 * stored canonical, so any edit — even one that keeps the JSON value — changes it.
 */
export function rowHash(row: EntryRow): ContentHash {
  return hashBytes(
    entryText(
      str(row[0]),
      Number(row[1]),
      str(row[3]),
      str(row[4]),
      str(row[6]),
      str(row[8]),
      str(row[9]),
      row[5],
      row[7],
      row[10],
      str(row[11]),
      Number(row[2]),
    ),
  );
}

/**
 * Builds consecutive entries of a chain from `from`: each links to the one before. Inputs at the
 * indexes in `skip` (duplicates of earlier appends) get no entry.
 */
export function buildChain(
  project: string,
  from: { readonly seq: number; readonly hash: ContentHash },
  at: string,
  inputs: readonly PreparedInput[],
  skip?: ReadonlyMap<number, unknown>,
): BuiltEntry[] {
  const built: BuiltEntry[] = [];
  let seq = from.seq;
  let prev = from.hash;
  for (let n = 0; n < inputs.length; n++) {
    if (skip?.has(n)) continue;
    const next = buildEntry(project, ++seq, prev, at, inputs[n]!);
    prev = next.entry.hash;
    built.push(next);
  }
  return built;
}

/**
 * {@link buildChain} for the background writer: every input gets an entry, and the column values go
 * straight onto `rows` instead of an array per entry. Plain appends only (no projection reads
 * their bodies): their canonical texts are not kept for `canonicalBody`.
 */
export function buildChainInto(
  project: string,
  from: { readonly seq: number; readonly hash: ContentHash },
  at: string,
  inputs: readonly PreparedInput[],
  rows: (string | number | null)[],
): JournalEntry[] {
  const entries: JournalEntry[] = [];
  let prev = from.hash;
  for (let n = 0; n < inputs.length; n++) {
    const entry = pushEntry(project, from.seq + n + 1, prev, at, inputs[n]!, rows);
    prev = entry.hash;
    entries.push(entry);
  }
  return entries;
}
