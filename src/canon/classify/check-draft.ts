import type { ClassifierInput } from '../classification.js';
import type { ModelDraft } from './classification-schema.js';
import type { OutputLimits } from './limits.js';

/** A model-written value, quoted and clipped for a reason string. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** The semantic checks of one draft against the message, the canon and the limits. */
export function draftIssues(
  draft: ModelDraft,
  path: string,
  input: ClassifierInput,
  limits: OutputLimits,
): string[] {
  const issues: string[] = [];
  const canon = new Set(input.canon.map((o) => o.object_id));
  const text = input.message.text;
  const long = (where: string, value: string, limit: number) => {
    if (value.length > limit)
      issues.push(`too_long: ${where} is ${value.length} characters (limit ${limit})`);
  };
  if (draft.object_id.trim() === '') issues.push(`bad_id: ${path}/object_id is empty`);
  long(`${path}/object_id`, draft.object_id, limits.maxIdChars);
  long(`${path}/candidate/title`, draft.candidate.title, limits.maxTitleChars);
  long(`${path}/candidate/text`, draft.candidate.text, limits.maxTextChars);
  long(`${path}/rationale`, draft.rationale, limits.maxRationaleChars);
  const exists = canon.has(draft.object_id);
  if (['update', 'retire', 'dispute'].includes(draft.intent) && !exists) {
    issues.push(
      `unknown_object: ${path} would ${draft.intent} ${show(draft.object_id)}, which is not in canon`,
    );
  }
  if (draft.intent === 'create' && exists) {
    issues.push(`bad_intent: ${path} would create ${show(draft.object_id)}, which already exists`);
  }
  if (draft.intent === 'supersede' && draft.supersedes.length === 0) {
    issues.push(`bad_intent: ${path} supersedes nothing`);
  }
  if (draft.intent !== 'supersede' && draft.supersedes.length > 0) {
    issues.push(`bad_intent: ${path} lists supersedes but its intent is ${draft.intent}`);
  }
  draft.supersedes.forEach((id, i) => {
    if (id === draft.object_id)
      issues.push(`bad_intent: ${path}/supersedes/${i} is the draft itself`);
    else if (!canon.has(id))
      issues.push(`unknown_object: ${path}/supersedes/${i} ${show(id)} is not in canon`);
  });
  if (draft.candidate.sources.length === 0)
    issues.push(`no_source: ${path} cites no span of the message`);
  draft.candidate.sources.forEach(({ span, quote }, i) => {
    const where = `${path}/candidate/sources/${i}`;
    const [start, end] = span;
    if (span.length !== 2 || start === undefined || end === undefined) {
      issues.push(`bad_span: ${where}/span is not a [start, end] pair`);
    } else if (start < 0 || end <= start || end > text.length) {
      issues.push(
        `bad_span: ${where}/span [${start}, ${end}] is outside the message (length ${text.length})`,
      );
    } else if (text.slice(start, end) !== quote) {
      const found = limits.alignQuotes && quote !== '' ? text.indexOf(quote) : -1;
      if (found < 0) issues.push(`bad_span: ${where}/quote is not on the message`);
      else span.splice(0, 2, found, found + quote.length);
    }
  });
  return issues;
}
