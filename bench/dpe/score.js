// @ts-check
/**
 * Scores the DPE on the labelled corpus: each item's claim is analysed alone against its context,
 * and the engine's label is `distortion:<kind>` or `fabrication` when it reports a contradiction,
 * else its attribution (`grounded`, `parametric`, `unverifiable`); `none` when it found no claim.
 * Shared by the bench (against dist/) and the floor test (against src/).
 */

export const LABELS = [
  'grounded',
  'parametric',
  'unverifiable',
  'fabrication',
  'distortion:number',
  'distortion:unit',
  'distortion:negation',
  'distortion:entity',
];

/** @typedef {{ id: string, phenomenon: string, expected: string, fact_id: string | null, claim: string,
 *   context: { id: string, statement: string, source: string }[] }} CorpusItem */

/**
 * @param {import('canonry/dpe').WindowSignals} s
 */
export function labelOf(s) {
  const claim = s.claims[0];
  if (!claim) return { label: 'none', fact_id: null };
  const c = s.contradictions.find((x) => x.claim_index === 0);
  if (c)
    return {
      label: c.kind === 'fabrication' ? 'fabrication' : `distortion:${c.contradiction}`,
      fact_id: c.fact_id,
    };
  const label = {
    CONTEXT_GROUNDED: 'grounded',
    PARAMETRIC: 'parametric',
    UNVERIFIABLE: 'unverifiable',
  }[claim.attribution];
  return { label, fact_id: claim.fact_id };
}

/**
 * @param {CorpusItem[]} items
 * @param {(input: import('canonry/dpe').DpeInput) => import('canonry/dpe').WindowSignals} analyse
 */
export function score(items, analyse) {
  /** @type {{ item: CorpusItem, label: string, fact_id: string | null }[]} */
  const results = items.map((item) => {
    const s = analyse({
      window_number: 1,
      text: item.claim,
      context: item.context,
      remaining: [],
      earlier: [],
    });
    return { item, ...labelOf(s) };
  });
  const perClass = LABELS.map((label) => {
    const tp = results.filter((r) => r.label === label && r.item.expected === label).length;
    const predicted = results.filter((r) => r.label === label).length;
    const actual = results.filter((r) => r.item.expected === label).length;
    return {
      label,
      support: actual,
      predicted,
      tp,
      precision: predicted === 0 ? 1 : tp / predicted,
      recall: actual === 0 ? 1 : tp / actual,
    };
  });
  /** @type {Map<string, { n: number, right: number }>} */
  const byPhenomenon = new Map();
  for (const r of results) {
    const key = `${r.item.phenomenon} → ${r.item.expected}`;
    const e = byPhenomenon.get(key) ?? { n: 0, right: 0 };
    e.n++;
    if (r.label === r.item.expected) e.right++;
    byPhenomenon.set(key, e);
  }
  const withFact = results.filter(
    (r) => r.label === r.item.expected && r.item.fact_id !== null && r.label !== 'fabrication',
  );
  const factRight = withFact.filter((r) => r.fact_id === r.item.fact_id).length;
  /** @type {Record<string, Record<string, number>>} */
  const confusion = {};
  for (const r of results) {
    const row = confusion[r.item.expected] ?? {};
    row[r.label] = (row[r.label] ?? 0) + 1;
    confusion[r.item.expected] = row;
  }
  const accuracy = results.filter((r) => r.label === r.item.expected).length / results.length;
  return {
    items: results.length,
    accuracy,
    perClass,
    byPhenomenon: [...byPhenomenon].map(([key, e]) => ({ key, ...e })),
    factNamed: { right: factRight, of: withFact.length },
    confusion,
    misses: results
      .filter((r) => r.label !== r.item.expected)
      .map((r) => ({
        id: r.item.id,
        claim: r.item.claim,
        expected: r.item.expected,
        got: r.label,
      })),
  };
}
