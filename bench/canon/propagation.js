// @ts-check
/**
 * Cascade propagation on a generated project with 100,000 dependency edges (CRP-030 §3, LCSM §10):
 * canon's indexed cascade (`cascade` over `canon_edges`, both directions indexed) against a full
 * scan — what canon did before the graph: read every object (and every artifact input) and filter
 * on `dependency_refs`, once per level of the cascade — in the same run, on the same SQLite file.
 *
 * The project is built through canon's own projection: one `canon.commit` journal entry per note
 * (dependencies pinned to exact versions) and one `canon.artifact` entry per artifact, appended in
 * batches, so the edges are what canonry writes. The structures: 4,000 chains of depth 5, 4,000
 * diamonds (root → two sides → join → tail), 20 hubs with 500 direct dependents each, 15,000 notes
 * resting on two random notes of those structures, and 20,000 artifacts built on one random note.
 *
 * Ground truth is the generator's own: the transitive dependents of a root (and each one's shortest
 * depth) by breadth-first search over the edge list it generated, never from canonry's answer.
 * Recall = dependents flagged that should be / dependents that should be; precision = flagged that
 * should be / flagged; both over a sample of 400 moved roots of every structure. Timing: 64 roots;
 * each round moves each root once per side in alternating order; the ratio is per root and round
 * (scan ms ÷ indexed ms), reported as a median with its IQR.
 */

import { join } from 'node:path';
import { CANON_MIGRATIONS, CANON_PROJECTION, cascade, commitView } from 'canonry/canon';
import { contentHash } from 'canonry/core';
import { JOURNAL_MIGRATIONS, Journal } from 'canonry/journal';
import { migrate, SqliteStore } from 'canonry/store';
import { tempDir } from '../lib/journal-data.js';
import { fmtInt, median, progress, quantile } from '../lib/measure.js';
import { fmtRatio, fmtSpread, runIfMain, table } from '../lib/report.js';
import { Rng } from './lib/rng.js';

const SCOPE = 'canon/propagation';
const PROJECT = 'graph';
const ROUNDS = process.env.BENCH_QUICK ? 1 : 3;
const TIMED_ROOTS = 64;
const CHECKED_ROOTS = 400;
const BATCH = 2_000;
const AT = '2026-12-01T00:00:00.000Z';
const PROTOCOL = contentHash('bench-protocol');

/**
 * The generated graph: notes in dependency order (each after what it rests on), artifacts, and
 * every edge `[dependent, dependency]`. Notes are `n…`, artifacts `a…`: one namespace, no clash.
 */
function generate() {
  const rng = new Rng(12);
  /** @type {{ id: string, deps: string[], kind: string }[]} */
  const notes = [];
  /** @type {{ id: string, on: string }[]} */
  const artifacts = [];
  const add = (
    /** @type {string} */ id,
    /** @type {string[]} */ deps,
    /** @type {string} */ kind,
  ) => notes.push({ id, deps, kind });
  for (let c = 0; c < 4_000; c++) {
    for (let d = 0; d <= 5; d++)
      add(
        `n.chain${c}.${d}`,
        d === 0 ? [] : [`n.chain${c}.${d - 1}`],
        d === 0 ? 'chain root' : 'chain',
      );
  }
  for (let k = 0; k < 4_000; k++) {
    const p = `n.diamond${k}`;
    add(`${p}.root`, [], 'diamond root');
    add(`${p}.left`, [`${p}.root`], 'diamond');
    add(`${p}.right`, [`${p}.root`], 'diamond');
    add(`${p}.join`, [`${p}.left`, `${p}.right`], 'diamond');
    add(`${p}.tail`, [`${p}.join`], 'diamond');
  }
  for (let h = 0; h < 20; h++) {
    add(`n.hub${h}`, [], 'hub');
    for (let f = 0; f < 500; f++) add(`n.hub${h}.fan${f}`, [`n.hub${h}`], 'fan');
  }
  const structural = notes.map((n) => n.id);
  for (let r = 0; r < 15_000; r++) {
    const a = rng.pick(structural);
    let b = rng.pick(structural);
    while (b === a) b = rng.pick(structural);
    add(`n.rest${r}`, [a, b].sort(), 'resting');
  }
  const all = notes.map((n) => n.id);
  for (let a = 0; a < 20_000; a++) artifacts.push({ id: `a.art${a}`, on: rng.pick(all) });
  /** @type {[string, string][]} */
  const edges = [
    ...notes.flatMap((n) => n.deps.map((d) => /** @type {[string, string]} */ ([n.id, d]))),
    ...artifacts.map((a) => /** @type {[string, string]} */ ([a.id, a.on])),
  ];
  return { notes, artifacts, edges };
}

