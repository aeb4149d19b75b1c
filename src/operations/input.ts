import { tokenIdArg } from '../auth/index.js';
import {
  CLAIM_ID,
  MESSAGE_ID,
  MESSAGE_ID_RULE,
  objectId,
  PROPOSAL_ID,
  type ProposalStatus,
  refuseAuthorityClaims,
  type WorkingSetRequest,
} from '../canon/index.js';
import {
  CanonryError,
  type ContentHash,
  type ErrorCode,
  isContentHash,
  parseInstant,
} from '../core/index.js';

/**
 * Checks for what arrives from outside (HTTP and the CLI alike): bodies, path ids and query values.
 * Every failure is a typed 4xx; nothing here trusts a type.
 */

type Raw = Record<string, unknown>;

/** Query values are strings of at most this many characters. */
const MAX_QUERY_VALUE = 200;

/** The query of a request, refusing unknown parameters and repeated or oversized values. */
export function onlyQuery(query: unknown, allowed: readonly string[]): Record<string, string> {
  const q = (query ?? {}) as Raw;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(q)) {
    if (!allowed.includes(key)) {
      throw new CanonryError(
        'INVALID_ARGUMENT',
        `unknown query parameter ${JSON.stringify(key.slice(0, 64))}`,
        { field: key.slice(0, 64) },
      );
    }
    if (typeof value !== 'string' || value.length > MAX_QUERY_VALUE) {
      throw new CanonryError('INVALID_ARGUMENT', `${key} must be given once, as a short string`, {
        field: key,
      });
    }
    out[key] = value;
  }
  return out;
}

/** A query value that must be one of `allowed` (or absent). */
export function oneOfQuery<T extends string>(
  value: string | undefined,
  allowed: readonly T[],
  field: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!allowed.includes(value as T)) {
    throw new CanonryError('INVALID_ARGUMENT', `${field} must be one of ${allowed.join(', ')}`, {
      field,
    });
  }
  return value as T;
}

/**
 * The verifier's instant (`at`: an RFC 3339 date-time with an offset), or undefined when absent;
 * anything else is `code` (INVALID_BODY for a body field, INVALID_ARGUMENT for a query value) naming
 * the field. Signed documents carry no signing time, so the relying party says when to judge them.
 */
export function instantInput(value: unknown, field: string, code: ErrorCode): Date | undefined {
  if (value === undefined) return undefined;
  const at = typeof value === 'string' ? parseInstant(value) : null;
  if (at === null) {
    throw new CanonryError(
      code,
      `${field} must be an RFC 3339 date-time with an offset, e.g. 2030-01-31T00:00:00Z`,
      { field },
    );
  }
  return at;
}

/**
 * A query integer in `[min, max]` (digits only: no sign, exponent or hex), or `fallback` when absent;
 * anything else is INVALID_ARGUMENT naming the field and its range.
 */
export function intQuery(
  value: string | undefined,
  field: string,
  min: number,
  max: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const n = /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min && n <= max)) {
    throw new CanonryError('INVALID_ARGUMENT', `${field} must be an integer ${min}–${max}`, {
      field,
    });
  }
  return n;
}

/**
 * A JSON object body with only `allowed` fields. Authority claims (`actor`, `authority`, `role`, …)
 * are AUTHORITY_FROM_PAYLOAD unless listed in `claims`; an absent body is `{}` when `optional`.
 */
export function bodyObject(
  body: unknown,
  allowed: readonly string[],
  options: { optional?: boolean; claims?: readonly string[] } = {},
): Raw {
  if (body === undefined && options.optional) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new CanonryError('INVALID_BODY', 'the body must be a JSON object');
  }
  const b = body as Raw;
  refuseAuthorityClaims(b, options.claims ?? []);
  const unknown = Object.keys(b).find((k) => !allowed.includes(k));
  if (unknown !== undefined) {
    throw new CanonryError(
      'INVALID_BODY',
      `unknown field ${JSON.stringify(unknown.slice(0, 64))}`,
      {
        field: unknown.slice(0, 64),
      },
    );
  }
  return b;
}

/** Refuses authority claims at the top level of an object body (other bodies pass untouched). */
export function refuseClaims(body: unknown): void {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    refuseAuthorityClaims(body as Raw);
  }
}

/** Refuses a body on a route that takes none (authority claims still say so). */
export function noBody(body: unknown): void {
  if (body === undefined) return;
  refuseClaims(body);
  throw new CanonryError('INVALID_BODY', 'this route takes no body');
}

/** A well-formed string of `min`–`max` characters (INVALID_BODY otherwise). */
export function text(value: unknown, field: string, max: number, min = 1): string {
  if (
    typeof value !== 'string' ||
    value.length < min ||
    value.length > max ||
    !value.isWellFormed()
  ) {
    throw new CanonryError(
      'INVALID_BODY',
      `${field} must be a string of ${min}–${max} characters`,
      {
        field,
      },
    );
  }
  return value;
}

/** An object (or artifact) id, checked with canon's validator; INVALID_ARGUMENT when it fails. */
export function objectIdArg(value: unknown, field = 'object_id'): string {
  try {
    return objectId(value, field);
  } catch {
    throw new CanonryError(
      'INVALID_ARGUMENT',
      `${field} must be lowercase letters, digits, . _ - (max 100)`,
      { field },
    );
  }
}

/** A proposal id (`prop_` and 16 hex digits). */
export function proposalIdArg(value: unknown): string {
  if (typeof value !== 'string' || !PROPOSAL_ID.test(value)) {
    throw new CanonryError('INVALID_ARGUMENT', 'a proposal id is prop_ and 16 hex digits', {
      field: 'proposal_id',
    });
  }
  return value;
}

