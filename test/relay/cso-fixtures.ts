import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalize } from '../../src/core/index.js';
import { csoId, sealCso, sessionGenesis } from '../../src/relay/cso-seal.js';
import { normaliseEdges } from '../../src/relay/graph.js';
import type {
  CognitiveStateObject,
  Contribution,
  Decision,
  EstablishedFact,
  GoalState,
  UnsealedCso,
} from '../../src/relay/types.js';

/** A test HMAC (the trust module's keyring stands here in production). */
const KEY = Buffer.from('a test key of thirty-two bytes!!');
export const KEY_ID = 'test-1';

export function seal(bytes: Uint8Array): string {
  return `hmac-sha256:${KEY_ID}:${createHmac('sha256', KEY).update(bytes).digest('hex')}`;
}

export function check(bytes: Uint8Array, sealed: string): { ok: boolean; reason?: string } {
  const [scheme, keyId, hex] = sealed.split(':');
  if (scheme !== 'hmac-sha256' || hex === undefined) return { ok: false, reason: 'malformed' };
  if (keyId !== KEY_ID) return { ok: false, reason: 'unknown-key' };
  const want = createHmac('sha256', KEY).update(bytes).digest();
  const got = Buffer.from(hex, 'hex');
  return { ok: got.length === want.length && timingSafeEqual(got, want) };
}

export const SESSION = {
  session_id: 'sess-1',
  project: 'demo',
  mode: 'AGENTIC',
  objective: 'set up etcd TLS',
} as const;
export const GENESIS = sessionGenesis(SESSION);

export const GOAL: GoalState = {
  mode: 'AGENTIC',
  objective: 'complete sub-task tls',
  remaining: ['tls', 'certs'],
  success_test: 'sub-task verification passes',
  completion: 0,
};

export function fact(
  fact_id: string,
  statement: string,
  more: Partial<EstablishedFact> = {},
): EstablishedFact {
  return {
    fact_id,
    statement,
    provenance: 'USER',
    provenance_ref: 'turn-1',
    confidence: 1,
    window_origin: 1,
    ...more,
  };
}

export function decision(
  decision_id: string,
  choice: string,
  depends_on: string[],
  more: Partial<Decision> = {},
): Decision {
  return {
    decision_id,
    choice,
    rationale: `because ${choice}`,
    alternatives: [],
    depends_on,
    revisable: true,
    window_origin: 1,
    ...more,
  };
}

/** An unsealed CSO of `window_number` over the given items, its graph normalised. */
export function unsealed(
  window_number: number,
  prior_cso_hash: string,
  items: { facts?: EstablishedFact[]; decisions?: Decision[]; constraints?: string[] },
): UnsealedCso {
  const established_facts = items.facts ?? [];
  const decisions = items.decisions ?? [];
  return {
    cso_id: csoId(SESSION.session_id, window_number, prior_cso_hash),
    window_number,
    prior_cso_hash,
    established_facts,
    decisions,
    open_questions: [],
    constraints: items.constraints ?? [],
    goal_state: GOAL,
    dependency_graph: normaliseEdges({ established_facts, decisions }),
    verified: true,
  };
}

/** The §3.1 etcd example: fact A ← decision B ← decision C. */
export function etcd(window_number = 1, prior = GENESIS): CognitiveStateObject {
  return sealCso(
    unsealed(window_number, prior, {
      facts: [fact('A', 'etcd v3.5 is deployed')],
      decisions: [
        decision('B', 'use the v3.5 TLS configuration syntax', ['A']),
        decision('C', 'generate certs with the new SAN format', ['B']),
      ],
    }),
    seal,
  );
}

/** A sealed chain of `n` windows, each adding one fact. */
export function chain(n: number): CognitiveStateObject[] {
  const out: CognitiveStateObject[] = [];
  let prior = GENESIS;
  const facts: EstablishedFact[] = [];
  for (let w = 1; w <= n; w++) {
    facts.push(fact(`f${w}.1`, `fact of window ${w}`, { window_origin: w }));
    const cso = sealCso(unsealed(w, prior, { facts: [...facts] }), seal);
    out.push(cso);
    prior = cso.cso_hmac;
  }
  return out;
}

/** A contribution with empty lists, and `more`. */
export function contribution(more: Partial<Contribution> = {}): Contribution {
  return {
    facts: [],
    decisions: [],
    open_questions: [],
    resolved_questions: [],
    constraints: [],
    completed: [],
    invalidates: [],
    tool_results: [],
    ...more,
  };
}

const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

/** A list's digest as `cso-digest.ts`'s module comment defines it, computed from scratch. */
export function listDigestFromScratch(items: readonly object[]): Buffer {
  const n = Buffer.alloc(4);
  n.writeUInt32BE(items.length);
  const chunks: Buffer[] = [];
  let chunk: Buffer[] = [];
  for (const item of items) {
    const d = sha256(canonicalize(item));
    chunk.push(d);
    if (d[0]! < 8) {
      chunks.push(sha256(Buffer.concat(chunk)));
      chunk = [];
    }
  }
  if (chunk.length > 0) chunks.push(sha256(Buffer.concat(chunk)));
  return sha256(Buffer.concat([n, ...chunks]));
}
