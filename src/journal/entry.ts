import {
  CanonryError,
  type ContentHash,
  canonicalize,
  contentHash,
  isContentHash,
  type JsonValue,
} from '../core/index.js';
import { ENTRY_FORMAT, type EntryInput, type JournalEntry, type ReceiptInput } from './types.js';

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

/** `sha256(JCS(entry without hash))`. */
export function entryHash(entry: UnhashedEntry): ContentHash {
  return contentHash(entry);
}

/** Checks an append request from outside; every field is hostile. Throws INVALID_ENTRY. */
export function checkInput(input: unknown): EntryInput {
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
  if (typeof e.actor !== 'string' || e.actor.length === 0 || e.actor.length > MAX_TEXT) {
    bad(`actor must be a non-empty string of at most ${MAX_TEXT} characters`);
  }
  for (const field of ['correlation_id', 'idempotency_key'] as const) {
    const v = e[field];
    if (
      v !== undefined &&
      v !== null &&
      (typeof v !== 'string' || v.length === 0 || v.length > MAX_TEXT)
    ) {
      bad(`${field} must be a non-empty string of at most ${MAX_TEXT} characters`);
    }
  }
  let bodyText: string;
  try {
    bodyText = canonicalize(e.body);
    canonicalize(e.authority ?? null);
    canonicalize(e.receipt ?? null);
  } catch (err) {
    bad(`body, authority and receipt must be JSON: ${(err as Error).message}`);
  }
  if (Buffer.byteLength(bodyText) > MAX_BODY_BYTES) bad('body is over 1 MiB');
  if (e.receipt !== undefined && e.receipt !== null) checkReceiptInput(e.receipt);
  return e as unknown as EntryInput;
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
  if (!strings(r.warnings) || !strings(r.affected_dependents))
    bad('receipt lists must hold strings');
  if (
    r.checks !== undefined &&
    !(
      Array.isArray(r.checks) &&
      r.checks.every(
        (c) =>
          typeof c === 'object' &&
          c !== null &&
          typeof c.name === 'string' &&
          ['pass', 'fail', 'warn', 'skip'].includes(c.result),
      )
    )
  ) {
    bad('receipt checks are { name, result: pass|fail|warn|skip, detail? }');
  }
  if (
    r.acceptance_state !== undefined &&
    !['accepted', 'provisional', 'rejected'].includes(r.acceptance_state as string)
  ) {
    bad('acceptance_state is accepted, provisional or rejected');
  }
}

/** Builds the next entry of a chain. */
export function buildEntry(
  project: string,
  seq: number,
  prevHash: ContentHash,
  at: string,
  input: EntryInput,
): JournalEntry {
  const unhashed: UnhashedEntry = {
    project,
    seq,
    format: ENTRY_FORMAT,
    at,
    kind: input.kind,
    body: input.body,
    actor: input.actor,
    authority: input.authority ?? null,
    correlation_id: input.correlation_id ?? null,
    idempotency_key: input.idempotency_key ?? null,
    receipt: (input.receipt as ReceiptInput | null | undefined) ?? null,
    prev_hash: prevHash,
  };
  return { ...unhashed, hash: entryHash(unhashed) };
}

/** A row of `journal_entries` as the store returns it. */
export interface EntryRow {
  project: string;
  seq: number;
  format: number;
  at: string;
  kind: string;
  body: string;
  actor: string;
  authority: string;
  correlation_id: string | null;
  idempotency_key: string | null;
  receipt: string;
  prev_hash: string;
  hash: string;
}

/** The parameters that store an entry, in the column order of {@link INSERT_ENTRY}. */
export function entryParams(e: JournalEntry): (string | number | null)[] {
  return [
    e.project,
    e.seq,
    e.format,
    e.at,
    e.kind,
    canonicalize(e.body),
    e.actor,
    canonicalize(e.authority),
    e.correlation_id,
    e.idempotency_key,
    canonicalize(e.receipt),
    e.prev_hash,
    e.hash,
  ];
}

/** The statement that stores one entry. */
export const INSERT_ENTRY = `INSERT INTO journal_entries
  (project, seq, format, at, kind, body, actor, authority, correlation_id, idempotency_key, receipt, prev_hash, hash)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;

/**
 * Reads a stored row back into an entry, upgrading older formats. Rows are hostile (the database can
 * be edited): a row that does not parse throws STORE_CORRUPT naming its seq.
 */
export function rowToEntry(row: EntryRow): JournalEntry {
  try {
    const entry: JournalEntry = {
      project: row.project,
      seq: Number(row.seq),
      format: Number(row.format),
      at: row.at,
      kind: row.kind,
      body: JSON.parse(row.body) as JsonValue,
      actor: row.actor,
      authority: JSON.parse(row.authority) as JsonValue,
      correlation_id: row.correlation_id,
      idempotency_key: row.idempotency_key,
      receipt: JSON.parse(row.receipt) as ReceiptInput | null,
      prev_hash: row.prev_hash as ContentHash,
      hash: row.hash as ContentHash,
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
      `journal entry ${row.project}#${row.seq} is unreadable`,
      {
        project: row.project,
        seq: Number(row.seq),
      },
      { cause: err },
    );
  }
}

function bad(message: string): never {
  throw new CanonryError('INVALID_ENTRY', message);
}
