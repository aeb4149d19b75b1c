// @ts-check
/**
 * Generates the DPE's labelled corpus, `bench/dpe/corpus.jsonl`, from the hand-written templates
 * (templates.js) with a seeded PRNG: same seed, same file. Each line is one claim with the context
 * facts it is judged against and the label it must get, known by construction:
 * - `grounded`: the template's fact restated (another number format or an equal value in another
 *   unit, another polarity wording) or paraphrased (templates' `para`), the fact in the context;
 * - `distortion:number` / `:unit` / `:entity` / `:negation`: the fact in the context, the claim
 *   with another number, the same number in another unit, another name, the other polarity;
 * - `fabrication`: the claim states the template's value or name, the context holds only the
 *   template's vague fact about the same subject;
 * - `unverifiable` / `parametric`: a claim about a subject no template covers, specific or not;
 * - the hard cases (templates.js `HARD`), each labelled by hand.
 * Every context also holds three facts of other templates, shuffled, ids f1…f4.
 * `node bench/dpe/generate.js` writes the file; `--check` exits 1 when the file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Rng } from '../canon/lib/rng.js';
import {
  ENTITIES,
  HARD,
  NEGATIONS,
  QUANTITIES,
  UNRELATED_GENERAL,
  UNRELATED_SPECIFIC,
} from './templates.js';

export const SEED = 20261202;
export const CORPUS = fileURLToPath(new URL('./corpus.jsonl', import.meta.url));
const SOURCES = ['cso', 'canon', 'tool'];
const WORDS = ['', '', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** @param {number} v */
const grouped = (v) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });
/** @param {number} v */
const plain = (v) => String(Math.round(v * 1000) / 1000);

/**
 * Ways to write one value in one unit, the first the canonical one; all equal in value.
 * @param {number} v @param {string} unit @returns {string[]}
 */
export function spellings(v, unit) {
  switch (unit) {
    case '':
      return v >= 1000
        ? [grouped(v), plain(v)]
        : v < 10 && WORDS[v]
          ? [plain(v), WORDS[v]]
          : [plain(v)];
    case '%':
      return [`${plain(v)}%`, `${plain(v)} percent`];
    case 'ms':
      return [`${v} ms`, `${v} milliseconds`, `${plain(v / 1000)} seconds`];
    case 'seconds':
      return [`${v} seconds`, `${v} s`, `${v * 1000} ms`];
    case 'minutes':
      return [`${v} minutes`, `${v} min`, `${v * 60} seconds`];
    case 'hours':
      return [`${v} hours`, `${v} h`, `${v * 60} minutes`];
    case 'days':
      return [`${v} days`, `${v * 24} hours`];
    case 'GB':
      return Number.isInteger(v)
        ? [`${v} GB`, `${v * 1000} MB`]
        : [`${v.toFixed(2)} GB`, `${plain(v)} GB`, `${plain(v * 1000)} MB`];
    case 'MB':
      return [`${v} MB`, `${v} megabytes`];
    case 'TB':
      return [`${v} TB`, `${v * 1000} GB`];
    default:
      throw new Error(`no spellings for unit ${unit}`);
  }
}

/** A different value of the same magnitude. @param {Rng} rng @param {number} v */
function otherValue(rng, v) {
  const factor = rng.pick([0.5, 0.7, 1.3, 1.5, 2, 3]);
  let w = Number.isInteger(v) ? Math.round(v * factor) : Math.round(v * factor * 10) / 10;
  if (w === v) w = v + (Number.isInteger(v) ? 1 : 0.1);
  return Math.round(w * 1000) / 1000;
}

/** The canonical fact of every template with a drawn value, for distractors. @param {Rng} rng */
function distractorPool(rng) {
  return [
    ...QUANTITIES.map((t) => ({
      template: t.id,
      statement: t.fact(spellings(t.value(rng), t.unit)[0] ?? ''),
    })),
    ...ENTITIES.map((t) => ({ template: t.id, statement: t.fact(t.entity) })),
    ...NEGATIONS.map((t) => ({ template: t.id, statement: rng.chance(0.5) ? t.yes : t.no })),
  ];
}

/**
 * @param {Rng} rng @param {string | null} statement the target fact, or null
 * @param {string} template @param {ReturnType<typeof distractorPool>} pool
 */
function contextFor(rng, statement, template, pool) {
  const others = rng
    .shuffle(pool.filter((p) => p.template !== template))
    .slice(0, statement ? 3 : 4);
  const facts = rng.shuffle([
    ...(statement ? [{ statement, target: true }] : []),
    ...others.map((o) => ({ statement: o.statement, target: false })),
  ]);
  const context = facts.map((f, i) => ({
    id: `f${i + 1}`,
    statement: f.statement,
    source: rng.pick(SOURCES),
  }));
  const target = facts.findIndex((f) => f.target);
  return { context, fact_id: target === -1 ? null : `f${target + 1}` };
}