/** Every transitive dependent of `root` with its shortest depth, from the generator's edge list. */
function truthOf(/** @type {Map<string, string[]>} */ into, /** @type {string} */ root) {
  const depth = new Map();
  let frontier = [root];
  for (let d = 1; frontier.length > 0; d++) {
    const next = [];
    for (const id of frontier) {
      for (const dep of into.get(id) ?? []) {
        if (dep === root || depth.has(dep)) continue;
        depth.set(dep, d);
        next.push(dep);
      }
    }
    frontier = next;
  }
  return depth;
}

/** The v1 a note's commit appends, hashed as canon hashes versions. */
function versionOf(
  /** @type {string} */ id,
  /** @type {number} */ n,
  /** @type {string} */ text,
  /** @type {{ object_id: string, version_hash: string }[]} */ pins,
  /** @type {string | null} */ parent,
) {
  const content = {
    object_type: 'decision',
    title: id,
    text,
    shape: null,
    confidence_state: 'asserted',
    status: 'active',
    visibility: 'project',
    sources: [],
    dependency_refs: pins.map((p) => p.object_id),
    ...(pins.length > 0 ? { dependency_versions: pins } : {}),
    effective_from: null,
    effective_until: null,
    tags: [],
  };
  const unhashed = {
    note_id: id,
    version_id: n,
    parent_version_hash: parent,
    content,
    shape: null,
    sources: [],
    actor: 'bench',
    authority: {
      proposer: { id: 'bench', role: 'owner' },
      approver: null,
      gate: 'AUTO_COMMIT',
      gate_event: null,
      proposal_id: `prop_${id}`,
    },
    timestamp: AT,
  };
  return { ...unhashed, version_hash: contentHash(unhashed) };
}

function commitEntry(/** @type {ReturnType<typeof versionOf>} */ version) {
  const principal = { id: 'bench', role: 'owner', project: PROJECT };
  return {
    kind: 'canon.commit',
    actor: 'bench',
    authority: { principal: 'bench', role: 'owner', project: PROJECT },
    body: /** @type {any} */ ({
      proposal_id: `prop_${version.note_id}`,
      version,
      supersedes: [],
      stale_artifacts: [],
      operation: {
        operation_id: `op_${version.note_id}`,
        operation_type: 'create',
        target_object: version.note_id,
        prior_version: null,
        candidate_version: version.version_hash,
        acting_actor: 'bench',
        authority_basis: { proposer: principal, approver: null },
        source_refs: [],
        policy_result: { label: 'AUTO_COMMIT', event_hash: null, protocol_hash: PROTOCOL },
        timestamp: AT,
        correlation_id: `prop_${version.note_id}`,
      },
    }),
  };
}

/** Builds the project through canon's projection; returns each note's v1 (for moving it). */
async function build(/** @type {Journal} */ journal, /** @type {ReturnType<typeof generate>} */ g) {
  /** @type {Map<string, ReturnType<typeof versionOf>>} */
  const v1 = new Map();
  const start = performance.now();
  /** @type {any[]} */
  let batch = [];
  let done = 0;
  const flush = async () => {
    if (batch.length > 0) await journal.appendAll(PROJECT, batch);
    done += batch.length;
    batch = [];
    if (done % 10_000 === 0)
      progress(
        SCOPE,
        `build: ${fmtInt(done)} entries, ${((performance.now() - start) / 1000).toFixed(0)} s`,
      );
  };
  for (const n of g.notes) {
    const pins = n.deps.map((d) => ({
      object_id: d,
      version_hash: /** @type {any} */ (v1.get(d)).version_hash,
    }));
    const version = versionOf(n.id, 1, `${n.id} holds.`, pins, null);
    v1.set(n.id, version);
    batch.push(commitEntry(version));
    if (batch.length === BATCH) await flush();
  }
  for (const a of g.artifacts) {
    batch.push({
      kind: 'canon.artifact',
      actor: 'bench',
      authority: { principal: 'bench', role: 'owner', project: PROJECT },
      body: {
        manifest: {
          artifact_id: a.id,
          artifact_version: 1,
          title: a.id,
          input_refs: [],
          canonical_note_versions: [
            { object_id: a.on, version_hash: /** @type {any} */ (v1.get(a.on)).version_hash },
          ],
          tool_or_model_refs: [],
          output_digest: contentHash(a.id),
          verification_refs: [],
          acceptance_state: 'proposed',
        },
        by: { id: 'bench', role: 'owner', project: PROJECT },
      },
    });
    if (batch.length === BATCH) await flush();
  }
  await flush();
  return { v1, seconds: (performance.now() - start) / 1000 };
}

