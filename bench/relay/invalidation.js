// @ts-check
/**
 * Invalidation on a 100,000-edge reasoning graph (CRP-030 §3.2): the relay's indexed propagation
 * (`DependencyIndex.invalidate`, a breadth-first walk over reverse adjacency) against the §3.2
 * edge-scan algorithm as the spec writes it (`invalidateByEdgeScan`: every edge scanned for each
 * dequeued id), in the same run, on the same seeded graph.
 *
 * Ground truth comes from the generator's own edge list by a different algorithm (one sweep in
 * topological order, `dependentsBySweep`); both sides must return exactly that set for every root
 * before anything is timed. Timing: per root and round, the edge scan runs once and the indexed walk
 * is repeated until ~1 ms has passed (its time is the mean of those calls); the order alternates root
 * by root; the ratio is per root and round (scan ÷ indexed), reported as the median with its IQR.
 * Building the index (what a window pays once, from the CSO's edge list) is timed on its own.
 */
import { DependencyIndex, invalidateByEdgeScan } from 'canonry/relay';
import { Rng } from '../canon/lib/rng.js';
import { fmtInt, median, progress, quantile } from '../lib/measure.js';
import { fmtRatio, fmtSpread, runIfMain, table } from '../lib/report.js';
import { dependenciesOf, dependentsBySweep, layeredDag } from './lib/dag.js';

const SCOPE = 'relay/invalidation';
const EDGES = 100_000;
const ROUNDS = process.env.BENCH_QUICK ? 1 : 7;
/** Roots per kind of node (hubs: every one of the 50 is a candidate). */
const PER_KIND = 40;
const INDEXED_MS = 1;

