// @ts-check
/**
 * Summarises a V8 CPU profile: the functions with the most self time and the most inclusive time.
 * Usage: node bench/tools/profile-top.js <file.cpuprofile | dir> [rows]
 * Make one with `node --cpu-prof --cpu-prof-dir=/tmp/prof bench/kernel/verdicts.js`, or for the
 * HTTP servers with `CANONRY_BENCH_PROFILE=/tmp/prof node bench/kernel/http.js`.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const [target, rowsArg = '25'] = process.argv.slice(2);
if (!target) throw new Error('usage: profile-top.js <file.cpuprofile | dir> [rows]');
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
  : [target];
const rows = Number(rowsArg);

/** @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode */

for (const file of files) {
  /** @type {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} */
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const name = (/** @type {ProfileNode} */ n) =>
    `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}`;
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const inclusive = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const leaf = /** @type {ProfileNode} */ (byId.get(id));
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
    const seen = new Set();
    for (let at = /** @type {number | undefined} */ (id); at !== undefined; at = parent.get(at)) {
      const key = name(/** @type {ProfileNode} */ (byId.get(at)));
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + dt);
      seen.add(key);
    }
  });
  const top = (/** @type {Map<string, number>} */ m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(6)} %  ${k}`);
  process.stdout.write(
    `# ${file} (${(total / 1e6).toFixed(1)} s sampled)\n\n## self time\n${top(self).join('\n')}\n\n## inclusive time\n${top(inclusive).join('\n')}\n\n`,
  );
}
