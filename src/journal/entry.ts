import {
  CanonryError,
  type ContentHash,
  canonicalize,
  contentHash,
  hashBytes,
  isContentHash,
  type JsonValue,
} from '../core/index.js';
import { ENTRY_FORMAT, type JournalEntry, type ReceiptInput } from './types.js';

const PROJECT = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const KIND = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+){0,7}$/;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_TEXT = 256;

/** Returns `project` if it is a valid project name, else throws INVALID_PROJECT. */
export function parseProject(project: unknown): string {
  if (typeof project !== 'string' || !PROJECT.test(project)) {
    throw new CanonryError(
      'INVALID_PROJECT',
      'project names are 1-64 of a-z 0-9 _ -, starting with a-z or 0-9',
    );
  }
  return project;
}

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

/**
 * An append request after its checks: the values, and their canonical texts computed once — they
 * are hashed and stored as they are, never canonicalized again.
 */
export interface PreparedInput {
  readonly kind: string;
  readonly actor: string;
  readonly correlation_id: string | null;
  readonly idempotency_key: string | null;
  readonly body: JsonValue;
  readonly authority: JsonValue;
  readonly receipt: ReceiptInput | null;
  readonly bodyText: string;
  readonly authorityText: string;
  readonly receiptText: string;
}

function bad(message: string): never {
  throw new CanonryError('INVALID_ENTRY', message);
}

function optionalText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > MAX_TEXT ||
    !value.isWellFormed()
  ) {
    bad(`${field} must be a non-empty string of at most ${MAX_TEXT} characters`);
  }
  return value;
}

/** Checks an append request from outside; every field is hostile. Throws INVALID_ENTRY. */
export function checkInput(input: unknown): PreparedInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    bad('an entry must be an object');
  const e = input as Record<string, unknown>;
  const known = [
    'kind',
    'body',
    'actor',
    'authority',
    'correlation_id',
    'idempotency_key',
    'receipt',
  ];
  const unknown = Object.keys(e).find((k) => !known.includes(k));
  if (unknown !== undefined) bad(`unknown field ${JSON.stringify(unknown.slice(0, 64))}`);
  if (typeof e.kind !== 'string' || e.kind.length > 64 || !KIND.test(e.kind)) {
    bad('kind must be dotted lowercase words, e.g. canon.commit');
  }
  if (!('body' in e)) bad('body is required');
  if (
    typeof e.actor !== 'string' ||
    e.actor.length === 0 ||
    e.actor.length > MAX_TEXT ||
    !e.actor.isWellFormed()
  ) {
    bad(`actor must be a non-empty string of at most ${MAX_TEXT} characters`);
  }
  const correlation = optionalText(e.correlation_id, 'correlation_id');
  const idempotency = optionalText(e.idempotency_key, 'idempotency_key');
  if (e.receipt !== undefined && e.receipt !== null) checkReceiptInput(e.receipt);
  let bodyText: string;
  let authorityText: string;
  let receiptText: string;
  try {
    bodyText = canonicalize(e.body);
    authorityText = canonicalize(e.authority ?? null);
    receiptText = canonicalize(e.receipt ?? null);
  } catch (err) {
    bad(`body, authority and receipt must be JSON: ${(err as Error).message}`);
  }
  if (bodyText.length > MAX_BODY_BYTES && Buffer.byteLength(bodyText) > MAX_BODY_BYTES)
    bad('body is over 1 MiB');
  return {
    kind: e.kind,
    actor: e.actor,
    correlation_id: correlation,
    idempotency_key: idempotency,
    body: e.body as JsonValue,
    authority: (e.authority ?? null) as JsonValue,
    receipt: (e.receipt ?? null) as ReceiptInput | null,
    bodyText,
    authorityText,
    receiptText,
  };
}

function checkReceiptInput(value: unknown): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    bad('receipt must be an object');
  const r = value as Record<string, unknown>;
  const known = [
    'checks',
    'warnings',
    'uncertainty',
    'affected_dependents',
    'rollback_route',
    'acceptance_state',
  ];
  if (Object.keys(r).some((k) => !known.includes(k))) bad('receipt has an unknown field');
  const strings = (v: unknown) =>
    v === undefined || (Array.isArray(v) && v.every((s) => typeof s === 'string'));
  if (!strings(r.warnings)) bad('receipt warnings must be strings');
  const dependent = (d: unknown) => {
    if (typeof d === 'string') return true;
    if (typeof d !== 'object' || d === null || Array.isArray(d)) return false;
    const o = d as Record<string, unknown>;
    return (
      Object.keys(o).sort().join(',') === 'cause,depth,id,kind,state' &&
      typeof o.id === 'string' &&
      typeof o.kind === 'string' &&
      typeof o.state === 'string' &&
      typeof o.cause === 'string' &&
      Number.isSafeInteger(o.depth) &&
      (o.depth as number) >= 0
    );
  };
  if (
    r.affected_dependents !== undefined &&
    !(Array.isArray(r.affected_dependents) && r.affected_dependents.every(dependent))
  ) {
    bad('receipt affected_dependents are ids or { id, kind, depth, state, cause }');
  }
  const check = (c: unknown) =>
    typeof c === 'object' &&
    c !== null &&
    typeof (c as { name?: unknown }).name === 'string' &&
    ['pass', 'fail', 'warn', 'skip'].includes((c as { result?: string }).result as string);
  if (r.checks !== undefined && !(Array.isArray(r.checks) && r.checks.every(check))) {
    bad('receipt checks are { name, result: pass|fail|warn|skip, detail? }');
  }
  if (
    r.acceptance_state !== undefined &&
    !['accepted', 'provisional', 'rejected'].includes(r.acceptance_state as string)
  ) {
    bad('acceptance_state is accepted, provisional or rejected');
  }
}