/** What canon did before the graph: per level, read every object and artifact input and filter. */
async function fullScan(/** @type {SqliteStore} */ store, /** @type {string} */ root) {
  /** @type {Set<string>} */
  const reached = new Set();
  let frontier = new Set([root]);
  while (frontier.size > 0) {
    const objects = await store.all(
      'SELECT record FROM canon_objects WHERE project = $1 ORDER BY object_id',
      [PROJECT],
    );
    const inputs = await store.all(
      'SELECT artifact_id, object_id FROM canon_artifact_inputs WHERE project = $1',
      [PROJECT],
    );
    /** @type {Set<string>} */
    const next = new Set();
    for (const row of objects) {
      const o = JSON.parse(/** @type {any} */ (row).record);
      if (
        o.status === 'superseded' ||
        o.status === 'retired' ||
        o.object_id === root ||
        reached.has(o.object_id)
      )
        continue;
      if (o.dependency_refs.some((/** @type {string} */ d) => frontier.has(d))) {
        reached.add(o.object_id);
        next.add(o.object_id);
      }
    }
    for (const r of /** @type {any[]} */ (inputs))
      if (frontier.has(r.object_id)) reached.add(r.artifact_id);
    frontier = next;
  }
  return reached;
}

/** Canon's cascade for moving `root` to a v2 with another statement (its view, then the cascade). */
async function indexed(
  /** @type {SqliteStore} */ store,
  /** @type {ReturnType<typeof versionOf>} */ v1,
) {
  const v2 = versionOf(v1.note_id, 2, `${v1.note_id} moved.`, [], v1.version_hash);
  const view = await commitView(store, PROJECT, /** @type {any} */ (v2), [], 'update');
  return cascade(store, PROJECT, view);
}

