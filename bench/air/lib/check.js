// @ts-check
/**
 * Whether an injected problem was detected by a window's DPE signals (the right kind, the right
 * fact) and targeted by the IAP the next window carries (the quarantine, forbidden phrases, the
 * goal residual), checked against the generator's ground truth.
 */

/** Lower-case words, as the DPE's 6-grams and AIR's phrases are written. @param {string} text */
export const words = (text) =>
  text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,'-][\p{L}\p{N}]+)*/gu) ?? [];
/** The comparison key of a claim: lower case, letters and digits. @param {string} text */
export const key = (text) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The 6-grams of a sentence. @param {string} sentence */
export function sixGrams(sentence) {
  const w = words(sentence);
  const out = [];
  for (let i = 0; i + 6 <= w.length; i++) out.push(w.slice(i, i + 6).join(' '));
  return out;
}

/**
 * Detected: a fabrication or distortion as a contradiction of that kind on that claim and fact (a
 * distortion of that contradiction kind); a repetition as each copied sentence a duplicate from an
 * earlier window with its 6-grams repeated; drift as the section uncovered.
 * @param {import('./plan.js').Injection} inj @param {import('canonry/dpe').WindowSignals} signals
 */
export function detected(inj, signals) {
  switch (inj.kind) {
    case 'fabrication':
    case 'distortion':
      return signals.contradictions.some(
        (c) =>
          c.kind === inj.kind &&
          key(c.claim) === key(inj.claim) &&
          c.fact_id === inj.fact_id &&
          (inj.kind === 'fabrication' || c.contradiction === inj.contradiction),
      );
    case 'repetition': {
      const dups = new Set(
        signals.repetition.duplicate_sentences.filter((d) => d.earlier).map((d) => key(d.sentence)),
      );
      const grams = new Set(signals.repetition.ngrams.map((g) => g.ngram));
      return inj.sentences.every((s) => dups.has(key(s)) && sixGrams(s).some((g) => grams.has(g)));
    }
    case 'drift':
      return signals.completeness.uncovered.includes(inj.item);
  }
}

/**
 * Targeted by the IAP built from the window (what the next prompt carries): fabrication and
 * distortion as a quarantine entry for the claim (a distortion's correction is its fact), and the
 * prohibition in the next prompt; repetition as a forbidden phrase (or an exhausted phrasing) taken
 * from the copied sentences, in the next prompt; drift as the section among the residual's remaining
 * sub-goals, in the next prompt. `null` when no IAP was built (the loop's bound, §3.3).
 * @param {import('./plan.js').Injection} inj @param {import('canonry/air').AirPacket | null} packet
 * @param {string} prompt the next window's prompt text ('' when there is none)
 */
export function targeted(inj, packet, prompt) {
  if (packet === null) return null;
  const iap = packet.iap;
  switch (inj.kind) {
    case 'fabrication':
    case 'distortion': {
      const q = iap.error_quarantine.find((x) => key(x.original_claim) === key(inj.claim));
      if (!q) return false;
      if (
        inj.kind === 'distortion' &&
        (q.correction === null || key(q.correction) !== key(inj.fact))
      )
        return false;
      return prompt.includes(q.prohibition);
    }
    case 'repetition': {
      const grams = new Set(inj.sentences.flatMap(sixGrams));
      const phrases = [
        ...(iap.vocabulary_directives?.forbidden_phrases ?? []),
        ...iap.concept_freshness.flatMap((c) => c.exhausted_phrasings),
      ];
      return phrases.some((p) => grams.has(p) && prompt.includes(`"${p}"`));
    }
    case 'drift':
      return (
        (iap.goal_residual?.remaining_sub_goals.includes(inj.item) ?? false) &&
        prompt.includes(`  - ${inj.item}`)
      );
  }
}

/** The text of a prepared window's messages. @param {{ messages: readonly { content: string }[] }} prepared */
export const promptOf = (prepared) => prepared.messages.map((m) => m.content).join('\n');
