import { describe, expect, it } from 'vitest';
import { CanonryError, contentHash } from '../../src/core/index.js';
import { CONSTRAINT_LIMITS } from '../../src/kernel/constraints.js';
import {
  type AgenticProtocol,
  compileProtocol,
  PROTOCOL_LIMITS,
  type ProtocolIssue,
  protocolHash,
  validateProtocol,
} from '../../src/kernel/protocol.js';
import { analyzeProtocol } from '../../src/kernel/protocol-validate.js';
import { EXCLUDED_OPERATORS, RULE_LIMITS } from '../../src/kernel/rules.js';
import { refundProtocol, reverseKeys } from './refund-protocol.js';

type Bundle = Record<string, unknown>;

function issuesOf(input: unknown): readonly ProtocolIssue[] {
  const result = validateProtocol(input);
  expect(result.ok).toBe(false);
  return result.ok ? [] : result.issues;
}

/** Asserts the bundle is refused by both entry points with an issue at `path`. */
function expectIssueAt(input: unknown, path: string): void {
  expect(issuesOf(input).map((i) => i.path)).toContain(path);
  let thrown: unknown;
  try {
    compileProtocol(input);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(CanonryError);
  expect((thrown as CanonryError).code).toBe('INVALID_PROTOCOL');
  const issues = (thrown as CanonryError).details?.issues as ProtocolIssue[];
  expect(issues.map((i) => i.path)).toContain(path);
}

function withRule(condition: unknown): Bundle {
  return { ...refundProtocol(), rules: [{ label: 'BLOCK', condition }] };
}

function nest(levels: number): unknown {
  let rule: unknown = true;
  for (let i = 0; i < levels; i++) rule = { '!': [rule] };
  return rule;
}

describe('validateProtocol / compileProtocol', () => {
  it('lists the first 100 issues of a bundle with 100,000, and counts them all', () => {
    const bundle: Record<string, unknown> = { ...refundProtocol() };
    for (let i = 0; i < 100_000; i++) bundle[`x${i}`] = i;
    let thrown: unknown;
    try {
      compileProtocol(bundle);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as CanonryError).code).toBe('INVALID_PROTOCOL');
    const details = (thrown as CanonryError).details!;
    expect(details.issues).toHaveLength(100);
    expect(details.issues_total).toBeGreaterThanOrEqual(100_000);
    expect(JSON.stringify(details).length).toBeLessThan(20_000);
    expect((thrown as CanonryError).message).toMatch(/and \d{5,} more/);
  });

  it('accepts the Appendix A refund protocol', () => {
    const result = validateProtocol(refundProtocol());
    expect(result.ok).toBe(true);
    const compiled = compileProtocol(refundProtocol());
    expect(compiled.hash).toBe(contentHash(refundProtocol()));
    expect(compiled.protocol).toEqual(refundProtocol());
  });

  it('hashes the bundle as given, independent of key order', () => {
    const bundle = refundProtocol();
    const reordered = reverseKeys(bundle);
    expect(Object.keys(reordered)).not.toEqual(Object.keys(bundle));
    expect(protocolHash(reordered)).toBe(protocolHash(bundle));
    expect(compileProtocol(reordered).hash).toBe(compileProtocol(bundle).hash);
    // A relying party recomputes it from the protocol file alone.
    expect(protocolHash(JSON.parse(JSON.stringify(reordered)))).toBe(compileProtocol(bundle).hash);
  });

  it('compiles each protocol once and keeps it immune to later edits of the input', () => {
    const bundle = refundProtocol();
    const first = compileProtocol(bundle);
    expect(compileProtocol(reverseKeys(bundle))).toBe(first);
    (bundle.labels as string[]).push('LATER');
    expect(first.protocol.labels).toEqual(['AUTO_APPROVE', 'MANAGER_REVIEW', 'BLOCK']);
    expect(Object.isFrozen(first.protocol.rules[0]?.condition)).toBe(true);
  });

  it('accepts the optional keys and the exclusive resolution', () => {
    const bundle = {
      ...refundProtocol(),
      resolution: 'exclusive',
      description: 'refunds',
      format_assertion: true,
    };
    expect(validateProtocol(bundle).ok).toBe(true);
    expect(validateProtocol({ ...refundProtocol(), constraints: true }).ok).toBe(true);
  });

  it('rejects a rule whose label is not declared, naming it', () => {
    const bundle = refundProtocol();
    bundle.rules[1] = { label: 'ESCALATE', condition: true };
    expectIssueAt(bundle, '/rules/1/label');
    expect(issuesOf(bundle).find((i) => i.path === '/rules/1/label')?.message).toContain(
      'ESCALATE',
    );
  });

  it('rejects constraints that are not a valid JSON Schema 2020-12', () => {
    expectIssueAt({ ...refundProtocol(), constraints: { type: 'nope' } }, '/constraints/type');
    expectIssueAt(
      { ...refundProtocol(), constraints: { properties: { a: { minLength: -1 } } } },
      '/constraints/properties/a/minLength',
    );
    expectIssueAt({ ...refundProtocol(), constraints: { pattern: '(' } }, '/constraints/pattern');
    expectIssueAt({ ...refundProtocol(), constraints: 'object' }, '/constraints');
  });

  it('rejects patterns the linear-time engine cannot run, pointing at each', () => {
    expectIssueAt(
      { ...refundProtocol(), constraints: { properties: { x: { pattern: '^(a)\\1$' } } } },
      '/constraints/properties/x/pattern',
    );
    expectIssueAt(
      { ...refundProtocol(), constraints: { patternProperties: { '(?<=a)b': true } } },
      '/constraints/patternProperties/(?<=a)b',
    );
  });

  it('rejects constraints that fan out past the evaluation budget at one location', () => {
    const $defs: Record<string, unknown> = { d24: { type: 'integer' } };
    for (let i = 23; i >= 0; i--)
      $defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    const bundle = { ...refundProtocol(), constraints: { $defs, $ref: '#/$defs/d0' } };
    const issues = issuesOf(bundle);
    expect(issues[0]?.path).toMatch(/^\/constraints\/\$defs\/d\d+$/);
    expect(issues[0]?.message).toMatch(/more than the evaluation budget/);
    expectIssueAt(bundle, issues[0]!.path);
  });

  it('rejects $refs nothing can resolve, and never fetches', () => {
    expectIssueAt(
      { ...refundProtocol(), constraints: { $ref: 'https://example.com/schema.json' } },
      '/constraints',
    );
    expectIssueAt(
      { ...refundProtocol(), constraints: { $ref: '#/$defs/missing' } },
      '/constraints',
    );
    const meta = { $ref: 'https://json-schema.org/draft/2020-12/schema' };
    expect(validateProtocol({ ...refundProtocol(), constraints: meta }).ok).toBe(true);
  });

  it('rejects other dialects and $async', () => {
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' };
    expectIssueAt({ ...refundProtocol(), constraints: draft7 }, '/constraints/$schema');
    expectIssueAt(
      { ...refundProtocol(), constraints: { $async: true, type: 'object' } },
      '/constraints/$async',
    );
  });

  it('accepts the features Ajv gets wrong: they run on the canonry interpreter', () => {
    const dynamic = { $defs: { a: { $dynamicAnchor: 'a' } }, $dynamicRef: '#a' };
    const proto = JSON.parse('{"properties":{"__proto__":{"type":"number"}}}');
    for (const constraints of [dynamic, proto, { enum: [] }]) {
      expect(validateProtocol({ ...refundProtocol(), constraints }).ok).toBe(true);
      expect(analyzeProtocol({ ...refundProtocol(), constraints }).constraints?.engine).toBe(
        'canonry',
      );
    }
    const check = analyzeProtocol({ ...refundProtocol(), constraints: proto }).constraints!;
    expect(check(JSON.parse('{"__proto__": 1}')).valid).toBe(true);
    expect(check(JSON.parse('{"__proto__": "one"}')).valid).toBe(false);
  });

  it('bounds the depth and size of the constraints', () => {
    const nested = (levels: number) => {
      let schema: Record<string, unknown> = { type: 'number' };
      for (let i = 0; i < levels; i++) schema = { not: schema };
      return { ...refundProtocol(), constraints: schema };
    };
    expect(validateProtocol(nested(CONSTRAINT_LIMITS.maxDepth - 1)).ok).toBe(true);
    expectIssueAt(
      nested(CONSTRAINT_LIMITS.maxDepth),
      `/constraints${'/not'.repeat(CONSTRAINT_LIMITS.maxDepth)}`,
    );
    // Deep enough that Ajv's recursion would depend on the stack: refused the same way every time.
    expect(issuesOf(nested(500))).toEqual(issuesOf(nested(500)));
    const enumOf = (n: number) => ({
      ...refundProtocol(),
      constraints: { enum: Array.from({ length: n }, (_, i) => i) },
    });
    expect(validateProtocol(enumOf(CONSTRAINT_LIMITS.maxNodes - 2)).ok).toBe(true);
    expectIssueAt(enumOf(CONSTRAINT_LIMITS.maxNodes), '/constraints');
  });

  it('rejects operators outside the closed set, naming them and their path', () => {
    expectIssueAt(withRule({ method: [{ var: 'amount' }, 'toFixed'] }), '/rules/0/condition');
    expect(issuesOf(withRule({ method: [] }))[0]?.message).toContain('method');
    expectIssueAt(withRule({ and: [true, { log: 'x' }] }), '/rules/0/condition/and/1');
    expect(issuesOf(withRule({ and: [true, { log: 'x' }] }))[0]?.message).toContain('log');
    for (const op of [
      ...EXCLUDED_OPERATORS,
      'constructor',
      '__proto__',
      'toString',
      'canonry:array',
      'eval',
    ]) {
      expectIssueAt(withRule({ or: [{ [op]: [1] }] }), '/rules/0/condition/or/0');
    }
  });

  it('escapes operator and key names in the issue pointers', () => {
    expectIssueAt(withRule({ if: [{ 'a/b~c': 1 }, true, false] }), '/rules/0/condition/if/0');
    expectIssueAt(withRule({ var: { 'x/y': 1, z: 2 } }), '/rules/0/condition/var');
  });

  it('rejects operation objects with zero or several keys, but not inside preserve', () => {
    expectIssueAt(withRule({ '<=': [{ var: 'amount' }, 50], var: 'amount' }), '/rules/0/condition');
    expectIssueAt(withRule({ '!!': [{}] }), '/rules/0/condition/!!/0');
    expect(validateProtocol(withRule({ '!!': { preserve: { a: 1, b: { c: {} } } } })).ok).toBe(
      true,
    );
  });

  it('bounds the depth and size of each condition', () => {
    expect(validateProtocol(withRule(nest(15))).ok).toBe(true);
    expect(issuesOf(withRule(nest(17)))[0]?.path.startsWith('/rules/0/condition')).toBe(true);
    const tooDeep = issuesOf(withRule(nest(40)));
    expect(tooDeep).toHaveLength(1);
    expect(tooDeep[0]?.message).toContain(String(RULE_LIMITS.maxDepth));
    const wide = (n: number) => withRule({ '+': Array.from({ length: n }, () => 1) });
    expect(validateProtocol(wide(RULE_LIMITS.maxNodes - 2)).ok).toBe(true);
    const tooBig = issuesOf(wide(RULE_LIMITS.maxNodes));
    expect(tooBig).toHaveLength(1);
    expect(tooBig[0]?.path.startsWith('/rules/0/condition/+/')).toBe(true);
  });

  it('rejects unknown and missing top-level keys', () => {
    expectIssueAt({ ...refundProtocol(), priority: 1 }, '/priority');
    for (const key of ['slug', 'version', 'constraints', 'labels', 'rules']) {
      const bundle: Bundle = refundProtocol() as unknown as Bundle;
      delete bundle[key];
      expectIssueAt(bundle, `/${key}`);
    }
  });

  it('rejects empty, duplicate, oversized and non-string labels', () => {
    expectIssueAt({ ...refundProtocol(), labels: [] }, '/labels');
    expectIssueAt(
      { ...refundProtocol(), labels: ['BLOCK', 'AUTO_APPROVE', 'BLOCK', 'MANAGER_REVIEW'] },
      '/labels/2',
    );
    expectIssueAt(
      { ...refundProtocol(), labels: ['BLOCK', 'AUTO_APPROVE', 'MANAGER_REVIEW', ''] },
      '/labels/3',
    );
    expectIssueAt(
      { ...refundProtocol(), labels: ['BLOCK', 'AUTO_APPROVE', 'MANAGER_REVIEW', 7] },
      '/labels/3',
    );
    const long = 'L'.repeat(PROTOCOL_LIMITS.maxLabelLength + 1);
    expectIssueAt(
      { ...refundProtocol(), labels: ['BLOCK', 'AUTO_APPROVE', 'MANAGER_REVIEW', long] },
      '/labels/3',
    );
    const many = Array.from({ length: PROTOCOL_LIMITS.maxLabels + 1 }, (_, i) => `L${i}`);
    expectIssueAt(
      { ...refundProtocol(), labels: [...refundProtocol().labels, ...many] },
      '/labels',
    );
    expectIssueAt({ ...refundProtocol(), labels: 'BLOCK' }, '/labels');
  });

  it('rejects fields of the wrong type or shape', () => {
    expectIssueAt({ ...refundProtocol(), slug: 5 }, '/slug');
    expectIssueAt({ ...refundProtocol(), slug: '' }, '/slug');
    expectIssueAt({ ...refundProtocol(), version: 'v'.repeat(201) }, '/version');
    expectIssueAt({ ...refundProtocol(), description: 3 }, '/description');
    expectIssueAt({ ...refundProtocol(), resolution: 'best' }, '/resolution');
    expectIssueAt({ ...refundProtocol(), format_assertion: 'yes' }, '/format_assertion');
    expectIssueAt({ ...refundProtocol(), rules: [] }, '/rules');
    expectIssueAt({ ...refundProtocol(), rules: { label: 'BLOCK', condition: true } }, '/rules');
    expectIssueAt({ ...refundProtocol(), rules: [true] }, '/rules/0');
    expectIssueAt({ ...refundProtocol(), rules: [{ label: 'BLOCK' }] }, '/rules/0');
    expectIssueAt(
      { ...refundProtocol(), rules: [{ label: 3, condition: true }] },
      '/rules/0/label',
    );
    expectIssueAt(
      { ...refundProtocol(), rules: [{ label: 'BLOCK', condition: true, priority: 1 }] },
      '/rules/0/priority',
    );
    const rules = Array.from({ length: PROTOCOL_LIMITS.maxRules + 1 }, () => ({
      label: 'BLOCK',
      condition: true,
    }));
    expectIssueAt({ ...refundProtocol(), rules }, '/rules');
  });

  it('rejects anything that is not a JSON object', () => {
    for (const input of [
      null,
      [],
      'bundle',
      42,
      true,
      undefined,
      () => 1,
      new Date(0),
      { ...refundProtocol(), slug: Number.NaN },
    ]) {
      expectIssueAt(input, '');
    }
    const cyclic: Bundle = { ...refundProtocol() };
    cyclic.self = cyclic;
    expectIssueAt(cyclic, '');
  });

  it('collects every issue, not only the first', () => {
    const bundle = {
      ...refundProtocol(),
      extra: 1,
      labels: ['A', 'A'],
      resolution: 'x',
      constraints: { type: 'nope' },
    };
    const paths = issuesOf(bundle).map((i) => i.path);
    for (const path of [
      '/extra',
      '/labels/1',
      '/resolution',
      '/constraints/type',
      '/rules/0/label',
      '/rules/1/label',
      '/rules/2/label',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it('never throws from validateProtocol, even on hostile objects', () => {
    const hostile = {
      ...refundProtocol(),
      get rules(): AgenticProtocol['rules'] {
        throw new Error('boom');
      },
    };
    expect(validateProtocol(hostile).ok).toBe(false);
    expect(
      validateProtocol(
        new Proxy(
          {},
          {
            ownKeys: () => {
              throw 1;
            },
          },
        ),
      ).ok,
    ).toBe(false);
  });
});
