// @ts-check
/**
 * How a transcript-like context (full transcript, rolling summary, BM25 hits) answers each family's
 * question. No model is available, so each answer rule is a deterministic reader, written to be as
 * generous as the text allows; bench/canon/README.md documents each rule.
 */

/** @typedef {import('../strategies.js').Context} Context */

const quote = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** A value as the families write them (`Cedar-3`). */
const VALUE = /\b[A-Z][a-z]+-\d\b/g;

/**
 * The index of the last unit that states item `title` or changes it (its own statement line, a
 * restore, a dispute of it, a successor that replaces it), or -1.
 * @param {Context} ctx @param {string} title
 */
export function lastStatement(ctx, title) {
  const t = quote(title);
  const own = new RegExp(
    `^(?:(?:Fact|Decision|Correction|Revised|Restored|Measured|Re-measured|Proposal|Settled) — ${t}:|Built the ${t} from|I dispute the ${t}:)|It replaces the ${t}\\.`,
  );
  for (let i = ctx.units.length - 1; i >= 0; i--) if (own.test(ctx.units[i]?.text ?? '')) return i;
  return -1;
}

/** Whether `text` names `title` as a whole phrase. @param {string} text @param {string} title */
const names = (text, title) =>
  new RegExp(`(?<![\\p{L}-])${quote(title)}(?![\\p{L}-])`, 'iu').test(text);

/**
 * Cascade: which items need revision. A reader who chases references: an item is flagged when its
 * latest statement in the context names an item (by title) that is stated again later in the
 * context, or names an item it has flagged already (to a fixpoint, so any depth). An item whose
 * statement is not in the context cannot be flagged.
 * @param {Context} ctx @param {{ id: string, title: string }[]} all every item and fact of the scenario
 * @param {string[]} asked ids of the items the question names @returns {Set<string>}
 */
export function cascadeAnswer(ctx, all, asked) {
  const at = new Map(all.map((n) => [n.id, lastStatement(ctx, n.title)]));
  /** @type {Set<string>} */
  const flagged = new Set();
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of asked) {
      const i = at.get(id) ?? -1;
      if (i < 0 || flagged.has(id)) continue;
      const text = ctx.units[i]?.text ?? '';
      const self = all.find((n) => n.id === id);
      const rest = text.slice(text.indexOf(self?.title ?? '') + (self?.title.length ?? 0));
      const hit = all.some(
        (p) =>
          p.id !== id && names(rest, p.title) && ((at.get(p.id) ?? -1) > i || flagged.has(p.id)),
      );
      if (hit) {
        flagged.add(id);
        changed = true;
      }
    }
  }
  return flagged;
}

/** Whether some unit by `actor` contains every phrase. @param {Context} ctx @param {string | null} actor @param {string[]} phrases */
const said = (ctx, actor, phrases) =>
  ctx.units.some(
    (u) => (actor === null || u.actor === actor) && phrases.every((p) => u.text.includes(p)),
  );

/**
 * Disputes: while unresolved, both claims are retained when each claim's value is in the context on a
 * line by the person who holds it (a line shows its speaker, which is its source); once resolved, when
 * a line states the standing value and the reason it stands.
 * @param {Context} ctx @param {any} truth
 */
export function disputeAnswer(ctx, truth) {
  if (truth.resolution) {
    const r = truth.resolution;
    return { retained: said(ctx, null, [r.value, r.why]) };
  }
  return { retained: truth.claims.every((/** @type {any} */ c) => said(ctx, c.actor, [c.value])) };
}

/** The latest unit that names `title`, or null. @param {Context} ctx @param {string} title */
export function latestMention(ctx, title) {
  for (let i = ctx.units.length - 1; i >= 0; i--) {
    const u = ctx.units[i];
    if (u && names(u.text, title)) return u;
  }
  return null;
}

const HEDGED = /\?|\b(maybe|perhaps|could|might|option|if people agree)\b/i;

/**
 * Hedged: has the item been decided? The latest line naming it decides: hedged wording (a question,
 * maybe, could, an option) → "not decided"; otherwise → "decided"; no line → "unknown".
 * @param {Context} ctx @param {string} title @returns {'decided' | 'not decided' | 'unknown'}
 */
export function decidedAnswer(ctx, title) {
  const u = latestMention(ctx, title);
  if (!u) return 'unknown';
  return HEDGED.test(u.text) ? 'not decided' : 'decided';
}

/**
 * Tools, approvals: the current value is the first value on the latest line that names the item
 * (what a reader who trusts the last word gets), or null.
 * @param {Context} ctx @param {string} title
 */
export function currentAnswer(ctx, title) {
  const u = latestMention(ctx, title);
  return u ? (u.text.match(VALUE)?.[0] ?? null) : null;
}
