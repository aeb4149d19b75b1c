// @ts-check
/**
 * Scores one context against a scenario's expectations. Transcript-like contexts (full transcript,
 * rolling summary, retrieval) are read message by message; canonry's capsule is parsed into its
 * sections and note lines. Exactly how each metric reads each kind of context is documented in
 * bench/canon/README.md.
 */

/**
 * @typedef {object} Expect
 * @property {{ object_id: string, must_contain: string }[]} accepted
 * @property {string[]} superseded
 * @property {{ object_id: string, principal: string, role: string }[]} authority
 * @property {string[]} stale_artifacts
 * @property {string[]} fresh_artifacts
 * @property {string[]} leak_markers
 * @property {string} resume_question
 */

/**
 * What one context scored.
 * @typedef {object} Score
 * @property {number} retention share of accepted items present as current
 * @property {number} recency share of accepted items a latest-mention reader gets right
 * @property {number} superseded superseded positions anywhere in the context
 * @property {number} supersededAsCurrent superseded positions presented as current
 * @property {number} authority share of authority items attributed to the right principal (and role)
 * @property {number} leaks leak markers in the context
 * @property {number} stale share of stale artifacts flagged as stale
 * @property {number} falseStale fresh artifacts flagged as stale
 */

/** `n / d`, or 1 when there is nothing to find. @param {number} n @param {number} d */
const share = (n, d) => (d === 0 ? 1 : n / d);

