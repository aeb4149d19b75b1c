// @ts-check
/**
 * Runs a bench suite: `node bench/run.js [kernel|journal|canon|canon-graph|canon-intake|relay|dpe|air|evolution|web]` (or `npm run bench`,
 * which builds first and runs the kernel suite). Each bench runs in its own node process, one after the other; their
 * tables are printed as markdown, the raw results go to bench/results/<suite>.json, and the section
 * of bench/README.md between `<!-- <suite>:results:begin -->` and `<!-- <suite>:results:end -->`
 * (or, when the README has no such markers, between `<!-- <suite>:begin -->` and
 * `<!-- <suite>:end -->`) is rewritten with the fresh tables.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { machine } from './lib/report.js';

const SUITES = {
  kernel: ['verdicts', 'engines', 'http', 'worst-case'],
  journal: ['appends-sqlite', 'appends-postgres', 'rebuild', 'langgraph-peer', 'feed'],
  // LCSM §13: regenerate the scenario corpus, replay it through the context strategies, the issue-12
  // scenario families (cascades, disputes, hedged suggestions, tool corrections, stale approvals),
  // the probes.
  canon: ['generate', 'run', 'families', 'probes'],
  // Cascade propagation on a 100,000-edge project: canon's indexed cascade against a full scan.
  'canon-graph': ['propagation'],
  // One message's intake against 1,000–8,000 current notes: against the read of the canon it
  // classifies against, and title matching before 12-07 against the classification now.
  'canon-intake': ['intake'],
  // CRP-030 state relay: invalidation on 100,000 edges (indexed vs the §3.2 edge scan), one window's
  // work on a 1,000-fact CSO, and the CSO relay against a text summary on the recorded corpus.
  relay: ['generate-corpus', 'invalidation', 'window', 'corpus'],
  // The DPE on its labelled corpus: precision and recall per class (deterministic, under a second).
  dpe: ['accuracy'],
  // CRP-018 AIR: injected problems detected and targeted, the obedient vs deaf trajectory, and the
  // DPE + IAP build against the relay's own per-window work. (bench/air/harness.js needs a model
  // server and is run by hand.)
  air: ['sessions', 'speed', 'stall'],
  // GCS evolution: qualified cognitive events resolved, signed and verified against the raw Ed25519
  // sign + verify floor.
  evolution: ['events'],
  // The workbench (issue 16): the board of 2,000 notes and 20,000 entries interactive in chromium
  // against `canonry serve`, and the JavaScript dist/web ships.
  web: ['board'],
};
/** The folder of a suite's scripts and the dist/ module it needs: the suite's name unless said here. */
const DIRS = /** @type {Record<string, string>} */ ({
  'canon-graph': 'canon',
  'canon-intake': 'canon',
});
const suite = /** @type {keyof typeof SUITES} */ (process.argv[2] ?? 'kernel');
const here = (/** @type {string} */ path) => fileURLToPath(new URL(path, import.meta.url));

/** Runs one bench script with `--json` and returns its parsed result. @param {string} file */
function runBench(file) {
  return new Promise((done, failed) => {
    const child = spawn(process.execPath, [file, '--json'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.once('exit', (code) =>
      code === 0 ? done(JSON.parse(out)) : failed(new Error(`${file} exited with ${code}`)),
    );
  });
}

/** @param {string} readme @param {string} body */
function replaceSection(readme, body) {
  const results = readme.includes(`<!-- ${suite}:results:begin -->`) ? ':results' : '';
  const begin = `<!-- ${suite}${results}:begin -->`;
  const end = `<!-- ${suite}${results}:end -->`;
  const from = readme.indexOf(begin);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`bench/README.md has no ${begin} … ${end} section`);
  return `${readme.slice(0, from + begin.length)}\n${body}\n${readme.slice(to)}`;
}

async function main() {
  const scripts = SUITES[suite];
  if (!scripts) throw new Error(`unknown suite ${suite}; known: ${Object.keys(SUITES).join(', ')}`);
  const dir = DIRS[suite] ?? suite;
  const built = suite === 'web' ? '../dist/web/index.html' : `../dist/${dir}/index.js`;
  if (!existsSync(here(built))) throw new Error('dist/ is missing: run `npm run build` first');
  const info = machine();
  const loadBefore = loadavg()[0] ?? 0;
  if (loadBefore > 0.5)
    process.stderr.write(
      `${suite}: warning: 1-min load average is ${loadBefore.toFixed(2)} before starting; numbers will be noisy\n`,
    );

  /** @type {import('./lib/report.js').BenchResult[]} */
  const results = [];
  /** The 1-min load average before and after each bench (the suite may run for many minutes). */
  const loads = /** @type {Record<string, { before: number, after: number }>} */ ({});
  for (const name of scripts) {
    process.stderr.write(`${suite}: running ${name}…\n`);
    const before = loadavg()[0] ?? 0;
    const result = /** @type {import('./lib/report.js').BenchResult} */ (
      await runBench(here(`./${dir}/${name}.js`))
    );
    loads[result.name] = { before, after: loadavg()[0] ?? 0 };
    results.push(result);
    process.stdout.write(`\n## ${result.title}\n\n${result.tables.join('\n\n')}\n`);
  }
  const loadAfter = loadavg()[0] ?? 0;

  mkdirSync(here('./results'), { recursive: true });
  const raw = {
    suite,
    machine: info,
    loadAverage: { before: loadBefore, after: loadAfter, perBench: loads },
    benches: Object.fromEntries(results.map((r) => [r.name, r.data])),
  };
  writeFileSync(here(`./results/${suite}.json`), `${JSON.stringify(raw, null, 2)}\n`);

  const header = `Run of ${info.date.slice(0, 10)} · Node ${info.node} · ${info.cpu} · ${info.cores} cores · ${info.platform} · git ${info.git.commit} + ${info.git.changedPaths} changed paths (the working tree was built) · 1-min load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after. Raw numbers: [results/${suite}.json](results/${suite}.json).`;
  const sections = results.map((r) => {
    const load = loads[r.name];
    const loadLine = load
      ? `1-min load average ${load.before.toFixed(2)} before this bench, ${load.after.toFixed(2)} after.\n\n`
      : '';
    return `### ${r.title}\n\n${loadLine}${r.tables.join('\n\n')}`;
  });
  const readmePath = here('./README.md');
  writeFileSync(
    readmePath,
    replaceSection(readFileSync(readmePath, 'utf8'), [header, ...sections].join('\n\n')),
  );
  process.stderr.write(
    `${suite}: wrote bench/results/${suite}.json and the ${suite} section of bench/README.md\n`,
  );
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
