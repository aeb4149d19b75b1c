// @ts-check
/**
 * What canonry costs a user before it does anything: `node bench/package/footprint.js [--install]`.
 *
 * - Import: each subpath (`canonry/kernel`, `canonry/core`, `canonry/store`, `canonry`) is imported
 *   in a fresh Node process, 7 times; the median wall time of the import and the process's resident
 *   memory after it, beside a process that imports nothing (the baseline), and which of the heavy
 *   packages (the tokenizer, the SQLite and PostgreSQL drivers) the import loaded.
 * - Install (`--install`): `npm pack`s the built package and resolves a fresh project that depends
 *   on it (`npm install --package-lock-only`: the registry's metadata, no download, no native
 *   build), counting the packages npm would install — by default and with `--omit=optional` (no
 *   store drivers: what a kernel-only user needs).
 *
 * Needs `npm run build` first. Prints markdown; `--json` prints the raw figures.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = 7;
const HEAVY = ['gpt-tokenizer', 'better-sqlite3', 'pg'];
const SUBPATHS = [null, 'canonry/kernel', 'canonry/core', 'canonry/store', 'canonry'];

// Runs inside the child: the import, timed, then RSS and the CommonJS packages it loaded.
const PROBE = `
import { createRequire } from 'node:module';
const target = process.argv[1];
const started = process.hrtime.bigint();
if (target !== 'none') await import(target);
const ms = Number(process.hrtime.bigint() - started) / 1e6;
const cache = Object.keys(createRequire(import.meta.url).cache);
const loaded = ${JSON.stringify(HEAVY)}.filter((p) => cache.some((f) => f.includes('/node_modules/' + p + '/')));
console.log(JSON.stringify({ ms, rss: process.memoryUsage().rss, loaded }));
`;

/** @param {number[]} xs */
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** @param {string | null} subpath */
function importCost(subpath) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', PROBE, subpath ?? 'none'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    runs.push(JSON.parse(out));
  }
  return {
    subpath: subpath ?? '(nothing)',
    ms: median(runs.map((r) => r.ms)),
    rssMb: median(runs.map((r) => r.rss)) / 1e6,
    loaded: runs[0].loaded,
  };
}

/** Packages npm would install for a project depending on the packed tarball. */
function installCount() {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-footprint-'));
  try {
    const packed = execFileSync(
      'npm',
      ['pack', '--ignore-scripts', '--json', '--pack-destination', dir],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    const tarball = join(dir, JSON.parse(packed)[0].filename);
    const npm = (/** @type {string[]} */ args) => {
      rmSync(join(dir, 'package-lock.json'), { force: true });
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'footprint', private: true }),
      );
      const run = spawnSync(
        'npm',
        ['install', '--package-lock-only', '--no-audit', '--no-fund', tarball, ...args],
        { cwd: dir, encoding: 'utf8' },
      );
      if (run.status !== 0) throw new Error(`npm install ${args.join(' ')} failed: ${run.stderr}`);
      const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
      const entries = Object.entries(lock.packages).filter(([path]) =>
        path.startsWith('node_modules/'),
      );
      // --package-lock-only still records optional packages; --omit leaves them out of the install.
      const installed = entries.filter(([, meta]) =>
        args.includes('--omit=optional') ? !meta.optional : true,
      );
      return {
        packages: installed.length - 1, // canonry itself is not a dependency
        native: installed.filter(([path]) => path.endsWith('/better-sqlite3')).length > 0,
      };
    };
    return {
      default: npm([]),
      omitOptional: npm(['--omit=optional']),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const imports = SUBPATHS.map(importCost);
const install = process.argv.includes('--install') ? installCount() : null;
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ imports, install }, null, 2));
} else {
  const base = imports[0];
  console.log(
    '| import | time (median of 7) | RSS after | over an empty process | heavy packages loaded |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of imports) {
    console.log(
      `| \`${r.subpath}\` | ${r.ms.toFixed(0)} ms | ${r.rssMb.toFixed(0)} MB | +${(r.rssMb - base.rssMb).toFixed(0)} MB | ${r.loaded.join(', ') || 'none'} |`,
    );
  }
  if (install) {
    console.log('\n| `npm install canonry` | packages | better-sqlite3 (native) |');
    console.log('| --- | --- | --- |');
    for (const [name, r] of Object.entries(install)) {
      console.log(`| ${name} | ${r.packages} | ${r.native ? 'yes' : 'no'} |`);
    }
  }
}
