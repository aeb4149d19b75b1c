import { describe, expect, it } from 'vitest';
import { parseSafetyPolicy, resolveAirPolicy } from '../../src/air/index.js';
import { CanonryError, httpStatusOf } from '../../src/core/index.js';

function refusal(run: () => unknown): CanonryError {
  try {
    run();
  } catch (e) {
    if (e instanceof CanonryError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('CRP-Safety-Policy (§6.1)', () => {
  it('parses the AIR directives and keeps the others', () => {
    expect(
      parseSafetyPolicy(
        'halt-on=CRITICAL; block-fabrication; air-mode=adaptive; air-iap-budget=512;',
      ),
    ).toEqual({
      air_mode: 'adaptive',
      air_iap_budget: 512,
      directives: {
        'halt-on': 'CRITICAL',
        'block-fabrication': null,
        'air-mode': 'adaptive',
        'air-iap-budget': '512',
      },
    });
    expect(parseSafetyPolicy(' AIR-MODE = Passive ')).toMatchObject({ air_mode: 'passive' });
    expect(parseSafetyPolicy('air-mode=off').air_mode).toBe('off');
    expect(parseSafetyPolicy('air-mode=aggressive;air-iap-budget=0').air_iap_budget).toBe(0);
    expect(parseSafetyPolicy('')).toEqual({ directives: {} });
    expect(parseSafetyPolicy('halt-on=CRITICAL,HIGH')).toEqual({
      directives: { 'halt-on': 'CRITICAL,HIGH' },
    });
  });

  it.each([
    ['air-mode=turbo', 'air-mode'],
    ['air-mode', 'air-mode'],
    ['air-mode=', 'air-mode'],
    ['air-iap-budget=-1', 'air-iap-budget'],
    ['air-iap-budget=51.2', 'air-iap-budget'],
    ['air-iap-budget=0512', 'air-iap-budget'],
    ['air-iap-budget=99999999', 'air-iap-budget'],
    ['air-iap-budget=16385', 'air-iap-budget'],
    ['air-iap-budget', 'air-iap-budget'],
    ['air-iap-budget=1e3', 'air-iap-budget'],
    ['air-turbo=on', 'air-turbo'],
    ['air-mode=adaptive; air-mode=off', 'air-mode'],
    ['halt-on="CRITICAL"', 'halt-on'],
    ['=adaptive', ''],
    ['air mode=adaptive', 'air mode'],
    ['halt-on=a=b', 'halt-on'],
  ])('%s is a 400 naming %s', (header, directive) => {
    const e = refusal(() => parseSafetyPolicy(header));
    expect(e.code).toBe('INVALID_POLICY');
    expect(httpStatusOf(e.code)).toBe(400);
    expect(e.details).toMatchObject({ directive });
    expect(e.message).toContain('CRP-Safety-Policy');
  });

  it('bounds the header', () => {
    const long = `halt-on=${'A'.repeat(4_100)}`;
    expect(refusal(() => parseSafetyPolicy(long)).details).toMatchObject({
      directive: 'CRP-Safety-Policy',
    });
    const many = Array.from({ length: 65 }, (_, i) => `x${i}=1`).join(';');
    expect(refusal(() => parseSafetyPolicy(many)).code).toBe('INVALID_POLICY');
    expect(
      Object.keys(parseSafetyPolicy(many.split(';').slice(0, 64).join(';')).directives),
    ).toHaveLength(64);
  });

  it('resolves defaults, then options, then the header', () => {
    expect(resolveAirPolicy()).toEqual({ mode: 'adaptive', iap_budget: 512 });
    expect(resolveAirPolicy({ options: { mode: 'passive', iap_budget: '256' } })).toEqual({
      mode: 'passive',
      iap_budget: 256,
    });
    expect(
      resolveAirPolicy({
        options: { mode: 'passive', iap_budget: 256 },
        header: 'air-iap-budget=64',
      }),
    ).toEqual({ mode: 'passive', iap_budget: 64 });
    expect(refusal(() => resolveAirPolicy({ options: { iap_budget: 1.5 } })).details).toMatchObject(
      {
        directive: 'air-iap-budget',
      },
    );
    expect(refusal(() => resolveAirPolicy({ options: { mode: 'loud' } })).code).toBe(
      'INVALID_POLICY',
    );
  });
});
