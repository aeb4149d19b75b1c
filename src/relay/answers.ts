import { inflateRawSync } from 'node:zlib';
import { CanonryError, canonicalizeFixed } from '../core/index.js';
import { deflateHere, deflateSoon } from './deflate-thread.js';
import { ANSWER_LIMITS } from './limits.js';
import type { JournaledAnswer } from './session-types.js';

/** Answers whose own text (the output cut out) is at least this long are journaled deflated. */
export const DEFLATE_FROM_CHARS = 4_096;

/**
 * The form a raw answer is journaled in. The window's output is journaled once, in `output.text`:
 * an answer that is the output is `{ same: 'output' }`; one that holds it as a JSON string literal
 * (`JSON.stringify(output)`, what a model answering in JSON mode sends) is kept without it and
 * says where it goes. What is left is kept as text, or — from `DEFLATE_FROM_CHARS` on, when that
 * is shorter — raw-deflated (level 1) as base64: a model's structured answer restates much of the
 * state, and compresses several times over.
 */
export function journaledAnswer(raw: string, output: string): JournaledAnswer {
  return answerOf(raw, output, false)();
}

/**
 * {@link journaledAnswer}, started now and given when called: a long answer's deflate runs on a
 * thread of its own meanwhile (`deflate-thread.ts`), so a window starts it before its merge and
 * takes it when it builds its record. Call the result once.
 */
export function journaledAnswerSoon(raw: string, output: string): () => JournaledAnswer {
  return answerOf(raw, output, true);
}

/**
 * Answers made here from a raw answer within the bound: frozen, their canonical text kept, and
 * vouched for (`isMadeAnswer`), so the window's entry neither encodes nor checks them again.
 */
const made = new WeakSet<object>();

/** Whether `value` is an answer this module made, within `ANSWER_LIMITS` (what the schema asks). */
export function isMadeAnswer(value: object): boolean {
  return made.has(value);
}

function vouched(answer: JournaledAnswer, raw: string): JournaledAnswer {
  if (raw.length > ANSWER_LIMITS.answerChars) return answer;
  try {
    canonicalizeFixed(answer);
  } catch {
    // A lone surrogate: no entry can hold it (`journaledAnswers` leaves such answers out).
    return answer;
  }
  Object.freeze(answer);
  made.add(answer);
  return answer;
}

/** A raw answer's journaled form, its deflate (if any) started now on the thread when `soon`. */
function answerOf(raw: string, output: string, soon: boolean): () => JournaledAnswer {
  const given = answerFrom(raw, output, soon);
  return () => vouched(given(), raw);
}

function answerFrom(raw: string, output: string, soon: boolean): () => JournaledAnswer {
  if (raw === output) return () => ({ same: 'output' });
  const literal = JSON.stringify(output);
  const at = raw.indexOf(literal);
  const restLength = at >= 0 ? raw.length - literal.length : raw.length;
  const kept = (): JournaledAnswer =>
    at >= 0 ? { before: raw.slice(0, at), after: raw.slice(at + literal.length) } : { text: raw };
  if (restLength < DEFLATE_FROM_CHARS) return kept;
  const [a, b] = at >= 0 ? [raw.slice(0, at), raw.slice(at + literal.length)] : [raw, ''];
  const started = soon ? deflateSoon(a, b) : undefined;
  return () => {
    const deflated = started ? started.take() : deflateHere(a, b);
    if (deflated.length >= restLength) return kept();
    return at >= 0 ? { deflated, at } : { deflated };
  };
}

/** The raw answer a journaled one stands for, given the window's output text. */
export function rawAnswer(answer: JournaledAnswer, output: string): string {
  if ('same' in answer) return output;
  if ('before' in answer) return `${answer.before}${JSON.stringify(output)}${answer.after}`;
  if ('deflated' in answer) {
    const rest = inflated(answer.deflated);
    if (answer.at === undefined) return rest;
    if (answer.at > rest.length) throw badAnswer('its output position is past its end');
    return `${rest.slice(0, answer.at)}${JSON.stringify(output)}${rest.slice(answer.at)}`;
  }
  return answer.text;
}

/** Inflates a journaled answer, held to the answer bound (a tampered blob cannot grow past it). */
function inflated(base64: string): string {
  let text: string;
  try {
    text = inflateRawSync(Buffer.from(base64, 'base64'), {
      maxOutputLength: ANSWER_LIMITS.answerChars * 3,
    }).toString('utf8');
  } catch {
    throw badAnswer('it does not inflate within its bound');
  }
  if (text.length > ANSWER_LIMITS.answerChars) throw badAnswer('it is over its bound');
  return text;
}

function badAnswer(why: string): CanonryError {
  return new CanonryError('INVALID_ARGUMENT', `a journaled model answer cannot be read: ${why}`, {
    field: 'answers',
  });
}

/** A string within the answer bound that a journal entry can hold (no lone surrogate). */
const journalable = (raw: unknown): raw is string =>
  typeof raw === 'string' && raw.length <= ANSWER_LIMITS.answerChars && raw.isWellFormed();

/**
 * The answers a window journals, or undefined when there are none, they exceed `ANSWER_LIMITS`, or
 * one holds a lone surrogate, which no journal entry can hold (a replay of the window then needs
 * the recordings).
 */
export function journaledAnswers(
  raws: readonly string[] | undefined,
  output: string,
): JournaledAnswer[] | undefined {
  return answersOf(raws, output, false)();
}

/** {@link journaledAnswers}, started now (see {@link journaledAnswerSoon}); call the result once. */
export function journaledAnswersSoon(
  raws: readonly string[] | undefined,
  output: string,
): () => JournaledAnswer[] | undefined {
  return answersOf(raws, output, true);
}

function answersOf(
  raws: readonly string[] | undefined,
  output: string,
  soon: boolean,
): () => JournaledAnswer[] | undefined {
  if (!journaling(raws)) return none;
  const started = raws.map((r) => answerOf(r, output, soon));
  return () => started.map((answer) => answer());
}

const none = () => undefined;

/** Whether a window journals these answers (see {@link journaledAnswers}). */
const journaling = (raws: readonly string[] | undefined): raws is readonly string[] =>
  raws !== undefined &&
  raws.length > 0 &&
  raws.length <= ANSWER_LIMITS.answers &&
  raws.every(journalable);
