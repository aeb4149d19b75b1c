// @ts-check
/**
 * The DPE's attribution and contradiction detection on the labelled corpus (corpus.jsonl, from
 * generate.js): precision and recall per class, accuracy per phenomenon, the confusion matrix and
 * every miss. Imports the built package (`npm run build` first), as a user would.
 * `node bench/dpe/accuracy.js [--json]`.
 */
import { readFileSync } from 'node:fs';
import { analyseWindow } from 'canonry/dpe';
import { machine, runIfMain, table } from '../lib/report.js';
import { CORPUS } from './generate.js';
import { LABELS, score } from './score.js';

const pct = (/** @type {number} */ x) => `${(x * 100).toFixed(1)} %`;

export async function run() {
  const items = readFileSync(CORPUS, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const started = performance.now();
  const r = score(items, analyseWindow);
  const ms = performance.now() - started;
  const tables = [
    table(
      ['class', 'items', 'predicted', 'precision', 'recall'],
      r.perClass.map((c) => [c.label, c.support, c.predicted, pct(c.precision), pct(c.recall)]),
    ),
    table(
      ['phenomenon → expected', 'items', 'right'],
      r.byPhenomenon.map((p) => [p.key, p.n, pct(p.right / p.n)]),
    ),
    table(
      ['expected \\ got', ...LABELS, 'none'],
      LABELS.map((e) => [e, ...[...LABELS, 'none'].map((g) => r.confusion[e]?.[g] ?? 0)]),
    ),
  ];
  const summary = `${r.items} claims, accuracy ${pct(r.accuracy)}; the fact named is the expected one in ${r.factNamed.right} of ${r.factNamed.of} right grounded/distortion answers; ${ms.toFixed(0)} ms for all.`;
  return {
    name: 'dpe-accuracy',
    title: 'DPE attribution and contradiction detection on the labelled corpus',
    tables: [
      summary,
      ...tables,
      `Misses:\n${r.misses.map((m) => `- ${m.expected} → ${m.got}: ${m.claim}`).join('\n')}`,
    ],
    data: { machine: machine(), ...r },
  };
}

runIfMain(import.meta.url, run);
