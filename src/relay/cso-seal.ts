import {
  CanonryError,
  canonicalBytes,
  canonicalize,
  contentHash,
  sha256Hex,
} from '../core/index.js';
import { csoDigest } from './cso-digest.js';
import { checkSealable, parseCso } from './cso-schema.js';
import { carryStep, cleanPrior, forgetPrior, stepDelta } from './graph-delta.js';
import { CSO_LIMITS, isRelayId } from './limits.js';
import { carryStatementIndex } from './statement-index.js';
import {
  type CognitiveStateObject,
  RELAY_MODES,
  type RelayMode,
  type UnsealedCso,
} from './types.js';

/**
 * The seal of CRP-030 §2.1 INTEGRITY (SPEC-011's role): each window's CSO carries an HMAC over its
 * digest (`cso-digest.ts`: a digest of its items' digests) and the HMAC of its predecessor, so a session's CSOs form one tamper-evident
 * chain. The key is not this module's: the trust module's keyring passes `seal` and `check` in.
 */

/** Makes `hmac-sha256:<key id>:<hex>` over bytes (the trust module's HMAC keyring). */
export type CsoSealer = (bytes: Uint8Array) => string;

/** Checks a seal over bytes; `reason` says why not (unknown key, mismatch, malformed). */
export type CsoSealCheck = (bytes: Uint8Array, seal: string) => { ok: boolean; reason?: string };

/** What a session is, as its genesis link binds it. */
export interface SessionHeader {
  readonly session_id: string;
  readonly project: string;
  readonly mode: RelayMode;
  readonly objective: string;
}

/** Where a chain of CSOs first fails to verify. */
export type ChainCheck =
  | { readonly ok: true }
  | {
      readonly ok: false;
      /** The position's window number (1 for the first CSO given). */
      readonly window_number: number;
      readonly reason: 'hmac' | 'link' | 'numbering' | 'schema';
      /** Secret-free: the schema problem, or the check's reason. */
      readonly detail?: string;
    };

/**
 * What a CSO was sealed over before the digest of digests (`relay.window` version 1): RFC 8785
 * canonical JSON of the CSO without `cso_hmac` (the seal itself) and `verified` (an assessment of
 * the CSO, made before sealing but not part of the state). Still checked for those windows.
 */
export function csoBytes(cso: UnsealedCso | CognitiveStateObject): Uint8Array {
  const { cso_hmac: _hmac, verified: _verified, ...state } = cso as CognitiveStateObject;
  return canonicalBytes(state);
}

/**
 * Seals a CSO with `seal` and checks the result as any CSO read from outside is checked
 * ({@link parseCso}), so a CSO that does not hold is never sealed. INVALID_ARGUMENT otherwise.
 */
export function sealCso(unsealed: UnsealedCso, seal: CsoSealer): CognitiveStateObject {
  const { cso_hmac: _stale, ...state } = unsealed as CognitiveStateObject;
  const delta = stepDelta(unsealed);
  const sealed = checkSealable(
    { ...state, cso_hmac: seal(csoDigest(state)) },
    cleanPrior(unsealed),
    delta,
  );
  carryStep(unsealed, sealed, { items: true });
  if (delta) carryStatementIndex(delta, sealed);
  forgetPrior(sealed);
  return sealed;
}

/**
 * The link window 1 rests on: `sha256:` + hex SHA-256 of the canonical JSON of the session header,
 * so window 1 of one session cannot be replayed as window 1 of another.
 */
export function sessionGenesis(header: SessionHeader): string {
  if (!isRelayId(header.session_id)) invalidArg('session_id is not a relay id');
  if (typeof header.project !== 'string' || header.project.length > CSO_LIMITS.idChars) {
    invalidArg('project must be a string of at most 128 characters');
  }
  if (!RELAY_MODES.includes(header.mode))
    invalidArg(`mode must be one of ${RELAY_MODES.join(', ')}`);
  if (typeof header.objective !== 'string' || header.objective.length > CSO_LIMITS.itemChars) {
    invalidArg(`objective must be a string of at most ${CSO_LIMITS.itemChars} characters`);
  }
  const { session_id, project, mode, objective } = header;
  return contentHash({ session_id, project, mode, objective });
}

/**
 * A CSO's id, derived from its place in the chain: `cso_` + 32 hex of SHA-256 over the canonical
 * `[session_id, window_number, prior_cso_hash]`. Same inputs, same id, in any process.
 */
export function csoId(session_id: string, window_number: number, prior_cso_hash: string): string {
  if (!isRelayId(session_id)) invalidArg('session_id is not a relay id');
  if (!Number.isInteger(window_number) || window_number < 1) {
    invalidArg('window_number must be a positive integer');
  }
  return `cso_${sha256Hex(canonicalize([session_id, window_number, prior_cso_hash])).slice(0, 32)}`;
}

/**
 * Walks a session's CSOs in window order and reports the first that does not verify: not a CSO
 * (`schema`), not the next window number (`numbering`), a seal that does not check (`hmac`), or a
 * `prior_cso_hash` that is not its predecessor's seal — the genesis for window 1 — or, when
 * `session_id` is given, a `cso_id` not derived from its place (`link`).
 */
export function checkChain(
  csos: readonly unknown[],
  check: CsoSealCheck,
  genesis: string,
  options: {
    readonly session_id?: string;
    /** What window `i` (0-based) was sealed over; {@link csoDigest} unless said otherwise. */
    readonly sealedOver?: (cso: CognitiveStateObject, i: number) => Uint8Array;
  } = {},
): ChainCheck {
  const sealedOver = options.sealedOver ?? ((cso: CognitiveStateObject) => csoDigest(cso));
  let prior = genesis;
  for (let i = 0; i < csos.length; i++) {
    const window_number = i + 1;
    let cso: CognitiveStateObject;
    try {
      cso = parseCso(csos[i]);
    } catch (err) {
      return { ok: false, window_number, reason: 'schema', detail: (err as Error).message };
    }
    if (cso.window_number !== window_number)
      return { ok: false, window_number, reason: 'numbering' };
    const sealed = check(sealedOver(cso, i), cso.cso_hmac);
    if (!sealed.ok) {
      return sealed.reason === undefined
        ? { ok: false, window_number, reason: 'hmac' }
        : { ok: false, window_number, reason: 'hmac', detail: sealed.reason };
    }
    if (cso.prior_cso_hash !== prior) return { ok: false, window_number, reason: 'link' };
    if (
      options.session_id !== undefined &&
      cso.cso_id !== csoId(options.session_id, window_number, prior)
    ) {
      return { ok: false, window_number, reason: 'link', detail: 'cso_id' };
    }
    prior = cso.cso_hmac;
  }
  return { ok: true };
}

function invalidArg(message: string): never {
  throw new CanonryError('INVALID_ARGUMENT', message);
}
