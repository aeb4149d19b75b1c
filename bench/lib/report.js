// @ts-check
/** Tables, machine info and the entry-point convention shared by the bench scripts. */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';

/**
 * What every bench script returns (and prints as JSON with `--json`).
 * @typedef {{ name: string, title: string, tables: string[], data: Record<string, unknown> }} BenchResult
 */

/**
 * A markdown table padded the way the repo's formatter (Biome) prints one: the first column left
 * aligned, the others right aligned. @param {string[]} head @param {(string | number)[][]} rows
 */
export function table(head, rows) {
  const cells = [head, ...rows].map((row) => row.map(String));
  const width = head.map((_, c) => Math.max(3, ...cells.map((row) => [...(row[c] ?? '')].length)));
  const pad = (/** @type {string} */ text, /** @type {number} */ c) => {
    const fill = ' '.repeat((width[c] ?? 0) - [...text].length);
    return c === 0 ? text + fill : fill + text;
  };
  const line = (/** @type {string[]} */ row) => `| ${row.map(pad).join(' | ')} |`;
  const rule = width.map((w, c) => (c === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`));
  const [first, ...rest] = cells;
  return [line(/** @type {string[]} */ (first)), `| ${rule.join(' | ')} |`, ...rest.map(line)].join(
    '\n',
  );
}

/** 0.8312 → "0.83×". @param {number} r */
export const fmtRatio = (r) => `${r.toFixed(2)}×`;

/** The commit measured and how many paths differ from it (the build is of the working tree). */
function gitState() {
  try {
    const git = (/** @type {string[]} */ ...args) =>
      execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const changed = git('status', '--porcelain').split('\n').filter(Boolean).length;
    return { commit: git('rev-parse', '--short', 'HEAD'), changedPaths: changed };
  } catch {
    return { commit: 'unknown', changedPaths: -1 };
  }
}

/** [0.75, 0.86] → "IQR 0.75–0.86". @param {[number, number]} range */
export const fmtSpread = ([lo, hi]) => `IQR ${lo.toFixed(2)}–${hi.toFixed(2)}`;

/** Node version, CPU model, cores, date, git state. */
export function machine() {
  const list = cpus();
  return {
    git: gitState(),
    node: process.version,
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    platform: `${process.platform}/${process.arch}`,
    date: new Date().toISOString(),
  };
}

/**
 * Runs `main` when the module is the entry point: `--json` prints the result as JSON (for
 * bench/run.js), otherwise its tables as markdown. Progress always goes to stderr.
 * @param {string} moduleUrl @param {() => Promise<BenchResult>} main
 */
export function runIfMain(moduleUrl, main) {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main().then(
    (result) => {
      const text = process.argv.includes('--json')
        ? JSON.stringify(result)
        : `## ${result.title}\n\n${result.tables.join('\n\n')}\n`;
      process.stdout.write(`${text}\n`);
    },
    (error) => {
      process.stderr.write(`${error?.stack ?? error}\n`);
      process.exit(1);
    },
  );
}