async function main() {
  const { dir, remove } = tempDir('propagation');
  try {
    const g = generate();
    progress(
      SCOPE,
      `generated ${fmtInt(g.notes.length)} notes, ${fmtInt(g.artifacts.length)} artifacts, ${fmtInt(g.edges.length)} edges`,
    );
    const store = new SqliteStore(join(dir, 'graph.db'));
    await migrate(store, { journal: JOURNAL_MIGRATIONS, canon: CANON_MIGRATIONS });
    const journal = new Journal(store, { projections: [CANON_PROJECTION] });
    const built = await build(journal, g);
    const [{ n: edgeRows }] = /** @type {any[]} */ (
      await store.all('SELECT COUNT(*) AS n FROM canon_edges WHERE project = $1', [PROJECT])
    );
    progress(
      SCOPE,
      `built through the projection in ${built.seconds.toFixed(1)} s; canon_edges holds ${fmtInt(Number(edgeRows))} rows`,
    );
    if (Number(edgeRows) !== g.edges.length)
      throw new Error(
        `canon_edges has ${edgeRows} rows, the generator made ${g.edges.length} edges`,
      );

    /** @type {Map<string, string[]>} */
    const into = new Map();
    for (const [from, to] of g.edges) into.set(to, [...(into.get(to) ?? []), from]);
    const rng = new Rng(99);
    const byKind = (/** @type {string} */ kind) =>
      g.notes.filter((n) => n.kind === kind).map((n) => n.id);
    const pools = {
      'chain root': byKind('chain root'),
      'diamond root': byKind('diamond root'),
      hub: byKind('hub'),
      'mid-chain': byKind('chain'),
      'diamond side': byKind('diamond'),
    };
    /** @type {{ id: string, kind: string }[]} */
    const checked = [];
    const kinds = Object.keys(pools);
    for (let i = 0; i < CHECKED_ROOTS; i++) {
      const kind = /** @type {keyof typeof pools} */ (kinds[i % kinds.length]);
      checked.push({ id: rng.pick(pools[kind]), kind });
    }

    // Accuracy against the generator's ground truth.
    let truthTotal = 0;
    let flaggedTotal = 0;
    let hits = 0;
    let depthRight = 0;
    let scanAgrees = 0;
    /** @type {number[]} */
    const sizes = [];
    for (const root of checked) {
      const truth = truthOf(into, root.id);
      const states = await indexed(store, /** @type {any} */ (built.v1.get(root.id)));
      const flagged = new Map(states.map((s) => [s.id, s.depth]));
      truthTotal += truth.size;
      flaggedTotal += flagged.size;
      sizes.push(truth.size);
      for (const [id, depth] of flagged) {
        if (truth.has(id)) {
          hits++;
          if (truth.get(id) === depth) depthRight++;
        }
      }
    }
    const recall = hits / truthTotal;
    const precision = flaggedTotal === 0 ? 1 : hits / flaggedTotal;
    progress(
      SCOPE,
      `accuracy over ${checked.length} roots: recall ${(recall * 100).toFixed(2)} %, precision ${(precision * 100).toFixed(2)} %`,
    );

    // Timing: each root moved once per side per round, the order alternating.
    const timed = checked.slice(0, TIMED_ROOTS);
    /** @type {number[]} */
    const ratios = [];
    /** @type {Record<string, { indexed: number[], scan: number[] }>} */
    const perKind = {};
    const time = async (/** @type {() => Promise<unknown>} */ fn) => {
      const t0 = performance.now();
      await fn();
      return performance.now() - t0;
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, root] of timed.entries()) {
        const v1 = /** @type {any} */ (built.v1.get(root.id));
        const first = (round + i) % 2 === 0;
        let a = 0;
        let b = 0;
        /** @type {Set<string>} */
        let scanned = new Set();
        const scanOnce = async () => {
          scanned = await fullScan(store, root.id);
        };
        if (first) {
          a = await time(() => indexed(store, v1));
          b = await time(scanOnce);
        } else {
          b = await time(scanOnce);
          a = await time(() => indexed(store, v1));
        }
        if (round === 0) {
          const truth = truthOf(into, root.id);
          if (scanned.size === truth.size && [...scanned].every((id) => truth.has(id)))
            scanAgrees++;
        }
        ratios.push(b / a);
        perKind[root.kind] ??= { indexed: [], scan: [] };
        perKind[root.kind]?.indexed.push(a);
        perKind[root.kind]?.scan.push(b);
      }
      progress(
        SCOPE,
        `round ${round + 1}/${ROUNDS}: median ratio so far ${median(ratios).toFixed(1)}×`,
      );
    }
    const spread = /** @type {[number, number]} */ ([
      quantile(ratios, 0.25),
      quantile(ratios, 0.75),
    ]);
    const all = Object.values(perKind);
    const idx = all.flatMap((k) => k.indexed);
    const scan = all.flatMap((k) => k.scan);
    const sizeOf = (/** @type {string} */ kind) =>
      median(checked.filter((c) => c.kind === kind).map((c) => truthOf(into, c.id).size));
    return {
      name: 'propagation',
      title: 'Cascade propagation on a 100,000-edge project: indexed cascade vs full scan',
      tables: [
        table(
          ['graph', 'value'],
          [
            [
              'notes / artifacts / edges',
              `${fmtInt(g.notes.length)} / ${fmtInt(g.artifacts.length)} / ${fmtInt(g.edges.length)}`,
            ],
            [
              'built through the projection',
              `${built.seconds.toFixed(1)} s (${fmtInt((g.notes.length + g.artifacts.length) / built.seconds)} entries/s)`,
            ],
            [
              'dependents per moved root (median, p90, max)',
              `${median(sizes)}, ${quantile(sizes, 0.9)}, ${Math.max(...sizes)}`,
            ],
          ],
        ),
        table(
          ['accuracy (400 moved roots, ground truth from the generator)', 'value'],
          [
            [
              'cascade recall',
              `${(recall * 100).toFixed(2)} % (${fmtInt(hits)} / ${fmtInt(truthTotal)})`,
            ],
            [
              'cascade precision',
              `${(precision * 100).toFixed(2)} % (${fmtInt(hits)} / ${fmtInt(flaggedTotal)})`,
            ],
            [
              'flagged at the shortest depth',
              `${((depthRight / Math.max(1, hits)) * 100).toFixed(2)} %`,
            ],
            ['full scan finds the same set (timed roots)', `${scanAgrees} / ${TIMED_ROOTS} roots`],
          ],
        ),
        table(
          [
            'moved root',
            'dependents (median)',
            'indexed ms (median)',
            'full scan ms (median)',
            'scan ÷ indexed',
          ],
          [
            ...Object.entries(perKind).map(([kind, k]) => [
              kind,
              sizeOf(kind),
              median(k.indexed).toFixed(2),
              median(k.scan).toFixed(1),
              fmtRatio(median(k.scan) / median(k.indexed)),
            ]),
            [
              'all (per root and round)',
              median(sizes),
              median(idx).toFixed(2),
              median(scan).toFixed(1),
              `${fmtRatio(median(ratios))} (${fmtSpread(spread)})`,
            ],
          ],
        ),
      ],
      data: {
        notes: g.notes.length,
        artifacts: g.artifacts.length,
        edges: g.edges.length,
        buildSeconds: built.seconds,
        recall,
        precision,
        depthAgreement: depthRight / Math.max(1, hits),
        scanAgrees,
        checkedRoots: checked.length,
        timedRoots: timed.length,
        rounds: ROUNDS,
        ratioMedian: median(ratios),
        ratioIqr: spread,
        indexedMsMedian: median(idx),
        scanMsMedian: median(scan),
        perKind: Object.fromEntries(
          Object.entries(perKind).map(([k, v]) => [
            k,
            { indexedMs: median(v.indexed), scanMs: median(v.scan), dependents: sizeOf(k) },
          ]),
        ),
      },
    };
  } finally {
    remove();
  }
}

runIfMain(import.meta.url, main);
