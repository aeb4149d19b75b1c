import { CanonryError, canonicalize, type JsonObject, type JsonValue } from '../core/index.js';
import type { StepBudget } from './budget.js';
import { type ConstraintCheck, compileConstraints, constraintPolicyIssues } from './constraints.js';
import { describeThrown, type ProtocolIssue, pointer } from './issues.js';
import type { AgenticProtocol } from './protocol.js';
import { compileRule, ruleIssues } from './rules.js';

/** Bounds on an agentic protocol bundle, checked at registration. */
export const PROTOCOL_LIMITS = Object.freeze({
  maxIdentifierLength: 200,
  maxLabels: 256,
  maxLabelLength: 128,
  maxRules: 256,
  maxDescriptionLength: 4_096,
});

const KNOWN_KEYS = new Set([
  'slug',
  'version',
  'constraints',
  'labels',
  'rules',
  'resolution',
  'description',
  'format_assertion',
]);
const REQUIRED_KEYS = ['slug', 'version', 'constraints', 'labels', 'rules'];

/** A validated bundle together with what compiling it produced. */
export interface ProtocolAnalysis {
  issues: ProtocolIssue[];
  protocol?: AgenticProtocol;
  constraints?: ConstraintCheck;
  rules?: ((data: unknown, budget: StepBudget) => unknown)[];
}

const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

function checkString(value: unknown, path: string, max: number, issues: ProtocolIssue[]): void {
  if (typeof value !== 'string' || value.length === 0)
    issues.push({ path, message: 'must be a non-empty string' });
  else if (value.length > max) issues.push({ path, message: `must be at most ${max} characters` });
}

function checkLabels(labels: unknown, issues: ProtocolIssue[]): Set<string> {
  const declared = new Set<string>();
  if (!Array.isArray(labels) || labels.length === 0) {
    issues.push({ path: '/labels', message: 'must be a non-empty array of strings' });
    return declared;
  }
  if (labels.length > PROTOCOL_LIMITS.maxLabels) {
    issues.push({
      path: '/labels',
      message: `must hold at most ${PROTOCOL_LIMITS.maxLabels} labels`,
    });
  }
  labels.forEach((label, i) => {
    const path = pointer('/labels', i);
    checkString(label, path, PROTOCOL_LIMITS.maxLabelLength, issues);
    if (typeof label !== 'string') return;
    if (declared.has(label))
      issues.push({ path, message: `duplicate label ${JSON.stringify(label)}` });
    declared.add(label);
  });
  return declared;
}

function checkRules(rules: unknown, labels: Set<string>, issues: ProtocolIssue[]): void {
  if (!Array.isArray(rules) || rules.length === 0) {
    issues.push({ path: '/rules', message: 'must be a non-empty array of {label, condition}' });
    return;
  }
  if (rules.length > PROTOCOL_LIMITS.maxRules) {
    issues.push({ path: '/rules', message: `must hold at most ${PROTOCOL_LIMITS.maxRules} rules` });
  }
  rules.forEach((rule, i) => {
    const path = pointer('/rules', i);
    if (!isObject(rule)) {
      issues.push({ path, message: 'must be an object {label, condition}' });
      return;
    }
    for (const key of Object.keys(rule)) {
      if (key !== 'label' && key !== 'condition')
        issues.push({ path: pointer(path, key), message: `unknown key ${JSON.stringify(key)}` });
    }
    if (typeof rule.label !== 'string')
      issues.push({ path: pointer(path, 'label'), message: 'must be a string' });
    else if (!labels.has(rule.label)) {
      issues.push({
        path: pointer(path, 'label'),
        message: `label ${JSON.stringify(rule.label)} is not declared in labels`,
      });
    }
    if (!Object.hasOwn(rule, 'condition'))
      issues.push({ path, message: 'missing key "condition"' });
    else issues.push(...ruleIssues(rule.condition, pointer(path, 'condition')));
  });
}

function checkConstraints(
  bundle: JsonObject,
  issues: ProtocolIssue[],
): ConstraintCheck | undefined {
  const schema = bundle.constraints;
  if (typeof schema !== 'boolean' && !isObject(schema)) {
    if (schema !== undefined)
      issues.push({
        path: '/constraints',
        message: 'must be a JSON Schema (an object or a boolean)',
      });
    return undefined;
  }
  const unsupported = constraintPolicyIssues(schema, '/constraints');
  if (unsupported.length > 0) {
    issues.push(...unsupported);
    return undefined;
  }
  try {
    return compileConstraints(schema, { formatAssertion: bundle.format_assertion === true });
  } catch (error) {
    const found =
      error instanceof CanonryError
        ? (error.details?.issues as ProtocolIssue[] | undefined)
        : undefined;
    const list = found ?? [{ path: '', message: describeThrown(error) }];
    issues.push(
      ...list.map((issue) => ({ path: `/constraints${issue.path}`, message: issue.message })),
    );
    return undefined;
  }
}

/** Validates a bundle (every field hostile) and compiles it; collects every issue it can find. */
export function analyzeProtocol(input: unknown): ProtocolAnalysis {
  let bundle: JsonValue;
  try {
    // A private canonical copy: nothing the caller does to `input` later can reach it.
    bundle = JSON.parse(canonicalize(input)) as JsonValue;
  } catch (error) {
    return { issues: [{ path: '', message: `the bundle is not JSON: ${describeThrown(error)}` }] };
  }
  if (!isObject(bundle))
    return { issues: [{ path: '', message: 'the bundle must be a JSON object' }] };
  const issues: ProtocolIssue[] = [];
  for (const key of Object.keys(bundle)) {
    if (!KNOWN_KEYS.has(key))
      issues.push({ path: pointer('', key), message: `unknown key ${JSON.stringify(key)}` });
  }
  for (const key of REQUIRED_KEYS) {
    if (!Object.hasOwn(bundle, key))
      issues.push({
        path: pointer('', key),
        message: `missing required key ${JSON.stringify(key)}`,
      });
  }
  if (Object.hasOwn(bundle, 'slug'))
    checkString(bundle.slug, '/slug', PROTOCOL_LIMITS.maxIdentifierLength, issues);
  if (Object.hasOwn(bundle, 'version'))
    checkString(bundle.version, '/version', PROTOCOL_LIMITS.maxIdentifierLength, issues);
  if (Object.hasOwn(bundle, 'description')) {
    checkString(bundle.description, '/description', PROTOCOL_LIMITS.maxDescriptionLength, issues);
  }
  if (
    Object.hasOwn(bundle, 'resolution') &&
    bundle.resolution !== 'first-match' &&
    bundle.resolution !== 'exclusive'
  ) {
    issues.push({ path: '/resolution', message: 'must be "first-match" or "exclusive"' });
  }
  if (Object.hasOwn(bundle, 'format_assertion') && typeof bundle.format_assertion !== 'boolean') {
    issues.push({ path: '/format_assertion', message: 'must be a boolean' });
  }
  const labels = Object.hasOwn(bundle, 'labels')
    ? checkLabels(bundle.labels, issues)
    : new Set<string>();
  if (Object.hasOwn(bundle, 'rules')) checkRules(bundle.rules, labels, issues);
  deepFreeze(bundle);
  const constraints = checkConstraints(bundle, issues);
  if (issues.length > 0 || constraints === undefined) return { issues };
  const protocol = bundle as unknown as AgenticProtocol;
  return {
    issues,
    protocol,
    constraints,
    rules: protocol.rules.map((rule) => compileRule(rule.condition)),
  };
}
