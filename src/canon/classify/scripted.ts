import { fail, ok } from '../../core/index.js';
import type {
  Classification,
  Classifier,
  ClassifierInput,
  ClassifierResult,
} from '../classification.js';
import { lookupOf } from '../current-lookup.js';
import { isMachineAuthor } from './bounds.js';
import { DEFAULT_SCRIPTED_CONFIG, parseScriptedConfig, type ScriptedConfig } from './config.js';
import {
  BUILTIN_TIERS,
  type CueHit,
  type CueTier,
  compileTier,
  ruleTiers,
  SUGGESTION_TIER,
} from './cues.js';
import { DERIVING_KINDS } from './derive.js';
import { derivedDrafts, makeDrafts, type Subject } from './drafts.js';
import { phraseRegExp, type Sentence, splitSentences, textWords } from './text.js';

type CompiledTier = { tier: CueTier; find: (sentences: readonly Sentence[]) => CueHit[] };

/**
 * The embedded default classifier: deterministic cue rules over sentences (documented in
 * `src/canon/classify/README.md`). Same input, same output; it never mutates canon.
 */
export class ScriptedClassifier implements Classifier {
  readonly name = 'scripted';
  readonly config: ScriptedConfig;
  readonly #subjects: readonly Subject[];
  readonly #human: readonly CompiledTier[];
  readonly #machine: readonly CompiledTier[];
  /** Whether unnamed decisions, instructions and preferences get derived ids (see `derive.ts`). */
  readonly #derive: boolean;

  /** Validates the config (INVALID_ARGUMENT when it is not a {@link ScriptedConfig}). */
  constructor(config: unknown = DEFAULT_SCRIPTED_CONFIG) {
    this.config = structuredClone(parseScriptedConfig(config));
    this.#subjects = Object.keys(this.config.subjects)
      .sort()
      .map((id) => {
        const subject = this.config.subjects[id]!;
        return { id, config: subject, pattern: phraseRegExp(subject.keywords) };
      });
    const compile = (tier: CueTier): CompiledTier => ({ tier, find: compileTier(tier) });
    this.#human = [...ruleTiers(this.config.rules ?? []), ...BUILTIN_TIERS].map(compile);
    this.#machine = [compile(SUGGESTION_TIER), ...this.#human];
    // A project that names its subjects chose what becomes a note; one that names none still proposes.
    this.#derive = this.config.derive_ids ?? this.#subjects.length === 0;
  }

  /** Classifies one message; fails only when the input is not a message. */
  async classify(input: ClassifierInput): Promise<ClassifierResult> {
    if (
      typeof input?.message?.text !== 'string' ||
      (input.lookup === undefined && !Array.isArray(input.canon))
    ) {
      return fail('bad_input: expected { message: { text, role, … }, canon: [] }');
    }
    try {
      return ok(this.classifySync(input));
    } catch (error) {
      return fail(`internal: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * The synchronous core of {@link classify}: from `lookup` when given (what the message's words
   * touch is looked up, not searched for among every current object), else from `canon`.
   */
  classifySync(input: ClassifierInput): Classification {
    const { message } = input;
    const canon = input.lookup ?? lookupOf(input.canon);
    const text = message.text;
    const subjects = this.#subjects.filter((s) => s.pattern?.test(text) === true);
    const words = textWords(text);
    const touched = [
      ...new Set([...subjects.map((s) => s.id), ...canon.titled(words).map((o) => o.object_id)]),
    ].sort();
    const machine = isMachineAuthor(message);
    const sentences = splitSentences(text);
    const result = (
      outcome: Classification['outcome'],
      rationale: string,
      drafts: Classification['drafts'] = [],
    ) => ({
      outcome,
      touched,
      drafts,
      rationale: `scripted: ${rationale}`,
      classifier: this.name,
    });
    const active = subjects.filter((s) => canon.get(s.id)?.status === 'active');
    for (const { tier, find } of machine ? this.#machine : this.#human) {
      const hits = find(sentences);
      if (hits.length === 0) continue;
      if (tier.kind === 'contradiction' && active.length === 0) continue;
      const first = hits[0]!;
      const why = `${tier.kind} cue "${first.cue}" in sentence ${sentences.indexOf(first.sentence) + 1} of a message from ${message.role}`;
      if (tier.kind === 'quiet') return result('no_effect', `${why} (a quiet rule)`);
      if (tier.kind === 'source' || (tier.kind === 'fact' && subjects.length === 0)) {
        return result('source', `${why}; no subject touched, kept as a source`);
      }
      let outcome = tier.outcome;
      if (tier.kind === 'supersede') {
        outcome = touched.some((id) => canon.get(id) !== undefined)
          ? 'supersede_request'
          : 'proposed_decision';
      }
      const ctx = { tier, hits, machine, role: message.role, canon, touched };
      const derive = subjects.length === 0 && this.#derive && DERIVING_KINDS.has(tier.kind);
      const drafts = derive ? derivedDrafts(ctx) : [];
      const ids = drafts.map((d) => d.object_id);
      // Derived ids only where canon speaks of nothing else: a message that names other current
      // objects by their title is about them (a supersede cue replaces them).
      if (
        drafts.length > 0 &&
        (tier.kind === 'supersede' || touched.every((id) => ids.includes(id)))
      ) {
        return {
          ...result(outcome, `${why}; ${drafts.length} draft(s) with derived ids`, drafts),
          touched: [...new Set([...touched, ...ids])].sort(),
        };
      }
      const made = makeDrafts(tier.kind === 'contradiction' ? active : subjects, ctx);
      return result(outcome, `${why}; ${made.length} draft(s)`, made);
    }
    if (message.role === 'tool')
      return result('source', 'a tool result with no cue, kept as a source');
    return result('no_effect', touched.length > 0 ? 'no cue; touched objects listed' : 'no cue');
  }
}
