// @ts-check
/**
 * One message's intake as the canon grows (LCSM §4): 1,000, 4,000 and 8,000 current notes on the
 * embedded SQLite default, each message classified by the scripted classifier against the current
 * canon and proposed through the gate.
 *
 * In the same run, on the same canon and messages:
 * - the read of the current notes alone (what every intake paid before 12-07, when the classifier
 *   was shown a list of them), against which the whole intake is reported: since, intake
 *   classifies against the index of the current canon the process keeps (`Canon.currentFor`);
 * - the classification from that index (its catch-up with the store included) against the
 *   classification from the list read, which must touch the same notes;
 * - the classifier's matching of titles against the message, as it was before 12-07 (one
 *   case-insensitive Unicode pattern compiled per title, kept in a cache of 4,096), against the
 *   whole classification now (word sets: one look-up a title word).
 *
 * The messages are the scenario's: decisions that name two title words of the canon (so the
 * classifier touches the notes whose titles hold them, a share of the canon set by the generator)
 * and derive a note of their own. Ground truth for what is touched is the generator's: the test
 * of the classifier checks it; here the old matching and the new must find the same notes.
 */

import { createCanonry } from 'canonry/app';
import { intake, proposalInput, ScriptedClassifier } from 'canonry/canon';
import { tempDir } from '../lib/journal-data.js';
import { fmtInt, median, progress } from '../lib/measure.js';
import { fmtRatio, runIfMain, table } from '../lib/report.js';

const SCOPE = 'canon/intake';
const PROJECT = 'intake';
const SIZES = process.env.BENCH_QUICK ? [1_000, 4_000] : [1_000, 4_000, 8_000];
const MESSAGES = process.env.BENCH_QUICK ? 5 : 15;
/** Messages the matching before is timed on (seconds a message at 8,000 notes). */
const OLD_MESSAGES = 5;
/** Title topics: each note's title holds one, so a message naming two touches ~2/40 of the canon. */
const TOPICS = Array.from({ length: 40 }, (_, i) => `topic${String(i).padStart(2, '0')}`);
const STATUSES = /** @type {const} */ (['active', 'provisional', 'disputed']);
const owner = { id: 'olivia', project: PROJECT, role: /** @type {const} */ ('owner') };

/** @param {number} i */
const candidate = (i) => ({
  object_type: 'fact',
  title: `${TOPICS[i % TOPICS.length]} note ${i}`,
  text: `Note ${i} states one thing about ${TOPICS[i % TOPICS.length]}.`,
});

/** @param {number} size @param {number} k */
const messageText = (size, k) =>
  `We decided the ${TOPICS[k % TOPICS.length]} and ${TOPICS[(k + 7) % TOPICS.length]} review moves to Friday ${size}-${k}.`;

/**
 * The matching of titles before 12-07: a whole-word, case-insensitive Unicode pattern of each
 * title's words (4+ letters or digits), compiled once per title and kept in a 4,096-title cache.
 */
function oldMatcher() {
  /** @type {Map<string, RegExp | null>} */
  const cache = new Map();
  /** @param {string} title */
  const patternOf = (title) => {
    const hit = cache.get(title);
    if (hit !== undefined) {
      cache.delete(title);
      cache.set(title, hit);
      return hit;
    }
    const words = [
      ...new Set((title.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 4)),
    ].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    // Each word whole on its own (the form the classifier compiled), longest first.
    const pattern =
      words.length === 0
        ? null
        : new RegExp(
            words.map((w) => `(?<![\\p{L}\\p{N}_])${w}(?![\\p{L}\\p{N}_])`).join('|'),
            'iu',
          );
    cache.set(title, pattern);
    if (cache.size > 4_096) cache.delete(/** @type {string} */ (cache.keys().next().value));
    return pattern;
  };
  /** @param {string} text @param {readonly { object_id: string, title: string }[]} canon */
  return (text, canon) =>
    canon
      .filter((o) => patternOf(o.title)?.test(text) === true)
      .map((o) => o.object_id)
      .sort();
}

