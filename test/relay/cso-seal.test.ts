import { describe, expect, it } from 'vitest';
import { checkChain, csoBytes, csoId, sealCso, sessionGenesis } from '../../src/relay/cso-seal.js';
import type { CognitiveStateObject } from '../../src/relay/types.js';
import { chain, check, fact, GENESIS, SESSION, seal, unsealed } from './cso-fixtures.js';

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

  it('seals over canonical bytes without cso_hmac and verified', () => {
    const state = unsealed(1, GENESIS, { facts: [fact('A', 'x')] });
    const bytes = Buffer.from(csoBytes(state)).toString('utf8');
    expect(bytes).not.toContain('verified');
    expect(bytes).not.toContain('cso_hmac');
    expect(bytes.startsWith('{"constraints":[],"cso_id":')).toBe(true);
    const a = sealCso(state, seal);
    const b = sealCso({ ...state, verified: false }, seal);
    expect(a.cso_hmac).toBe(b.cso_hmac);
    expect(check(csoBytes(a), a.cso_hmac).ok).toBe(true);
  });

  it('refuses to seal a CSO that does not hold, naming the path', () => {
    const state = unsealed(1, GENESIS, { facts: [fact('A', 'x', { window_origin: 2 })] });
    expect(() => sealCso(state, seal)).toThrow(/\/established_facts\/0\/window_origin/);
    expect(() => sealCso(unsealed(1, GENESIS, {}), () => 'not a seal')).toThrow(/cso_hmac/);
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