/** @param {number[]} xs */
const iqr = (xs) => /** @type {[number, number]} */ ([quantile(xs, 0.25), quantile(xs, 0.75)]);

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const t0 = performance.now();
  const g = layeredDag(30, EDGES);
  progress(
    SCOPE,
    `graph: ${fmtInt(g.nodes.length)} nodes, ${fmtInt(g.edges.length)} edges (${(performance.now() - t0).toFixed(0)} ms)`,
  );
  const deps = dependenciesOf(g.edges);
  const rng = new Rng(31);
  /** @type {Record<string, string[]>} */
  const pools = {};
  for (const n of g.nodes) {
    pools[n.kind] ??= [];
    pools[n.kind]?.push(n.id);
  }
  /** @type {{ id: string, kind: string }[]} */
  const roots = [];
  for (const [kind, ids] of Object.entries(pools)) {
    for (const id of rng.shuffle(ids).slice(0, PER_KIND)) roots.push({ id, kind });
  }
  const cso = { dependency_graph: g.edges };

  /** @type {number[]} */
  const builds = [];
  let index = DependencyIndex.fromEdges(g.edges);
  for (let i = 0; i < 5; i++) {
    const b0 = performance.now();
    index = DependencyIndex.fromEdges(g.edges);
    builds.push(performance.now() - b0);
  }
  progress(SCOPE, `index built from the edge list: ${median(builds).toFixed(1)} ms (median of 5)`);

  // Accuracy: both sides against the generator's ground truth, every root.
  let indexedExact = 0;
  let scanExact = 0;
  /** @type {Map<string, number>} */
  const sizeOf = new Map();
  for (const root of roots) {
    const truth = dependentsBySweep(g.nodes, deps, root.id);
    sizeOf.set(root.id, truth.size);
    const got = index.invalidate([root.id]).map((a) => a.id);
    if (got.length === truth.size && got.every((id) => truth.has(id))) indexedExact++;
    const scanned = invalidateByEdgeScan(cso, root.id);
    if (scanned.size === truth.size && [...scanned].every((id) => truth.has(id))) scanExact++;
  }
  progress(
    SCOPE,
    `ground truth: indexed exact on ${indexedExact}/${roots.length} roots, edge scan on ${scanExact}/${roots.length}`,
  );
  if (indexedExact !== roots.length || scanExact !== roots.length)
    throw new Error('a side disagrees with the ground truth');

  /** @type {number[]} */
  const ratios = [];
  /** @type {Record<string, { indexed: number[], scan: number[], ratios: number[] }>} */
  const perKind = {};
  /** @type {Map<string, number>} */
  const reps = new Map();
  for (const root of roots) {
    let n = 1;
    for (;;) {
      const a = performance.now();
      for (let i = 0; i < n; i++) index.invalidate([root.id]);
      if (performance.now() - a >= INDEXED_MS / 4 || n >= 1 << 16) break;
      n *= 2;
    }
    reps.set(root.id, n * 4);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, root] of roots.entries()) {
      const n = /** @type {number} */ (reps.get(root.id));
      const timeIndexed = () => {
        const a = performance.now();
        for (let k = 0; k < n; k++) index.invalidate([root.id]);
        return (performance.now() - a) / n;
      };
      const timeScan = () => {
        const a = performance.now();
        invalidateByEdgeScan(cso, root.id);
        return performance.now() - a;
      };
      let x = 0;
      let s = 0;
      if ((round + i) % 2 === 0) {
        x = timeIndexed();
        s = timeScan();
      } else {
        s = timeScan();
        x = timeIndexed();
      }
      ratios.push(s / x);
      perKind[root.kind] ??= { indexed: [], scan: [], ratios: [] };
      const k = /** @type {{ indexed: number[], scan: number[], ratios: number[] }} */ (
        perKind[root.kind]
      );
      k.indexed.push(x);
      k.scan.push(s);
      k.ratios.push(s / x);
    }
    progress(
      SCOPE,
      `round ${round + 1}/${ROUNDS}: median scan ÷ indexed so far ${median(ratios).toFixed(0)}×`,
    );
  }
  const allIdx = Object.values(perKind).flatMap((k) => k.indexed);
  const allScan = Object.values(perKind).flatMap((k) => k.scan);
  const sizes = roots.map((r) => /** @type {number} */ (sizeOf.get(r.id)));
  const buildMs = median(builds);
  const withBuild = allScan.map((s, i) => s / /** @type {number} */ (allIdx[i] + buildMs));
  const kindSize = (/** @type {string} */ kind) =>
    median(
      roots.filter((r) => r.kind === kind).map((r) => /** @type {number} */ (sizeOf.get(r.id))),
    );
  const us = (/** @type {number} */ ms) => (ms * 1000).toFixed(1);
  return {
    name: 'invalidation',
    title:
      'Invalidation on a 100,000-edge reasoning graph: indexed propagation vs the §3.2 edge scan',
    tables: [
      table(
        ['graph (seeded)', 'value'],
        [
          ['nodes / edges', `${fmtInt(g.nodes.length)} / ${fmtInt(g.edges.length)}`],
          [`roots invalidated (${Object.keys(pools).length} kinds × ≤ ${PER_KIND})`, roots.length],
          [
            'dependents per root (median, p90, max)',
            `${median(sizes)}, ${quantile(sizes, 0.9).toFixed(0)}, ${Math.max(...sizes)}`,
          ],
          [
            'exact set vs ground truth: indexed / edge scan',
            `${indexedExact} / ${scanExact} of ${roots.length}`,
          ],
          ['building the index from the edge list (median of 5)', `${buildMs.toFixed(1)} ms`],
        ],
      ),
      table(
        [
          'invalidated root',
          'dependents (median)',
          'indexed µs (median)',
          'edge scan ms (median)',
          'scan ÷ indexed (IQR)',
        ],
        [
          ...Object.entries(perKind).map(([kind, k]) => [
            kind,
            kindSize(kind),
            us(median(k.indexed)),
            median(k.scan).toFixed(2),
            `${fmtRatio(median(k.ratios))} (${fmtSpread(iqr(k.ratios))})`,
          ]),
          [
            `all (per root and round, ${ROUNDS} rounds)`,
            median(sizes),
            us(median(allIdx)),
            median(allScan).toFixed(2),
            `**${fmtRatio(median(ratios))}** (${fmtSpread(iqr(ratios))})`,
          ],
          [
            'all, index built per invalidation',
            median(sizes),
            us(median(allIdx) + buildMs),
            median(allScan).toFixed(2),
            `${fmtRatio(median(withBuild))} (${fmtSpread(iqr(withBuild))})`,
          ],
        ],
      ),
    ],
    data: {
      nodes: g.nodes.length,
      edges: g.edges.length,
      roots: roots.length,
      rounds: ROUNDS,
      indexedExact,
      scanExact,
      dependents: { median: median(sizes), p90: quantile(sizes, 0.9), max: Math.max(...sizes) },
      buildMs,
      ratioMedian: median(ratios),
      ratioIqr: iqr(ratios),
      indexedMsMedian: median(allIdx),
      indexedMsIqr: iqr(allIdx),
      scanMsMedian: median(allScan),
      scanMsIqr: iqr(allScan),
      withBuildRatioMedian: median(withBuild),
      perKind: Object.fromEntries(
        Object.entries(perKind).map(([k, v]) => [
          k,
          {
            dependents: kindSize(k),
            indexedMs: median(v.indexed),
            scanMs: median(v.scan),
            ratio: median(v.ratios),
            ratioIqr: iqr(v.ratios),
          },
        ]),
      ),
    },
  };
}

runIfMain(import.meta.url, main);
