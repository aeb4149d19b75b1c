import { ANSWER_LIMITS } from './limits.js';
import type { JournaledAnswer } from './session-types.js';

/**
 * The form a raw answer is journaled in: the output itself or cut around it when it holds the
 * window's output (as `JSON.stringify` writes it: what a model answering in JSON mode sends), so
 * the window's text is journaled once; else whole.
 */
export function journaledAnswer(raw: string, output: string): JournaledAnswer {
  if (raw === output) return { same: 'output' };
  const literal = JSON.stringify(output);
  const at = raw.indexOf(literal);
  if (at >= 0) return { before: raw.slice(0, at), after: raw.slice(at + literal.length) };
  return { text: raw };
}

/** The raw answer a journaled one stands for, given the window's output text. */
export function rawAnswer(answer: JournaledAnswer, output: string): string {
  if ('same' in answer) return output;
  if ('before' in answer) return `${answer.before}${JSON.stringify(output)}${answer.after}`;
  return answer.text;
}

/**
 * The answers a window journals, or undefined when there are none or they exceed
 * `ANSWER_LIMITS` (a replay of the window then needs the recordings).
 */
export function journaledAnswers(
  raws: readonly string[] | undefined,
  output: string,
): JournaledAnswer[] | undefined {
  if (raws === undefined || raws.length === 0 || raws.length > ANSWER_LIMITS.answers) return;
  if (raws.some((r) => typeof r !== 'string' || r.length > ANSWER_LIMITS.answerChars)) return;
  return raws.map((r) => journaledAnswer(r, output));
}