/** A case-insensitive whole-word regex for any of the phrases (as the classifier matches keywords). @param {readonly string[]} phrases */
export function keywordPattern(phrases) {
  const quote = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const body = [...phrases]
    .sort((a, b) => b.length - a.length)
    .map((p) => p.trim().split(/\s+/).map(quote).join('\\s+'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${body.join('|')})(?![\\p{L}\\p{N}_])`, 'iu');
}

const STALE_WORDS = /\b(stale|outdated|out of date|obsolete|needs? (?:rework|regeneration))\b/i;

/**
 * Scores a transcript-like context.
 * - retention: `must_contain` appears anywhere (a transcript has no notion of "current", so this is
 *   the most generous reading; the superseded count shows what comes with it);
 * - recency: the latest message mentioning the subject (one of its keywords) contains `must_contain`;
 * - authority: the latest message containing `must_contain` was written by the expected principal;
 * - stale: a message naming the artifact (id or title) also calls it stale/outdated/obsolete.
 * @param {import('./strategies.js').Context} ctx @param {Expect} expect
 * @param {Record<string, { keywords: string[] }>} subjects @param {Map<string, string>} titles artifact id → title
 * @returns {Score}
 */
export function scoreTranscript(ctx, expect, subjects, titles) {
  const { text, units } = ctx;
  const last = (/** @type {(u: import('./strategies.js').Unit) => boolean} */ f) =>
    units.findLast(f);
  const retained = expect.accepted.filter((a) => text.includes(a.must_contain)).length;
  const recent = expect.accepted.filter((a) => {
    const pattern = keywordPattern(subjects[a.object_id]?.keywords ?? [a.object_id]);
    return last((u) => pattern.test(u.text))?.text.includes(a.must_contain) === true;
  }).length;
  const authority = expect.authority.filter((a) => {
    const value =
      expect.accepted.find((x) => x.object_id === a.object_id)?.must_contain ?? '\u0000';
    return last((u) => u.text.includes(value))?.actor === a.principal;
  }).length;
  const flags = (/** @type {string} */ id) =>
    units.some(
      (u) =>
        (u.text.includes(id) || u.text.includes(titles.get(id) ?? '\u0000')) &&
        STALE_WORDS.test(u.text),
    );
  const superseded = expect.superseded.filter((t) => text.includes(t)).length;
  return {
    retention: share(retained, expect.accepted.length),
    recency: share(recent, expect.accepted.length),
    superseded,
    supersededAsCurrent: superseded,
    authority: share(authority, expect.authority.length),
    leaks: expect.leak_markers.filter((m) => text.includes(m)).length,
    stale: share(expect.stale_artifacts.filter(flags).length, expect.stale_artifacts.length),
    falseStale: expect.fresh_artifacts.filter(flags).length,
  };
}

/** A note's first line: `- id vN [status] confidence type: text` (no status: active). */
const NOTE = /^- (\S+) v(\d+) (?:([a-z_]+) )?([a-z_]+) ([a-z_]+): (.*)$/;
/**
 * Its second line: `  [Sn intent [of vK] [from vM] ]by proposer/role[, approved approver/role |
 * , self-approved], gate LABEL; …`.
 */
const BY =
  /^ {2}(?:S\d [a-z]+(?: of v\d+)?(?: from v\d+)? )?by (\S+?)\/([a-z]+)(?:, approved (\S+?)\/([a-z]+)|, self-approved)?, gate /;
const NOT_CANON = /not canon/i;
const STALE_STATES = new Set([
  'possibly_stale',
  'definitely_stale',
  'requires_regeneration',
  'requires_human_review',
]);

/**
 * Parses a capsule: its note lines (with their `source:` line) by section, and its artifact lines.
 * @param {string} capsule
 */
export function parseCapsule(capsule) {
  /** @type {{ section: string, type: string, id: string, status: string, by: { id: string, role: string } | null, body: string }[]} */
  const notes = [];
  /** @type {Map<string, string>} artifact id → state */
  const artifacts = new Map();
  let section = '';
  const lines = capsule.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = /** @type {string} */ (lines[i]);
    if (line.startsWith('## ')) {
      section = line.slice(3);
      continue;
    }
    const m = NOTE.exec(line);
    if (m) {
      let body = /** @type {string} */ (m[6]);
      const b = BY.exec(lines[i + 1] ?? '');
      // The one who authorized it: the approver when there was one, else the proposer.
      const by = b
        ? { id: /** @type {string} */ (b[3] ?? b[1]), role: /** @type {string} */ (b[4] ?? b[2]) }
        : null;
      while (lines[i + 1]?.startsWith('  ')) body += `\n${lines[++i]}`;
      notes.push({
        section,
        type: /** @type {string} */ (m[5]),
        id: /** @type {string} */ (m[1]),
        status: /** @type {string} */ (m[3] ?? 'active'),
        by,
        body,
      });
      continue;
    }
    const a = /^- (\S+): ([a-z_]+),/.exec(line);
    if (a && /artifact/i.test(section))
      artifacts.set(/** @type {string} */ (a[1]), /** @type {string} */ (a[2]));
  }
  return { notes, artifacts };
}

/**
 * Scores canonry's capsule.
 * - retention (and recency): the object's note in a section that presents current canon (every
 *   section but "… (not canon)") contains `must_contain` (its text or its source quote);
 * - superseded: a superseded position anywhere in the capsule (strict); as current: inside such a note;
 * - authority: the note's authority names the expected principal with the expected role as the one
 *   who authorized it (the approver when there was one, else the proposer);
 * - stale: the artifact's line in "Artifacts" has a stale state (possibly/definitely stale,
 *   requires regeneration, requires human review).
 * @param {string} capsule @param {Expect} expect @returns {Score}
 */
export function scoreCapsule(capsule, expect) {
  const { notes, artifacts } = parseCapsule(capsule);
  const current = notes.filter((n) => !NOT_CANON.test(n.section));
  const note = (/** @type {string} */ id) => current.find((n) => n.id === id);
  const retained = expect.accepted.filter((a) =>
    note(a.object_id)?.body.includes(a.must_contain),
  ).length;
  const authority = expect.authority.filter((a) => {
    const by = note(a.object_id)?.by;
    return by?.id === a.principal && by.role === a.role;
  }).length;
  const currentText = current.map((n) => n.body).join('\n');
  const flagged = (/** @type {string} */ id) => STALE_STATES.has(artifacts.get(id) ?? '');
  return {
    retention: share(retained, expect.accepted.length),
    recency: share(retained, expect.accepted.length),
    superseded: expect.superseded.filter((t) => capsule.includes(t)).length,
    supersededAsCurrent: expect.superseded.filter((t) => currentText.includes(t)).length,
    authority: share(authority, expect.authority.length),
    leaks: expect.leak_markers.filter((m) => capsule.includes(m)).length,
    stale: share(expect.stale_artifacts.filter(flagged).length, expect.stale_artifacts.length),
    falseStale: expect.fresh_artifacts.filter(flagged).length,
  };
}