export function generate() {
  const rng = new Rng(SEED);
  const pool = distractorPool(rng);
  /** @type {Record<string, unknown>[]} */
  const items = [];
  /**
   * @param {string} template @param {string} phenomenon @param {string} expected
   * @param {string | null} fact @param {string} claim @param {boolean} [factIsTarget]
   */
  const add = (template, phenomenon, expected, fact, claim, factIsTarget = true) => {
    const { context, fact_id } = contextFor(rng, fact, template, pool);
    items.push({
      id: `${template}:${phenomenon}:${expected}`,
      phenomenon,
      expected,
      fact_id: factIsTarget ? fact_id : null,
      claim,
      context,
    });
  };

  for (const t of QUANTITIES) {
    const v = t.value(rng);
    const forms = spellings(v, t.unit);
    const q = /** @type {string} */ (forms[0]);
    const fact = t.fact(q);
    const alt = forms.length > 1 ? rng.pick(forms.slice(1)) : q;
    add(t.id, 'number-format', 'grounded', fact, t.fact(alt));
    add(t.id, 'paraphrase', 'grounded', fact, t.para(rng.pick(forms)));
    const w = otherValue(rng, v);
    const say = rng.chance(0.5) ? t.fact : t.para;
    add(t.id, 'number', 'distortion:number', fact, say(spellings(w, t.unit)[0] ?? ''));
    if (t.units.length > 0) {
      add(t.id, 'unit', 'distortion:unit', fact, t.fact(`${plain(v)} ${rng.pick(t.units)}`));
      add(
        t.id,
        'unit-paraphrase',
        'distortion:unit',
        fact,
        t.para(`${plain(v)} ${rng.pick(t.units)}`),
      );
    }
    add(t.id, 'number', 'fabrication', t.vague, (rng.chance(0.5) ? t.fact : t.para)(q));
  }

  for (const t of ENTITIES) {
    const fact = t.fact(t.entity);
    add(t.id, 'restatement', 'grounded', fact, t.fact(t.entity));
    add(t.id, 'paraphrase', 'grounded', fact, t.para(t.entity));
    const [other, other2] = rng.shuffle(t.others);
    add(t.id, 'entity', 'distortion:entity', fact, t.fact(/** @type {string} */ (other)));
    add(
      t.id,
      'entity-paraphrase',
      'distortion:entity',
      fact,
      t.para(/** @type {string} */ (other2)),
    );
    add(t.id, 'entity', 'fabrication', t.vague, (rng.chance(0.5) ? t.fact : t.para)(t.entity));
  }

  for (const t of NEGATIONS) {
    const positive = rng.chance(0.5);
    const [same, same2, flip, flip2] = positive
      ? [t.yes, t.yes2, t.no, t.no2]
      : [t.no, t.no2, t.yes, t.yes2];
    add(t.id, 'restatement', 'grounded', same, same);
    add(t.id, 'paraphrase', 'grounded', same, same2);
    add(t.id, 'negation', 'distortion:negation', same, flip);
    add(t.id, 'negation-paraphrase', 'distortion:negation', same, flip2);
  }

  // A hard case labelled unverifiable is about a subject its fact does not cover: no fact to name.
  for (const h of HARD) {
    const target = h.expected !== 'unverifiable' && h.expected !== 'parametric';
    add(`hard-${h.id}`, h.phenomenon, h.expected, h.fact, h.claim, target);
  }

  for (const [i, claim] of UNRELATED_SPECIFIC.entries()) {
    add(`specific-${i + 1}`, 'unrelated', 'unverifiable', null, claim, false);
  }
  for (const [i, claim] of UNRELATED_GENERAL.entries()) {
    add(`general-${i + 1}`, 'unrelated', 'parametric', null, claim, false);
  }
  return items;
}

export function corpusText() {
  return `${generate()
    .map((item) => JSON.stringify(item))
    .join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = corpusText();
  if (process.argv.includes('--check')) {
    const same = readFileSync(CORPUS, 'utf8') === text;
    process.stderr.write(
      same ? 'corpus.jsonl is current\n' : 'corpus.jsonl differs from the generator\n',
    );
    process.exit(same ? 0 : 1);
  }
  writeFileSync(CORPUS, text);
  process.stderr.write(`wrote ${text.split('\n').length - 1} items to ${CORPUS}\n`);
}