/** A message id ({@link MESSAGE_ID_RULE}; percent-encoded in a path). */
export function messageIdArg(value: unknown): string {
  if (typeof value !== 'string' || !MESSAGE_ID.test(value)) {
    throw new CanonryError('INVALID_ARGUMENT', `a message id is ${MESSAGE_ID_RULE}`, {
      field: 'message_id',
    });
  }
  return value;
}

/** A content hash (`sha256:` and 64 lowercase hex digits). */
export function hashArg(value: unknown, field: string): ContentHash {
  if (!isContentHash(value)) {
    throw new CanonryError('INVALID_HASH', `${field} must be sha256: and 64 lowercase hex digits`, {
      field,
    });
  }
  return value;
}

/** A version named in a path: its number (an integer from 1) or its hash (`sha256:…`). */
export function versionArg(value: unknown): ContentHash | number {
  if (typeof value === 'string' && /^[1-9]\d{0,15}$/.test(value)) {
    const n = Number(value);
    if (Number.isSafeInteger(n)) return n;
  }
  if (isContentHash(value)) return value;
  throw new CanonryError(
    'INVALID_ARGUMENT',
    'version must be a version number (an integer from 1) or a version hash (sha256:…)',
    { field: 'version' },
  );
}

/** Proposal statuses a list can filter by. */
export const PROPOSAL_STATUSES: readonly ProposalStatus[] = ['pending', 'committed', 'rejected'];

/** `{ objective?, object_id?, limit? }` for a working set. */
export function workingSetRequest(body: unknown): WorkingSetRequest {
  const b = bodyObject(body, ['objective', 'object_id', 'limit'], { optional: true });
  const request: { objective?: string; object_id?: string; limit?: number } = {};
  if (b.objective !== undefined) request.objective = text(b.objective, 'objective', 2_000);
  if (b.object_id !== undefined) request.object_id = objectIdArg(b.object_id);
  if (b.limit !== undefined) {
    if (!Number.isSafeInteger(b.limit) || (b.limit as number) < 1 || (b.limit as number) > 100) {
      throw new CanonryError('INVALID_BODY', 'limit must be an integer 1–100', { field: 'limit' });
    }
    request.limit = b.limit as number;
  }
  return request;
}

/** `{ version_hash, rationale? }` for a restore. */
export function restoreRequest(body: unknown): {
  version: ContentHash | number;
  rationale?: string;
} {
  const b = bodyObject(body, ['version_hash', 'version', 'rationale']);
  if ((b.version_hash === undefined) === (b.version === undefined)) {
    throw new CanonryError(
      'INVALID_BODY',
      'name the version to restore by exactly one of version_hash (sha256:…) or version (its number)',
      { field: 'version' },
    );
  }
  const version =
    b.version === undefined ? hashArg(b.version_hash, 'version_hash') : versionNumber(b.version);
  return b.rationale === undefined
    ? { version }
    : { version, rationale: text(b.rationale, 'rationale', 2_000) };
}

/** A version number: a JSON integer from 1. */
function versionNumber(n: unknown): number {
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw new CanonryError('INVALID_BODY', 'version is a version number, an integer from 1', {
      field: 'version',
    });
  }
  return n;
}

/** `{ claim_id, rationale }` for a resolution: the open claim that stands, and why. */
export function resolveRequest(body: unknown): { claim_id: string; rationale: string } {
  const b = bodyObject(body, ['claim_id', 'rationale']);
  if (typeof b.claim_id !== 'string' || !CLAIM_ID.test(b.claim_id)) {
    throw new CanonryError('INVALID_BODY', 'claim_id is claim_ and 16 hex digits', {
      field: 'claim_id',
    });
  }
  const rationale = text(b.rationale, 'rationale', 2_000);
  if (rationale.trim() === '') {
    throw new CanonryError('INVALID_BODY', 'rationale must say why the claim stands', {
      field: 'rationale',
    });
  }
  return { claim_id: b.claim_id, rationale };
}

/** `{ reason }` for a rejection. */
export function rejectRequest(body: unknown): { reason: string } {
  const b = bodyObject(body, ['reason']);
  return { reason: text(b.reason, 'reason', 2_000) };
}

/** `{ base_version? }` for an approval: the version the approver saw as current. */
export function approveRequest(body: unknown): { base_version?: ContentHash | null } {
  const b = bodyObject(body, ['base_version'], { optional: true });
  if (b.base_version === undefined) return {};
  if (b.base_version !== null && !isContentHash(b.base_version)) {
    throw new CanonryError('INVALID_BODY', 'base_version must be a sha256: hash or null', {
      field: 'base_version',
    });
  }
  return { base_version: b.base_version as ContentHash | null };
}

/** `{ acceptance_state }` for an artifact review. */
export function reviewRequest(body: unknown): { acceptance_state: string } {
  const b = bodyObject(body, ['acceptance_state']);
  if (typeof b.acceptance_state !== 'string') {
    throw new CanonryError('INVALID_BODY', 'acceptance_state is proposed, accepted or rejected', {
      field: 'acceptance_state',
    });
  }
  return { acceptance_state: b.acceptance_state };
}

/** `{ principal, role }` for a new token (the token's own principal and role, not the caller's). */
export function tokenRequest(body: unknown): { principal: string; role: string } {
  const b = bodyObject(body, ['principal', 'role'], { claims: ['principal', 'role'] });
  return { principal: text(b.principal, 'principal', 100), role: text(b.role, 'role', 16) };
}

export { tokenIdArg };
