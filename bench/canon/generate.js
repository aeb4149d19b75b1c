// @ts-check
/**
 * Generates the LCSM §13 scenario corpus, `bench/canon/corpus/scenarios.jsonl`, from the domain
 * templates with a seeded PRNG (same seed, same file). Seven domains × seven lengths. Every event is
 * applied to a real canonry runtime as it is written and must have exactly the effect the story
 * means; the expectations come from the story's model and are checked against canon's store (see
 * lib/story.js). `node bench/canon/generate.js [--json]`; progress on stderr.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { progress } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { DOMAINS } from './lib/domains.js';
import { openRuntime } from './lib/replay.js';
import { hash32, Rng } from './lib/rng.js';
import { Story } from './lib/story.js';

const SCOPE = 'canon/generate';
export const SEED = 20261130;
/** Target lengths (events); a scenario runs a few events over to settle what is still open. */
export const LENGTHS = [40, 70, 110, 160, 230, 300, 400];
export const CORPUS = fileURLToPath(new URL('./corpus/scenarios.jsonl', import.meta.url));

/** Writes one scenario. @param {import('./lib/domains.js').DomainTemplate} domain @param {number} length @param {string} id */
export async function scenario(domain, length, id) {
  const seed = hash32(`${SEED}:${id}`);
  const { runtime, close } = await openRuntime();
  try {
    const story = new Story({ id, rng: new Rng(seed), domain, length, runtime, replay: null });
    await story.run();
    const expect = await story.expect();
    const main = /** @type {NonNullable<typeof story.main>} */ (story.main);
    const dist = /** @type {NonNullable<typeof story.dist>} */ (story.dist);
    return {
      id,
      domain: domain.name,
      seed,
      projects: [main.name, dist.name],
      classifier: story.classifier,
      events: story.events,
      expect,
      beats: story.beats,
    };
  } finally {
    await close();
  }
}

/** How often each value occurs. @param {string[]} list */
function counts(list) {
  /** @type {Record<string, number>} */
  const out = {};
  for (const k of list) out[k] = (out[k] ?? 0) + 1;
  return out;
}

async function main() {
  /** @type {Awaited<ReturnType<typeof scenario>>[]} */
  const scenarios = [];
  const started = performance.now();
  let n = 0;
  for (const domain of DOMAINS) {
    for (const [i, length] of LENGTHS.entries()) {
      const id = `${domain.name}-${String(i + 1).padStart(2, '0')}`;
      const t0 = performance.now();
      const s = await scenario(domain, length, id);
      scenarios.push(s);
      n++;
      progress(
        SCOPE,
        `[${n}/${DOMAINS.length * LENGTHS.length}] ${id}: ${s.events.length} events, ${s.expect.accepted.length} accepted, ${s.expect.superseded.length} superseded, ${s.expect.stale_artifacts.length} stale artifacts (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      );
    }
  }
  mkdirSync(fileURLToPath(new URL('./corpus/', import.meta.url)), { recursive: true });
  writeFileSync(CORPUS, `${scenarios.map((s) => JSON.stringify(s)).join('\n')}\n`);
  progress(SCOPE, `wrote ${CORPUS} in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  const events = scenarios.flatMap((s) => s.events);
  const long = scenarios.filter((s) => s.events.length >= 200);
  const kinds = counts(events.map((e) => e.kind));
  const beats = counts(
    scenarios.flatMap((s) =>
      Object.entries(s.beats).flatMap(([k, v]) => Array(/** @type {number} */ (v)).fill(k)),
    ),
  );
  const sum = (/** @type {(s: (typeof scenarios)[number]) => number} */ f) =>
    scenarios.reduce((a, s) => a + f(s), 0);
  const stats = {
    scenarios: scenarios.length,
    events: events.length,
    long_scenarios: long.length,
    events_min: Math.min(...scenarios.map((s) => s.events.length)),
    events_max: Math.max(...scenarios.map((s) => s.events.length)),
    main_project_events: sum((s) => s.events.filter((e) => e.project === s.projects[0]).length),
    accepted: sum((s) => s.expect.accepted.length),
    superseded: sum((s) => s.expect.superseded.length),
    authority: sum((s) => s.expect.authority.length),
    stale_artifacts: sum((s) => s.expect.stale_artifacts.length),
    fresh_artifacts: sum((s) => s.expect.fresh_artifacts.length),
    leak_markers: sum((s) => s.expect.leak_markers.length),
    kinds,
    beats,
  };
  const rows = [
    ['scenarios (7 domains × 7 lengths)', stats.scenarios],
    ['events', stats.events.toLocaleString('en-US')],
    ['of which in the main project', stats.main_project_events.toLocaleString('en-US')],
    ['events per scenario (min–max)', `${stats.events_min}–${stats.events_max}`],
    ['scenarios with 200+ events', stats.long_scenarios],
    ['accepted items (expect.accepted)', stats.accepted],
    ['superseded positions (expect.superseded)', stats.superseded.toLocaleString('en-US')],
    ['authority items', stats.authority],
    ['stale / fresh artifacts', `${stats.stale_artifacts} / ${stats.fresh_artifacts}`],
    ['leak markers', stats.leak_markers],
  ];
  const beatRows = Object.entries(beats)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => [k, v.toLocaleString('en-US')]);
  return {
    name: 'corpus',
    title: 'The scenario corpus',
    tables: [
      table(['corpus', 'count'], rows),
      table(
        ['event kind', 'count'],
        Object.entries(kinds).map(([k, v]) => [k, v.toLocaleString('en-US')]),
      ),
      table(['beat (project:beat)', 'events'], beatRows),
    ],
    data: stats,
  };
}

runIfMain(import.meta.url, main);
