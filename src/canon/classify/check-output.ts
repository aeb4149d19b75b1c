import { fail, ok, parseJsonText, type Result } from '../../core/index.js';
import { compileConstraints } from '../../kernel/index.js';
import type { Classification, ClassifierInput, ProposalDraft } from '../classification.js';
import { boundIssues } from './bounds.js';
import { draftIssues, show } from './check-draft.js';
import {
  CLASSIFICATION_SCHEMA,
  type ModelClassification,
  type ModelDraft,
} from './classification-schema.js';
import { DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './limits.js';

let check: ReturnType<typeof compileConstraints> | undefined;

function at(value: unknown, pointer: string): unknown {
  let node = value;
  for (const key of pointer.split('/').slice(1)) node = (node as Record<string, unknown>)?.[key];
  return node;
}

/** Parses and validates the raw text: JSON, then the schema (enum failures get their own code). */
function parse(raw: string, limits: OutputLimits): Result<ModelClassification, string> {
  if (raw.length > limits.maxOutputChars) {
    return fail(
      `too_long: the output is ${raw.length} characters (limit ${limits.maxOutputChars})`,
    );
  }
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/u.exec(raw);
  let value: unknown;
  try {
    value = parseJsonText(fenced?.[1] ?? raw, 32);
  } catch (error) {
    return fail(`not_json: ${error instanceof Error ? error.message : 'unparseable'}`);
  }
  check ??= compileConstraints(CLASSIFICATION_SCHEMA);
  const result = check(value);
  if (result.valid) return ok(value as ModelClassification);
  const first = result.errors[0]!;
  const where = first.instancePath || '/';
  if (first.keyword === 'enum') {
    return fail(
      `bad_enum: ${where} ${show(at(value, first.instancePath))} is not an allowed value`,
    );
  }
  return fail(`schema: ${where} fails "${first.keyword}"`);
}

/** A validated draft as the runtime takes it: spans only, `shape: null`, supersedes only when asked. */
function toDraft(draft: ModelDraft): ProposalDraft {
  const { sources, ...rest } = draft.candidate;
  return {
    object_id: draft.object_id,
    intent: draft.intent,
    candidate: {
      ...rest,
      shape: null,
      sources: sources.map((s) => ({ span: [s.span[0]!, s.span[1]!] as const })),
    },
    ...(draft.intent === 'supersede' ? { supersedes: draft.supersedes } : {}),
    rationale: draft.rationale,
  };
}

/**
 * Checks a model's raw output as untrusted input and turns it into a classification (without its
 * `classifier`): shape, limits, ids, spans, then the author's bounds ({@link boundIssues}). Every
 * problem is a reason `<code>: <detail>`; nothing is thrown.
 */
export function checkModelOutput(
  raw: string,
  input: ClassifierInput,
  limits: OutputLimits = DEFAULT_OUTPUT_LIMITS,
): Result<Omit<Classification, 'classifier'>, string> {
  const parsed = parse(raw, limits);
  if (!parsed.ok) return parsed;
  const output = parsed.value;
  if (output.drafts.length > limits.maxDrafts) {
    return fail(`too_many_drafts: ${output.drafts.length} drafts (limit ${limits.maxDrafts})`);
  }
  const touched = [...new Set([...output.touched, ...output.drafts.map((d) => d.object_id)])];
  if (touched.length > limits.maxTouched) {
    return fail(`too_many_touched: ${touched.length} ids (limit ${limits.maxTouched})`);
  }
  const issues = output.drafts.flatMap((d, i) => draftIssues(d, `/drafts/${i}`, input, limits));
  output.drafts.forEach((d, i) => {
    const first = output.drafts.findIndex((other) => other.object_id === d.object_id);
    if (first < i) issues.push(`bad_id: /drafts/${i}/object_id repeats /drafts/${first}`);
  });
  const known = new Set([
    ...input.canon.map((o) => o.object_id),
    ...output.drafts.map((d) => d.object_id),
  ]);
  output.touched.forEach((id, i) => {
    if (id.trim() === '' || id.length > limits.maxIdChars)
      issues.push(`bad_id: /touched/${i} ${show(id)}`);
    else if (!known.has(id))
      issues.push(`unknown_object: /touched/${i} ${show(id)} is neither in canon nor drafted`);
  });
  if (output.rationale.length > limits.maxRationaleChars) {
    issues.push(
      `too_long: /rationale is ${output.rationale.length} characters (limit ${limits.maxRationaleChars})`,
    );
  }
  if (issues.length > 0) return fail(...issues.slice(0, 10));
  const drafts = output.drafts.map(toDraft);
  const beyond = boundIssues({ drafts }, input.message);
  if (beyond.length > 0) return fail(...beyond.slice(0, 10));
  return ok({ outcome: output.outcome, touched, drafts, rationale: output.rationale });
}
