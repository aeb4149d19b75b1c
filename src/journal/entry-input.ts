import { CanonryError, canonicalize, isProjectName, type JsonValue } from '../core/index.js';
import type { EntryKinds } from './entry-kind.js';
import type { ReceiptInput } from './types.js';

const KIND = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+){0,7}$/;
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_TEXT = 256;

/** Returns `project` if it is a valid project name, else throws INVALID_PROJECT. */
export function parseProject(project: unknown): string {
  if (!isProjectName(project)) {
    throw new CanonryError(
      'INVALID_PROJECT',
      'project names are 1-64 of a-z 0-9 _ -, starting with a-z or 0-9',
    );
  }
  return project;
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
  readonly body: unknown;
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
    !value.isWellFormed() ||
    value.includes('\u0000')
  ) {
    bad(`${field} must be a non-empty string of at most ${MAX_TEXT} characters, without NUL`);
  }
  return value;
}

const KNOWN = new Set([
  'kind',
  'body',
  'actor',
  'authority',
  'correlation_id',
  'idempotency_key',
  'receipt',
]);

/**
 * Checks an append request from outside; every field is hostile. Throws INVALID_ENTRY, or — when
 * the journal has registered kinds — UNKNOWN_ENTRY_KIND for a kind it does not know and
 * INVALID_ENTRY (with the schema issue) for a body that does not match its kind.
 */
export function checkInput(input: unknown, kinds?: EntryKinds): PreparedInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    bad('an entry must be an object');
  const e = input as Record<string, unknown>;
  for (const key in e) {
    if (Object.hasOwn(e, key) && !KNOWN.has(key))
      bad(`unknown field ${JSON.stringify(key.slice(0, 64))}`);
  }
  if (typeof e.kind !== 'string' || e.kind.length > 64 || !KIND.test(e.kind)) {
    bad('kind must be dotted lowercase words, e.g. canon.commit');
  }
  if (!('body' in e)) bad('body is required');
  if (
    typeof e.actor !== 'string' ||
    e.actor.length === 0 ||
    e.actor.length > MAX_TEXT ||
    !e.actor.isWellFormed() ||
    // Stored as a text column, and PostgreSQL's text cannot hold NUL (SQLite's could: refused alike).
    e.actor.includes('\u0000')
  ) {
    bad(`actor must be a non-empty string of at most ${MAX_TEXT} characters, without NUL`);
  }
  const correlation = optionalText(e.correlation_id, 'correlation_id');
  const idempotency = optionalText(e.idempotency_key, 'idempotency_key');
  if (e.receipt !== undefined && e.receipt !== null) checkReceiptInput(e.receipt);
  kinds?.checkBody(e.kind, e.body);
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
    body: e.body,
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