/** @param {() => Promise<unknown> | unknown} work */
async function time(work) {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function main() {
  const { dir, remove } = tempDir('intake');
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  try {
    const classifier = await runtime.classifierFor(PROJECT);
    const scripted = new ScriptedClassifier();
    const matchOld = oldMatcher();
    /** @type {{ size: number, intake: number, read: number, old: number, cold: number, now: number, indexed: number, sameIndexed: number, touched: number, agree: number }[]} */
    const rows = [];
    let made = 0;
    for (const size of SIZES) {
      const seeding = performance.now();
      while (made < size) {
        const inputs = Array.from({ length: Math.min(500, size - made) }, (_, k) =>
          proposalInput({
            object_id: `n.${made + k}`,
            intent: 'create',
            base_version: null,
            candidate: candidate(made + k),
          }),
        );
        await runtime.canon.proposeBatch(owner, inputs);
        made += inputs.length;
      }
      progress(
        SCOPE,
        `${fmtInt(size)} notes seeded (${((performance.now() - seeding) / 1000).toFixed(1)} s)`,
      );
      const reader = runtime.canon.readerFor(owner);
      /** @type {number[]} */ const intakes = [];
      /** @type {number[]} */ const reads = [];
      /** @type {number[]} */ const olds = [];
      /** @type {number[]} */ const nows = [];
      /** @type {number[]} */ const indexed = [];
      let sameIndexed = 0;
      /** @type {number[]} */ const touched = [];
      let agree = 0;
      // The first message after a start: nothing compiled yet.
      const all = await reader.objects([...STATUSES]);
      const cold = await time(() => oldMatcher()(messageText(size, -1), all));
      for (let k = 0; k < MESSAGES; k++) {
        const text = messageText(size, k);
        /** @type {import('canonry/canon').CanonObject[]} */
        let canon = [];
        reads.push(await time(async () => (canon = await reader.objects([...STATUSES]))));
        const message = { message_id: `m.${size}.${k}`, text, role: /** @type {const} */ ('user') };
        /** @type {string[]} */ let before = [];
        /** @type {string[]} */ let after = [];
        // Alternated: which goes first changes each message.
        const runOld = async () => olds.push(await time(() => (before = matchOld(text, canon))));
        const runNow = async () =>
          nows.push(
            await time(async () => {
              const result = await scripted.classify({
                message: /** @type {never} */ (message),
                canon,
              });
              if (!result.ok) throw new Error(result.issues.join('; '));
              after = result.value.touched;
            }),
          );
        if (k >= OLD_MESSAGES) await runNow();
        else if (k % 2 === 0) {
          await runOld();
          await runNow();
        } else {
          await runNow();
          await runOld();
        }
        if (k < OLD_MESSAGES && JSON.stringify(before) === JSON.stringify(after)) agree++;
        /** @type {string[]} */ let fromIndex = [];
        indexed.push(
          await time(async () => {
            const lookup = await runtime.canon.currentFor(owner);
            const result = await scripted.classify({
              message: /** @type {never} */ (message),
              lookup,
              get canon() {
                return lookup.all();
              },
            });
            if (!result.ok) throw new Error(result.issues.join('; '));
            fromIndex = result.value.touched;
          }),
        );
        if (JSON.stringify(fromIndex) === JSON.stringify(after)) sameIndexed++;
        touched.push(after.length);
        intakes.push(await time(() => intake(runtime.canon, classifier, owner, { text })));
      }
      const row = {
        size,
        intake: median(intakes),
        read: median(reads),
        old: median(olds),
        cold,
        now: median(nows),
        indexed: median(indexed),
        sameIndexed,
        touched: median(touched),
        agree,
      };
      rows.push(row);
      progress(
        SCOPE,
        `${fmtInt(size)} notes: intake ${row.intake.toFixed(1)} ms, read ${row.read.toFixed(1)} ms, titles before ${row.old.toFixed(1)} ms (${fmtInt(cold)} ms first after a start), classification from the list ${row.now.toFixed(1)} ms, from the index ${row.indexed.toFixed(2)} ms`,
      );
    }
    return {
      name: 'intake',
      title:
        'One message taken in against a growing canon: the intake against the read of every current note it paid before, title matching before and now, and the classification from the kept index against the list',
      tables: [
        table(
          [
            'current notes',
            'touched (median)',
            'intake ms (median)',
            'read of current notes ms',
            'intake ÷ read',
            'title matching before ms (first after a start)',
            'classification from the list ms',
            'before ÷ list',
            'same notes touched',
            'classification from the index ms (catch-up included)',
            'list ÷ index',
            'index touches what the list does',
          ],
          rows.map((r) => [
            fmtInt(r.size),
            r.touched,
            r.intake.toFixed(1),
            r.read.toFixed(1),
            fmtRatio(r.intake / r.read),
            `${r.old.toFixed(1)} (${fmtInt(r.cold)})`,
            r.now.toFixed(2),
            fmtRatio(r.old / r.now),
            `${r.agree} / ${OLD_MESSAGES}`,
            r.indexed.toFixed(2),
            fmtRatio(r.now / r.indexed),
            `${r.sameIndexed} / ${MESSAGES}`,
          ]),
        ),
      ],
      data: { messages: MESSAGES, oldMessages: OLD_MESSAGES, rows },
    };
  } finally {
    await runtime.close();
    remove();
  }
}

runIfMain(import.meta.url, main);
