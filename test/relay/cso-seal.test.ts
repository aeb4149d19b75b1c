import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { csoDigest, csoHeader } from '../../src/relay/cso-digest.js';
import { checkChain, csoId, sealCso, sessionGenesis } from '../../src/relay/cso-seal.js';
import type { CognitiveStateObject } from '../../src/relay/types.js';
import {
  chain,
  check,
  decision,
  etcd,
  fact,
  GENESIS,
  listDigestFromScratch,
  SESSION,
  seal,
  unsealed,
} from './cso-fixtures.js';

/** Edits a sealed CSO and seals it again, as someone holding the key could. */
function reseal(cso: CognitiveStateObject, edit: Partial<CognitiveStateObject>) {
  const { cso_hmac: _, ...state } = { ...cso, ...edit };
  return sealCso(state, seal);
}

describe('the CSO seal and chain (§2.1 INTEGRITY)', () => {
  it('verifies an intact chain, with and without the cso_id check', () => {
    const csos = chain(5);
    expect(checkChain(csos, check, GENESIS)).toEqual({ ok: true });
    expect(checkChain(csos, check, GENESIS, { session_id: SESSION.session_id })).toEqual({
      ok: true,
    });
  });

  it('finds a changed statement at its own window, as an hmac failure', () => {
    const csos = chain(5);
    const third = csos[2]!;
    csos[2] = {
      ...third,
      established_facts: third.established_facts.map((f, i) =>
        i === 0 ? { ...f, statement: 'fact of window 1, edited' } : f,
      ),
    };
    expect(checkChain(csos, check, GENESIS)).toEqual({
      ok: false,
      window_number: 3,
      reason: 'hmac',
    });
  });

  it('finds a CSO relinked to another predecessor (resealed with the key) as a link failure', () => {
    const csos = chain(4);
    csos[3] = reseal(csos[3]!, { prior_cso_hash: csos[1]!.cso_hmac });
    expect(checkChain(csos, check, GENESIS)).toMatchObject({
      ok: false,
      window_number: 4,
      reason: 'link',
    });
  });

  it('refuses window 1 of another session: its genesis differs', () => {
    const other = sessionGenesis({ ...SESSION, session_id: 'sess-2' });
    expect(other).not.toBe(GENESIS);
    expect(checkChain(chain(2), check, other)).toMatchObject({ window_number: 1, reason: 'link' });
  });

  it('finds a cso_id not derived from its place when the session is named', () => {
    const csos = chain(3);
    csos[2] = reseal(csos[2]!, { cso_id: 'cso_forged' });
    expect(checkChain(csos, check, GENESIS)).toEqual({ ok: true });
    expect(checkChain(csos, check, GENESIS, { session_id: SESSION.session_id })).toMatchObject({
      window_number: 3,
      reason: 'link',
    });
  });

  it('finds a dropped window as a numbering failure and a non-CSO as a schema failure', () => {
    const csos = chain(4);
    expect(checkChain([csos[0], csos[2], csos[3]], check, GENESIS)).toMatchObject({
      window_number: 2,
      reason: 'numbering',
    });
    const broken = { ...csos[1]!, window_number: '2' };
    const result = checkChain([csos[0], broken], check, GENESIS);
    expect(result).toMatchObject({ ok: false, window_number: 2, reason: 'schema' });
    expect(result.ok === false && result.detail).toContain('/window_number');
  });

  it('reports a seal under an unknown key with its reason', () => {
    const csos = chain(2);
    csos[1] = { ...csos[1]!, cso_hmac: csos[1]!.cso_hmac.replace(':test-1:', ':other:') };
    expect(checkChain(csos, check, GENESIS)).toEqual({
      ok: false,
      window_number: 2,
      reason: 'hmac',
      detail: 'unknown-key',
    });
  });

  it('seals over the digest of digests, without cso_hmac and verified', () => {
    const state = unsealed(1, GENESIS, { facts: [fact('A', 'x')] });
    const header = csoHeader(state);
    expect(header).not.toContain('verified');
    expect(header).not.toContain('cso_hmac');
    expect(header).not.toContain('established_facts');
    expect(header.startsWith('{"constraints":[],"cso_id":')).toBe(true);
    const a = sealCso(state, seal);
    const b = sealCso({ ...state, verified: false }, seal);
    expect(a.cso_hmac).toBe(b.cso_hmac);
    expect(csoDigest(a)).toHaveLength(32);
    expect(check(csoDigest(a), a.cso_hmac).ok).toBe(true);
    // The digest is the module comment's, computed here from scratch.
    const h = (b: Uint8Array | string) => createHash('sha256').update(b).digest();
    const list = listDigestFromScratch;
    const big = unsealed(1, GENESIS, {
      facts: Array.from({ length: 300 }, (_, i) => fact(`F${i}`, `fact ${i}`)),
    });
    const head = Buffer.from(csoHeader(big));
    const len = Buffer.alloc(4);
    len.writeUInt32BE(head.length);
    const want = h(
      Buffer.concat([
        Buffer.from('canonry-cso-digest:1\n'),
        len,
        head,
        list([...big.established_facts]),
        list([...big.decisions]),
        list([...big.dependency_graph]),
      ]),
    );
    expect(Buffer.from(csoDigest(big)).equals(want)).toBe(true);
  });

  it('breaks the seal on a change to any single field of any item, carried or new', () => {
    const csos = chain(3);
    const last = csos[2]!;
    const withEtcd = sealCso(
      unsealed(3, csos[1]!.cso_hmac, {
        facts: [
          ...last.established_facts,
          fact('A', 'etcd v3.5 is deployed', { window_origin: 3 }),
        ],
        decisions: [decision('B', 'use the v3.5 TLS syntax', ['A'], { window_origin: 3 })],
      }),
      seal,
    );
    const edits: CognitiveStateObject[] = [];
    withEtcd.established_facts.forEach((f, i) => {
      for (const [k, v] of Object.entries({
        fact_id: 'Z',
        statement: 'another',
        provenance: 'CKF',
        provenance_ref: 'turn-2',
        confidence: 0.5,
        window_origin: 2,
      })) {
        if ((f as unknown as Record<string, unknown>)[k] === v) continue;
        const facts = withEtcd.established_facts.map((x, j) => (j === i ? { ...x, [k]: v } : x));
        edits.push({ ...withEtcd, established_facts: facts });
      }
    });
    for (const [k, v] of Object.entries({
      choice: 'another',
      rationale: 'another',
      alternatives: ['x'],
      revisable: false,
      window_origin: 2,
      needs_revision: true,
    })) {
      edits.push({ ...withEtcd, decisions: [{ ...withEtcd.decisions[0]!, [k]: v }] });
    }
    edits.push({
      ...withEtcd,
      dependency_graph: [{ dependent: 'B', depends_on: 'f1.1' }],
    });
    edits.push({ ...withEtcd, open_questions: ['one more'] });
    edits.push({ ...withEtcd, goal_state: { ...withEtcd.goal_state, completion: 0.5 } });
    // Reordering facts is a change too.
    edits.push({ ...withEtcd, established_facts: [...withEtcd.established_facts].reverse() });
    expect(edits.length).toBeGreaterThan(20);
    for (const edited of edits) {
      expect(check(csoDigest(edited), withEtcd.cso_hmac).ok).toBe(false);
    }
    expect(check(csoDigest({ ...withEtcd }), withEtcd.cso_hmac).ok).toBe(true);
  });

  it('refuses to seal a CSO that does not hold, naming the path', () => {
    const state = unsealed(1, GENESIS, { facts: [fact('A', 'x', { window_origin: 2 })] });
    expect(() => sealCso(state, seal)).toThrow(/\/established_facts\/0\/window_origin/);
    expect(() => sealCso(unsealed(1, GENESIS, {}), () => 'not a seal')).toThrow(/cso_hmac/);
  });

  it('checks an item against its own list: a fact that passed as a fact is no decision', () => {
    const sealed = etcd();
    const factA = sealed.established_facts[0]!;
    // The fact's object passed the fact schema when `etcd` was sealed; in the decisions it must not
    // pass on that account.
    const state = {
      ...unsealed(1, GENESIS, {}),
      decisions: [factA as never],
      dependency_graph: [],
    };
    expect(() => sealCso(state, seal)).toThrow(
      /\/decisions\/0\/decision_id: must have required property/,
    );
  });

  it('derives the genesis and cso ids deterministically, and refuses bad session ids', () => {
    expect(sessionGenesis({ ...SESSION })).toBe(GENESIS);
    expect(GENESIS).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(csoId('s', 2, GENESIS)).toBe(csoId('s', 2, GENESIS));
    expect(csoId('s', 2, GENESIS)).not.toBe(csoId('s', 3, GENESIS));
    expect(csoId('s', 2, GENESIS)).toMatch(/^cso_[0-9a-f]{32}$/);
    expect(() => csoId('bad id', 1, GENESIS)).toThrow(/session_id/);
    expect(() => sessionGenesis({ ...SESSION, mode: 'OTHER' as never })).toThrow(/mode/);
  });
});
