import { canonicalize } from '../core/index.js';
import type { QualifiedEventClaims } from './event-types.js';
import type { Governance } from './governance-types.js';
import { EVENT_FIELDS } from './parse-event.js';

/**
 * RFC 8785 text of events and governance written member by member in their fixed sorted order, with
 * each certificate's JSON text kept, instead of sorting keys and re-escaping the certificate for
 * every event. The text is exactly `canonicalize` of the same value (a property test holds it to
 * that); anything these writers were not made for (a newer minor's members) goes to `canonicalize`.
 */

/** The members of a v1 event but its signature, sorted as RFC 8785 sorts them (UTF-16 order). */
const EVENT_KEYS = [...EVENT_FIELDS].filter((k) => k !== 'signature').sort();
const EVENT_PREFIXES = EVENT_KEYS.map((k) => `${JSON.stringify(k)}:`);
const KNOWN = new Set(EVENT_FIELDS);

const GOVERNANCE_KEYS = [
  'allowed_principals',
  'allowed_roles',
  'export_policy',
  'inference_policy',
  'policy_tags',
  'privacy_boundary',
  'privacy_scope',
  'replication_policy',
  'retention_policy',
  'training_policy',
] as const;

/** Certificates seen (one per issuer; a few across rotations) and their JSON text. */
const certificates = new Map<string, string>();
const MAX_CERTIFICATES = 16;

function certificateText(pem: string): string {
  let text = certificates.get(pem);
  if (text === undefined) {
    text = canonicalize(pem);
    if (certificates.size >= MAX_CERTIFICATES) certificates.clear();
    certificates.set(pem, text);
  }
  return text;
}

/** RFC 8785 text of an event's claims (every member but `signature`). */
export function eventText(claims: QualifiedEventClaims): string {
  const record = claims as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!KNOWN.has(key) && record[key] !== undefined) return canonicalize(withoutSignature(record));
  }
  let out = '{';
  for (let i = 0; i < EVENT_KEYS.length; i++) {
    const key = EVENT_KEYS[i]!;
    const value = record[key];
    if (value === undefined) continue;
    if (out.length > 1) out += ',';
    out += EVENT_PREFIXES[i]!;
    out +=
      key === 'signing_certificate' && typeof value === 'string'
        ? certificateText(value)
        : canonicalize(value);
  }
  return `${out}}`;
}

/** RFC 8785 text of exactly the governance members of `g`. */
export function governanceText(g: Governance): string {
  let out = '{';
  for (const key of GOVERNANCE_KEYS) {
    if (out.length > 1) out += ',';
    out += `"${key}":${canonicalize(g[key])}`;
  }
  return `${out}}`;
}

function withoutSignature(record: Record<string, unknown>): Record<string, unknown> {
  const { signature: _, ...rest } = record;
  return rest;
}
