// Nothing canonry signs carries the time it was signed, so an issuer is judged at the verifier's
// instant: now unless the relying party names one. An issuer past its notAfter (or before its
// notBefore) vouches for nothing; the store's own checkpoints are the one exception.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assembleQualifiedEvent,
  type QualifiedEvent,
  verifyQualifiedEvent,
} from '../../src/evolution/index.js';
import {
  exportSegment,
  Journal,
  verifyCheckpoint,
  verifyProject,
  verifySegment,
} from '../../src/journal/index.js';
import {
  compileProtocol,
  EMPTY_METADATA_HASH,
  Kernel,
  verifyConformanceEvent,
} from '../../src/kernel/index.js';
import type { Store } from '../../src/store/index.js';
import { Keyring, verifyDocumentSignature } from '../../src/trust/index.js';
import { asset, draft, enterprisePrivate, userPrivate } from '../evolution/assets.js';
import { atInstant, signerAt } from '../helpers/clock.js';
import { COUNTERS, count, createCounters } from '../helpers/journal.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { ENGINES } from '../helpers/stores.js';

// Issuers live 10 years, roots 20: a keyring made in 2000 has an issuer that expired in 2010 under
// a root that expired in 2020; one made in 2090 is not valid yet.
const PAST = new Date('2000-01-01T00:00:00Z');
const FUTURE = new Date('2090-01-01T00:00:00Z');
const cleanups: (() => unknown)[] = [];
let expired: Keyring;
let early: Keyring;
let current: Keyring;