const str = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));

/**
 * The RFC 8785 text of an entry without its hash, assembled from canonical parts: the keys are fixed
 * and sorted, strings are well-formed (checked on input), so this equals `canonicalize` of the entry
 * (a property test holds it to that) at a fraction of the cost.
 */
function entryText(
  project: string,
  seq: number,
  at: string,
  kind: string,
  actor: string,
  correlation: string | null,
  idempotency: string | null,
  bodyText: string,
  authorityText: string,
  receiptText: string,
  prevHash: string,
  format: number,
): string {
  return (
    `{"actor":${str(actor)},"at":${str(at)},"authority":${authorityText},"body":${bodyText},` +
    `"correlation_id":${str(correlation)},"format":${format},"idempotency_key":${str(idempotency)},` +
    `"kind":${str(kind)},"prev_hash":${str(prevHash)},"project":${str(project)},"receipt":${receiptText},"seq":${seq}}`
  );
}

/** A new entry and the column values that store it (see {@link insertEntries}). */
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
  const hash = hashBytes(
    entryText(
      project,
      seq,
      at,
      input.kind,
      input.actor,
      input.correlation_id,
      input.idempotency_key,
      input.bodyText,
      input.authorityText,
      input.receiptText,
      prevHash,
      ENTRY_FORMAT,
    ),
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
  const params = [
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
  ];
  return { entry, params };
}

/** The stored columns of an entry, in the order of {@link EntryRow} and of {@link BuiltEntry.params}. */
export const ENTRY_COLUMN_NAMES =
  'project, seq, format, at, kind, body, actor, authority, correlation_id, idempotency_key, receipt, prev_hash, hash';

/** Every column of `journal_entries` in row order: add a WHERE clause and read with `values`. */
export const SELECT_ENTRIES = `SELECT ${ENTRY_COLUMN_NAMES} FROM journal_entries`;

/**
 * A row of `journal_entries` as `values(SELECT_ENTRIES …)` returns it: an array, because scans read
 * a million of them and an object per row costs as much as reading it.
 */
export type EntryRow = readonly [
  project: string,
  seq: number,
  format: number,
  at: string,
  kind: string,
  body: string,
  actor: string,
  authority: string,
  correlation_id: string | null,
  idempotency_key: string | null,
  receipt: string,
  prev_hash: string,
  hash: string,
];

/** Columns of one stored entry (parameters per row of {@link insertEntries}). */
export const ENTRY_COLUMNS = 13;
const inserts = new Map<number, string>();

/** The statement that stores `rows` entries at once (parameters row after row); cached per count. */
export function insertEntries(rows: number): string {
  let sql = inserts.get(rows);
  if (sql === undefined) {
    const values = Array.from({ length: rows }, (_, r) => {
      const first = r * ENTRY_COLUMNS;
      return `(${Array.from({ length: ENTRY_COLUMNS }, (_, c) => `$${first + c + 1}`).join(', ')})`;
    });
    sql = `INSERT INTO journal_entries (${ENTRY_COLUMN_NAMES}) VALUES ${values.join(', ')}`;
    inserts.set(rows, sql);
  }
  return sql;
}

/**
 * The hash a stored row commits to, from its stored texts without parsing them: the texts were
 * stored canonical, so any edit — even one that keeps the JSON value — changes it.
 */
export function rowHash(row: EntryRow): ContentHash {
  return hashBytes(
    entryText(
      row[0],
      Number(row[1]),
      row[3],
      row[4],
      row[6],
      row[8],
      row[9],
      row[5],
      row[7],
      row[10],
      row[11],
      Number(row[2]),
    ),
  );
}

/**
 * Reads a stored row back into an entry, upgrading older formats. Rows are hostile (the database can
 * be edited): a row that does not parse throws STORE_CORRUPT naming its seq.
 */
export function rowToEntry(row: EntryRow): JournalEntry {
  try {
    const entry: JournalEntry = {
      project: row[0],
      seq: Number(row[1]),
      format: Number(row[2]),
      at: row[3],
      kind: row[4],
      body: JSON.parse(row[5]) as JsonValue,
      actor: row[6],
      authority: JSON.parse(row[7]) as JsonValue,
      correlation_id: row[8],
      idempotency_key: row[9],
      receipt: JSON.parse(row[10]) as ReceiptInput | null,
      prev_hash: row[11] as ContentHash,
      hash: row[12] as ContentHash,
    };
    if (
      entry.format !== ENTRY_FORMAT ||
      !isContentHash(entry.hash) ||
      !isContentHash(entry.prev_hash)
    ) {
      throw new Error('unknown format or malformed hash');
    }
    return entry;
  } catch (err) {
    throw new CanonryError(
      'STORE_CORRUPT',
      `journal entry ${row[0]}#${row[1]} is unreadable`,
      { project: row[0], seq: Number(row[1]) },
      { cause: err },
    );
  }
}
