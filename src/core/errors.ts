/**
 * Typed errors. Every failure canonry reports outside the process carries one stable code from
 * {@link ERROR_CODES}; callers `switch (err.code)` and never parse messages. The table below is the one
 * place that maps a code to its HTTP status; `docs/errors.md` documents every code (a test checks).
 */

/** Each code with its HTTP status and a generic, secret-free description. */
export const ERROR_CODES = {
  // The TCP/AP verdict classes (§5, §6).
  INVALID_REQUEST: {
    status: 400,
    message: 'the artifact did not satisfy the protocol constraints',
  },
  INTERPRETATION_DRIFT: {
    status: 422,
    message: 'the artifact did not resolve to a single admissible outcome',
  },
  // Request shape and transport.
  MALFORMED_BODY: { status: 400, message: 'the request body is not valid JSON' },
  INVALID_BODY: { status: 400, message: 'the request body does not have the expected shape' },
  NESTING_TOO_DEEP: { status: 400, message: 'the request body is nested too deeply' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'the request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'the request body must be application/json' },
  NOT_ACCEPTABLE: { status: 406, message: 'the request does not accept what the route answers' },
  NOT_FOUND: { status: 404, message: 'no such route' },
  MALFORMED_REQUEST: { status: 400, message: 'the request is not well-formed HTTP' },
  REQUEST_TIMEOUT: { status: 408, message: 'the request did not arrive in time' },
  HEADERS_TOO_LARGE: { status: 431, message: 'the request headers are too large' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'the route does not answer this method' },
  RATE_LIMITED: { status: 429, message: 'too many requests from this client; retry later' },
  EVENT_STREAMS_FULL: {
    status: 503,
    message: 'the server holds as many event streams as it may; retry later',
  },
  EVALUATOR_UNAVAILABLE: {
    status: 503,
    message: 'the evaluation thread stopped before answering; retry',
  },
  SHUTTING_DOWN: {
    status: 503,
    message: 'the server is shutting down; retry on another server or once it is back',
  },
  // Values and hashes.
  NOT_CANONICALIZABLE: {
    status: 400,
    message: 'the value cannot be represented as canonical JSON',
  },
  INVALID_HASH: { status: 400, message: 'expected a content hash of the form sha256:<64 hex>' },
  // Protocols.
  INVALID_PROTOCOL: { status: 400, message: 'the agentic protocol is not valid' },
  UNKNOWN_PROTOCOL: { status: 404, message: 'no agentic protocol is registered under that hash' },
  QUOTA_EXCEEDED: { status: 403, message: 'the project has used all it may register' },
  INVALID_SWITCHBOARD: { status: 400, message: 'the switchboard is not valid' },
  INVALID_POLICY: { status: 400, message: 'the CRP-Safety-Policy header is malformed' },
  // Trust and verification.
  KEYRING_MISSING: { status: 500, message: 'the keyring has not been initialised' },
  KEYRING_EXISTS: { status: 409, message: 'a keyring already exists in this data directory' },
  KEYRING_CORRUPT: { status: 500, message: 'the keyring files are unreadable or inconsistent' },
  UNKNOWN_ISSUER: { status: 404, message: 'no issuer with that fingerprint' },
  INVALID_EVENT: { status: 400, message: 'the conformance event is malformed' },
  SIGNATURE_INVALID: { status: 400, message: 'the signature does not verify' },
  CHAIN_INVALID: { status: 400, message: 'the certificate does not chain to the pinned root' },
  ISSUER_REVOKED: { status: 400, message: 'the issuing certificate has been revoked' },
  HASH_MISMATCH: { status: 400, message: 'a bound hash does not match the supplied content' },
  INVALID_CERTIFICATE: { status: 400, message: 'the certificate or revocation list is malformed' },
  KEYRING_MISMATCH: {
    status: 409,
    message: 'the keyring root is not the root this database was created with',
  },
  INVALID_CSR: { status: 400, message: 'the certificate signing request is malformed' },
  ROOT_KEY_OFFLINE: {
    status: 409,
    message: 'the root key of this keyring is offline; sign and revoke on the root machine',
  },
  DEVELOPMENT_ROOT: {
    status: 409,
    message: 'this is a development root, whose key lives in the data directory',
  },
  NO_ACTIVE_ISSUER: { status: 503, message: 'the keyring has no active issuer to sign with' },
  PENDING_KEY_MISMATCH: {
    status: 409,
    message: "the certificate is not for this keyring's pending issuer key",
  },
  STALE_REVOCATION_LIST: {
    status: 409,
    message: 'the revocation list is not newer than the installed one',
  },
  // Storage and the journal.
  STORE_CORRUPT: { status: 500, message: 'stored data does not match its hash or cannot be read' },
  STORE_BUSY: { status: 503, message: 'the database is locked by another writer; retry' },
  STORE_UNAVAILABLE: { status: 503, message: 'the database is unreachable' },
  STORE_FULL: {
    status: 507,
    message:
      'no space is left for the data (disk or database full); nothing was written, retry once space is freed',
  },
  STORE_MISMATCH: { status: 409, message: 'the data directory belongs to another store' },
  STORE_IN_USE: {
    status: 409,
    message: 'another process has the database open; stop it and retry',
  },
  UNSUPPORTED_STORE: {
    status: 400,
    message: 'this command works on the embedded SQLite store only',
  },
  INVALID_BACKUP: { status: 400, message: 'the file is not a canonry database' },
  SCHEMA_TOO_NEW: {
    status: 409,
    message: 'a newer canonry migrated the database; run that version or a later one',
  },
  CONFLICT: { status: 409, message: 'the head moved since the caller read it' },
  INVALID_PROJECT: { status: 400, message: 'project names are 1-64 of a-z 0-9 _ -' },
  UNKNOWN_PROJECT: { status: 404, message: 'no such project' },
  INVALID_ENTRY: { status: 400, message: 'the journal entry is malformed' },
  UNKNOWN_ENTRY_KIND: { status: 400, message: 'no such entry kind is registered' },
  ENTRY_BODY_INVALID: {
    status: 500,
    message: 'a stored journal entry does not match the schema of its kind',
  },
  CHAIN_BROKEN: { status: 409, message: 'the journal chain does not verify' },
  INVALID_CHECKPOINT: { status: 400, message: 'a journal checkpoint is malformed' },
  INVALID_SEGMENT: { status: 400, message: 'an exported journal segment is malformed' },
  // Models.
  MODEL_UNAVAILABLE: { status: 502, message: 'the model could not be reached' },
  MODEL_BUSY: {
    status: 503,
    message: 'the model asked for a pause, or is cooling down after failing; retry later',
  },
  MODEL_OUTPUT_INVALID: { status: 422, message: 'the model output is not valid' },
  // Authentication and authority.
  UNAUTHENTICATED: { status: 401, message: 'a valid bearer token is required' },
  FORBIDDEN: { status: 403, message: 'the principal may not do this in this project' },
  UNKNOWN_TOKEN: { status: 404, message: 'no live token with that id in this project' },
  AUTHORITY_FROM_PAYLOAD: {
    status: 400,
    message: 'authority comes from the authenticated principal, never from the payload',
  },
  // Canon.
  INVALID_PROPOSAL: { status: 400, message: 'the proposal is malformed' },
  UNKNOWN_OBJECT: { status: 404, message: 'no such canonical object' },
  UNKNOWN_SESSION: { status: 404, message: 'no such relay session' },
  SESSION_CLOSED: { status: 409, message: 'the relay session is complete or halted' },
  UNKNOWN_PROPOSAL: { status: 404, message: 'no such proposal' },
  UNKNOWN_MESSAGE: { status: 404, message: 'no such archived message' },
  UNKNOWN_VERSION: { status: 404, message: 'no such version of the object' },
  UNKNOWN_CLAIM: { status: 404, message: 'no such open claim of the disputed object' },
  PROPOSAL_CLOSED: { status: 409, message: 'the proposal was already committed or rejected' },
  STALE_APPROVAL: {
    status: 409,
    message: 'canon moved since the comparison; the proposal was compared again',
  },
  BASE_NOT_ACKNOWLEDGED: {
    status: 409,
    message:
      'the approval does not name the version the proposal would now overwrite (its approval_requires_base)',
  },
  SOURCE_MISSING: { status: 422, message: 'a source reference does not match the archive' },
  PLANE_VIOLATION: {
    status: 422,
    message: 'a note may cite, depend on or replace only what all its readers may read',
  },
  DEPENDENCY_CYCLE: {
    status: 422,
    message: 'the note would depend on itself through its dependencies',
  },
  GATE_REFUSED: { status: 403, message: 'the stakes gate refused the mutation' },
  BATCH_HELD: {
    status: 409,
    message: 'the stakes gate held back part of the batch; nothing of it was committed',
  },
  CLASSIFIER_FAILED: {
    status: 422,
    message: 'the classifier output was rejected; nothing was committed',
  },
  INVALID_ARTIFACT: { status: 400, message: 'the artifact manifest is malformed' },
  UNKNOWN_ARTIFACT: { status: 404, message: 'no such artifact' },
  UNKNOWN_SUBJECT: { status: 404, message: 'no such classifier subject' },
  // Evolution: qualified cognitive events, cognitive assets and their governance (GCS).
  INVALID_QUALIFIED_EVENT: { status: 400, message: 'the qualified cognitive event is malformed' },
  UNSUPPORTED_SCHEMA_VERSION: {
    status: 400,
    message: 'the schema version is not one this build decodes',
  },
  EVENT_UNSIGNED: { status: 400, message: 'the qualified cognitive event carries no signature' },
  POLICY_HASH_MISMATCH: {
    status: 400,
    message: 'the governance fields do not hash to the policy hash the event carries',
  },
  INVALID_ASSET: { status: 400, message: 'the cognitive asset or its governance is malformed' },
  GOVERNANCE_EMPTY: { status: 422, message: 'a required governance intersection is empty' },
  GOVERNANCE_CONTRADICTORY: {
    status: 422,
    message: 'the governance of the sources contradicts itself',
  },
  GOVERNANCE_UNREPRESENTABLE: {
    status: 422,
    message: 'the resolved governance cannot be represented by the event schema',
  },
  GOVERNANCE_UNENFORCEABLE: {
    status: 422,
    message: 'the selected path cannot enforce the effective governance',
  },
  GOVERNANCE_FORBIDS: {
    status: 403,
    message: 'the effective governance does not permit what the path would do',
  },
  GOVERNANCE_WIDENED: {
    status: 422,
    message: "the event's governance is wider than the governance of its sources",
  },
  SOURCE_POLICY_MISMATCH: {
    status: 422,
    message: 'the source policy hashes do not match the policies of the sources',
  },
  DECLASSIFICATION_UNAUTHORIZED: {
    status: 403,
    message: 'no source policy authorizes this declassification',
  },
  UNKNOWN_EVENT: { status: 404, message: 'no such qualified cognitive event in this project' },
  UNKNOWN_TARGET: { status: 404, message: 'no adaptive target is registered under that name' },
  UNKNOWN_DEAD_LETTER: {
    status: 404,
    message: 'no dead-lettered delivery of that event to that target',
  },
  TARGET_UNAVAILABLE: { status: 502, message: 'the adaptive target could not take the event' },
  EVOLUTION_OFF: { status: 409, message: 'evolution is not enabled on this runtime' },
  // Evolution: replay of recorded work, and the promotion pipeline of adaptive artifacts.
  REPLAY_UNAVAILABLE: {
    status: 422,
    message: 'the event cannot be replayed: no replay contract, or no replayer for its class',
  },
  REPLAY_INPUT_MISSING: {
    status: 422,
    message: 'an input the replay needs is missing (artifact, protocol, recordings or session)',
  },
  INVALID_PROMOTION: { status: 400, message: 'the promotion candidate or transition is malformed' },
  UNKNOWN_PROMOTION: { status: 404, message: 'no such promotion' },
  PROMOTION_ILLEGAL_TRANSITION: {
    status: 409,
    message: 'the promotion cannot take that step from the stage it is in',
  },
  PROMOTION_FINISHED: {
    status: 409,
    message: 'the promotion is finished (rejected or rolled back): no step leaves that stage',
  },
  PUBLICATION_INVALID: {
    status: 422,
    message: 'the publication is unsigned, tampered or does not address its artifact',
  },
  // Inputs to commands and files.
  ADDRESS_UNAVAILABLE: { status: 503, message: 'the server cannot listen on that address' },
  SERVER_UNREACHABLE: { status: 502, message: 'the canonry server could not be reached' },
  INVALID_ARGUMENT: { status: 400, message: 'an argument is missing or invalid' },
  FILE_UNREADABLE: { status: 400, message: 'a file could not be read' },
  MALFORMED_FILE: { status: 400, message: 'a file is not valid JSON or PEM' },
  // Anything else is a bug, wrapped once at the edge.
  INTERNAL: { status: 500, message: 'internal error' },
} as const satisfies Record<string, { status: number; message: string }>;

/** The closed union of error codes. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** Public, secret-free details attached to an error (field names, limits, current heads). */
export type ErrorDetails = Readonly<Record<string, unknown>>;

/**
 * The one error class canonry throws for expected failures.
 *
 * @example
 * throw new CanonryError('UNKNOWN_PROTOCOL', 'no protocol sha256:ab…', { hash });
 */
export class CanonryError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message?: string, details?: ErrorDetails, options?: ErrorOptions) {
    super(message ?? ERROR_CODES[code].message, options);
    this.name = 'CanonryError';
    this.code = code;
    this.details = details;
  }

  /** The HTTP status the code maps to. */
  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}

/** True when `value` is a {@link CanonryError}, optionally with the given code. */
export function isCanonryError(value: unknown, code?: ErrorCode): value is CanonryError {
  return value instanceof CanonryError && (code === undefined || value.code === code);
}

/** Wraps any throwable once: a CanonryError passes through, anything else becomes INTERNAL. */
export function toCanonryError(value: unknown): CanonryError {
  if (value instanceof CanonryError) return value;
  return new CanonryError('INTERNAL', undefined, undefined, { cause: value });
}

/** The HTTP status for a code. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}