beforeAll(async () => {
  const dirs = [tempDir(), tempDir(), tempDir()];
  cleanups.push(...dirs.map((d) => d.cleanup));
  expired = await Keyring.init(dirs[0]!.dir, { now: PAST });
  early = await Keyring.init(dirs[1]!.dir, { now: FUTURE });
  current = await Keyring.init(dirs[2]!.dir);
  madeAt.set(expired, PAST).set(early, FUTURE);
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const code = (result: { ok: boolean; issues?: readonly { code: string }[] }) =>
  result.ok ? 'OK' : result.issues![0]!.code;

/** Each keyring signs inside its issuer's window: a day after it was made. */
const DAY = 24 * 3600 * 1000;
const madeAt = new Map<Keyring, Date>();
const signer = (k: Keyring) => signerAt(k, new Date((madeAt.get(k) ?? new Date()).getTime() + DAY));

function event(k: Keyring) {
  const kernel = new Kernel({ signer: signer(k) });
  const out = kernel.evaluate(
    { amount: 20 },
    compileProtocol(refundProtocol()),
    EMPTY_METADATA_HASH,
  );
  return JSON.parse(JSON.stringify(out.event));
}

const pinned = (k: Keyring) => ({
  root: k.rootCertificatePem,
  revocationList: k.revocationListPem(),
});

describe('conformance events are judged at the verifier instant', () => {
  it('an event of an expired issuer fails without `at`, and verifies at an instant inside its window', () => {
    const signed = event(expired);
    expect(code(verifyConformanceEvent(signed, pinned(expired)))).toBe('CHAIN_INVALID');
    const inside = new Date('2005-06-01T00:00:00Z');
    expect(code(verifyConformanceEvent(signed, { ...pinned(expired), at: inside }))).toBe('OK');
    // Past the issuer's ten years, though the root still has ten more.
    const after = new Date('2012-01-01T00:00:00Z');
    expect(code(verifyConformanceEvent(signed, { ...pinned(expired), at: after }))).toBe(
      'CHAIN_INVALID',
    );
    expect(
      code(verifyConformanceEvent(signed, { ...pinned(expired), at: new Date(Number.NaN) })),
    ).toBe('CHAIN_INVALID');
  });

  it('an event of an issuer not valid yet fails; a current one verifies', () => {
    expect(code(verifyConformanceEvent(event(early), pinned(early)))).toBe('CHAIN_INVALID');
    expect(code(verifyConformanceEvent(event(current), pinned(current)))).toBe('OK');
  });

  it('a null `at` from an untyped caller is now, never "no check"', () => {
    const options = { ...pinned(expired), at: null } as unknown as Parameters<
      typeof verifyConformanceEvent
    >[1];
    expect(code(verifyConformanceEvent(event(expired), options))).toBe('CHAIN_INVALID');
  });

  it('the signed-document primitive judges now by default too', () => {
    const signed = event(expired);
    expect(code(verifyDocumentSignature(signed, pinned(expired)))).toBe('CHAIN_INVALID');
    expect(code(verifyDocumentSignature(signed, { ...pinned(expired), at: PAST }))).toBe('OK');
  });
});

describe('qualified events are judged now and against their created_at', () => {
  const sources = [asset('a:1', userPrivate('alice')), asset('a:2', enterprisePrivate('acme'))];
  const assemble = (k: Keyring, createdAt: number): QualifiedEvent => {
    const result = assembleQualifiedEvent(draft({ created_at: createdAt }), sources, {
      signer: signer(k),
    });
    if (!result.ok) throw new Error(result.issues[0]!.message);
    return result.value;
  };

  it('an event of an expired issuer fails now and verifies at an instant inside the window', () => {
    const signed = assemble(expired, Date.parse('2001-01-01T00:00:00Z'));
    const anchor = { root: expired.rootCertificatePem };
    expect(code(verifyQualifiedEvent(signed, anchor))).toBe('CHAIN_INVALID');
    const at = new Date('2002-01-01T00:00:00Z');
    expect(code(verifyQualifiedEvent(signed, { ...anchor, at }))).toBe('OK');
  });

  it('an event created after its issuer expired was signed after: refused at any instant', () => {
    const signed = assemble(expired, Date.parse('2015-01-01T00:00:00Z'));
    const at = new Date('2002-01-01T00:00:00Z');
    const refused = verifyQualifiedEvent(signed, { root: expired.rootCertificatePem, at });
    expect(refused).toMatchObject({
      ok: false,
      issues: [{ code: 'CHAIN_INVALID', path: 'created_at' }],
    });
  });

  it('an event whose created_at precedes its issuer (a backlog signed after a rotation) verifies', () => {
    const signed = assemble(current, Date.parse('2001-01-01T00:00:00Z'));
    expect(code(verifyQualifiedEvent(signed, { root: current.rootCertificatePem }))).toBe('OK');
  });

  it('an event of an issuer not valid yet fails', () => {
    const signed = assemble(early, Date.now());
    expect(code(verifyQualifiedEvent(signed, { root: early.rootCertificatePem }))).toBe(
      'CHAIN_INVALID',
    );
  });
});

describe('journal checkpoints', () => {
  const sqlite = ENGINES.find((e) => e.name === 'sqlite')!;
  let journal: Journal;
  let store: Store;

  beforeAll(async () => {
    const fresh = await sqlite.fresh();
    store = fresh.store;
    cleanups.push(fresh.cleanup, () => store.close());
    await createCounters(store);
    journal = new Journal(store, { projections: [COUNTERS], signer: () => signer(expired) });
    for (let i = 1; i <= 3; i++) await journal.append('alpha', count(`c${i}`, i));
    await journal.checkpoint('alpha');
  });

  it('an exported segment signed by an expired issuer fails offline now, and verifies at its time', async () => {
    let text = '';
    for await (const line of exportSegment(journal, 'alpha')) text += line;
    await expect(verifySegment(text, { root: expired.rootCertificatePem })).rejects.toMatchObject({
      code: 'CHAIN_INVALID',
    });
    const at = new Date('2003-01-01T00:00:00Z');
    expect(await verifySegment(text, { root: expired.rootCertificatePem, at })).toMatchObject({
      ok: true,
    });
    const checkpoint = JSON.parse(text.trimEnd().split('\n').at(-1)!);
    expect(code(verifyCheckpoint(checkpoint, { root: expired.rootCertificatePem }))).toBe(
      'CHAIN_INVALID',
    );
  });

  it("the live store's own checkpoints still verify after their issuer expired: no tampering", async () => {
    const report = await verifyProject(journal, 'alpha', pinned(expired));
    expect(report).toMatchObject({ ok: true, broken: null });
    expect(report.checkpoints).toBeGreaterThan(0);
  });
});

describe('a keyring signs only inside its issuer window', () => {
  it('an expired active issuer signs nothing, says so with the way out, and a rotation ends it', async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const made = new Date(Date.now() - 11 * 365 * DAY);
    const k = await Keyring.init(dir, { now: made });
    expect(k.canSign).toBe(false);
    expect(k.signingProblem()).toMatchObject({ code: 'NO_ACTIVE_ISSUER' });
    expect(k.signingProblem()!.message).toContain('canonry keys rotate');
    madeAt.set(k, made);
    expect(() => event(k)).not.toThrow(); // inside its window (a day after it was made)
    madeAt.set(k, new Date(Date.now() - DAY)); // now past it
    expect(() => event(k)).toThrow(/expired at .*canonry keys rotate/);
    await k.rotate();
    expect(k.canSign).toBe(true);
    expect(code(verifyConformanceEvent(event(k), pinned(k)))).toBe('OK');
  });

  it('a signer taken while its issuer was valid stops at the end of the window', () => {
    const k = current;
    const kernel = new Kernel({ signer: k.signer() });
    const evaluate = () =>
      kernel.evaluate({ amount: 20 }, compileProtocol(refundProtocol()), EMPTY_METADATA_HASH);
    expect(evaluate().event).toBeTruthy();
    const later = new Date(Date.now() + 11 * 365 * DAY);
    expect(() => atInstant(later, evaluate)).toThrow(/NO_ACTIVE_ISSUER|expired at/);
    const before = new Date(Date.now() - 365 * DAY);
    expect(() => atInstant(before, evaluate)).toThrow(/is not valid until/);
    expect(atInstant(later, () => k.canSign)).toBe(false);
  });

  it('an issuer not valid yet signs nothing now', () => {
    expect(early.canSign).toBe(false);
    expect(early.signingProblem()!.message).toContain('is not valid until');
  });
});
