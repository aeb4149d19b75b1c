// @ts-check
/**
 * One window's relay work on a CSO of 1,000 facts, 500 decisions and 5,000 edges (CRP-030 §11:
 * "low tens of milliseconds"; the issue's target: median under 2 ms).
 *
 * The state is generated (seeded, `lib/cso.js`) and built by four setup windows; the bench then times
 * window 5, whose contribution supersedes one fact with dependents (a DERIVED fact leaves, decisions
 * are flagged), adds ten facts and five decisions, and leaves some prior facts out (verification
 * re-injects them). Two contributions:
 *
 * - "restates 988": the issue's scenario — the window restates almost every fact and drops ten. Only
 *   possible in process: a contribution's lists are capped at 256 items (`CONTRIBUTION_LIMITS`).
 * - "restates 244": what a contribution within the cap can be — 255 facts, so ~750 prior facts are
 *   re-injected by verification every window.
 *
 * Part 1, pure relay work + one journal append (what the target names), timed step by step:
 * `mergeContribution` (which already walks the invalidation), `verifyCso` (verify and repair), the
 * window record's invalidations (`DependencyIndex.of(prior)` and one walk per root, as
 * `completeWindow` builds them), `sealCso` (canonical bytes, HMAC-SHA256, the CSO schema check),
 * `relayHeaders`, and one `journal.append` of the `relay.window` entry (with the context packet's
 * hash and the raw answer a replay needs, deflated: as in `completeWindow`, the deflate starts on a
 * thread of its own before the merge and is taken with the record) to a real SQLite journal
 * (WAL, synchronous=FULL, the relay's entry kinds checked, its projection updated). The journal
 * holds the session's four setup windows and their projection, as a runtime's does; after each
 * sample, untimed, the projection is put back. Checking the
 * untrusted contribution and extracting claims from the window's text are timed too, outside the
 * target's sum. Each prior is rebuilt untimed before its sample; every other sample then ages it
 * (two minor collections, untimed) as the prompt, model call and reply between two windows age it,
 * and the table shows the unaged samples beside them: a young prior is copied by the first
 * collection in the timed window, a cost of the bench's rebuild rather than of the window.
 *
 * Beside each aged sample, just before it, two baselines: a bare INSERT of the window entry's
 * canonical body into a table of its own file + COMMIT (SQLite, WAL, synchronous=FULL: the storage
 * floor of the append), and SHA-256 over the prior's canonical bytes (a CPU probe; the state
 * encoded whole and hashed — what a seal without the digest of digests would cost — is shown for
 * comparison). The append and the pure work are reported as ratios to them, sample by sample.
 *
 * Part 2, the whole `runtime.relay.completeWindow` (the "restates 244" contribution: the public API
 * refuses the other), end to end on a fresh runtime: the same steps plus reading the session, the
 * goal, the canon notes of the window's changes and canon's batch commit of them (gate, cascade,
 * projection) in one transaction with the window record. Each timed window is window 5 of its own
 * session (sessions are built untimed), so every sample does the same work. Part 2 runs on the
 * embedded SQLite store, then on PostgreSQL (`CANONRY_BENCH_PG`, by default the local `test`
 * database, in a schema of its own dropped after) when one is reachable: there every statement of
 * canon's batch is a round trip.
 */
import { join } from 'node:path';
import { DEFAULT_AIR_POLICY, initialAirState } from 'canonry/air';
import { createCanonry } from 'canonry/app';
import { canonicalize, sha256Hex } from 'canonry/core';
import { EntryKinds, JOURNAL_MIGRATIONS, Journal } from 'canonry/journal';
import {
  checkContribution,
  csoBytes,
  csoChange,
  DependencyIndex,
  edgesOf,
  extractFromText,
  goalFor,
  journaledAnswerSoon,
  mergeContribution,
  mergeExtracted,
  RELAY_ENTRY_KINDS,
  RELAY_MIGRATIONS,
  RELAY_PROJECTION,
  RELAY_WINDOW,
  RelayReader,
  relayHeaders,
  sealCso,
  sessionGenesis,
  startDeflateThread,
  verifyCso,
} from 'canonry/relay';
import { migrate, SqliteStore } from 'canonry/store';
import { HmacKeyring } from 'canonry/trust';
import pg from 'pg';
import { collect } from '../lib/gc.js';
import { rawSqlite, tempDir } from '../lib/journal-data.js';
import { fmtInt, median, progress, quantile } from '../lib/measure.js';
import { BENCH_PG, inSchema } from '../lib/postgres.js';
import { runIfMain, table } from '../lib/report.js';
import { generateState, setupContributions, windowContribution } from './lib/cso.js';

const SCOPE = 'relay/window';
const QUICK = Boolean(process.env.BENCH_QUICK);
const WARMUP = QUICK ? 10 : 40;
const SAMPLES = QUICK ? 40 : 300;
const SESSIONS = QUICK ? 4 : 24;
/** Sessions timed on PostgreSQL (each costs ~10× its SQLite setup: canon's batches, statement by statement). */
const PG_SESSIONS = QUICK ? 2 : 6;
const PROJECT = 'bench';
const OBJECTIVE = 'Migrate the platform to the new region';
const REMAINING = ['move the ledger', 'move the search index', 'write the report'];
const OUTPUT = 'Window 5 continues the migration with the corrected figure.';
/** The context packet's hash a window journals (its value does not change the work). */
const PACKET_HASH = `sha256:${'0'.repeat(64)}`;

// A window's prior was built a model call earlier: by the time the window completes, the
// collections that prompt, call and reply allocated for have promoted it to the old generation.
// Built just before a sample, it is young, and the first collection in the timed window would copy
// it — a cost of the bench's untimed rebuild, not of the window. Two minor collections, untimed,
// age it; the other half of the samples are timed without (the table shows both).
const age = () => {
  collect({ type: 'minor' });
  collect({ type: 'minor' });
};

/**
 * What a seal without the digest of digests would cost every window: the whole CSO encoded
 * (RFC 8785) and hashed.
 * @param {object} cso
 */
const wholeStateHash = (cso) => sha256Hex(canonicalize(cso));

/** @param {number[]} xs */
const stats = (xs) => ({
  median: median(xs),
  p90: quantile(xs, 0.9),
  iqr: /** @type {[number, number]} */ ([quantile(xs, 0.25), quantile(xs, 0.75)]),
});
const ms = (/** @type {number} */ x) => x.toFixed(x < 1 ? 3 : 2);
/** A table row of `xs`' median, p90 and IQR, each written by `fmt` (milliseconds by default). */
const row = (
  /** @type {string} */ name,
  /** @type {number[]} */ xs,
  /** @type {(v: number) => string} */ fmt = ms,
) => {
  const s = stats(xs);
  return [name, fmt(s.median), fmt(s.p90), `${fmt(s.iqr[0])}–${fmt(s.iqr[1])}`];
};
const times = (/** @type {number} */ v) => `${v.toFixed(2)}×`;

/** The in-process state after the setup windows: merge, verify, seal, as `completeWindow` does. */
function buildInProcess(
  /** @type {ReturnType<typeof generateState>} */ state,
  /** @type {(b: Uint8Array) => string} */ seal,
) {
  const session_id = 'rs-bench';
  const genesis = sessionGenesis({
    session_id,
    project: PROJECT,
    mode: 'AGENTIC',
    objective: OBJECTIVE,
  });
  /** @type {any} */
  let prior = null;
  /** @type {any} */
  let beforeLast = null;
  const setup = setupContributions(state);
  /** @param {any} from @param {any} c @param {number} n */
  const relayOne = (from, c, n) => {
    const merged = mergeContribution(from, structuredClone(c), ctxOf(session_id, genesis, n));
    const { cso, verification } = verifyCso(from, merged.draft, {
      uncapturedClaims: [],
      retired: merged.retired,
    });
    const sealed = sealCso(cso, seal);
    const headers = relayHeaders(sealed, verification, { count: 0 });
    return { sealed, verification, headers };
  };
  /** @type {any[]} The setup windows' records, to journal. */
  const records = [];
  for (const [k, c] of setup.entries()) {
    if (k === setup.length - 1) beforeLast = prior;
    const made = relayOne(prior, c, k + 1);
    const raw = JSON.stringify({ output: OUTPUT, ...c });
    records.push(
      windowRecord(session_id, k + 1, prior, made.sealed, {
        ...made,
        invalidations: [],
        answer: journaledAnswerSoon(raw, OUTPUT),
      }),
    );
    prior = made.sealed;
  }
  // Each timed window starts from a prior built as the runtime builds one — the last setup window
  // relayed again, untimed — so what a window leaves for the next (digests, index, chain lengths)
  // is paid in that window, never carried over from an earlier sample.
  const again = () => relayOne(beforeLast, setup.at(-1), setup.length).sealed;
  return { prior, again, session_id, genesis, windows: setup.length, records };
}

function ctxOf(
  /** @type {string} */ session_id,
  /** @type {string} */ genesis,
  /** @type {number} */ n,
) {
  return {
    session_id,
    window_number: n,
    genesis,
    goal_state: goalFor('AGENTIC', {
      objective: OBJECTIVE,
      remaining: REMAINING,
      window_number: n,
    }),
  };
}

/**
 * A window's `relay.window` record as `completeWindow` journals it: its CSO as a change from the
 * prior (`csoChange`) and the raw answer in its journaled form (`answer`, started earlier).
 * @param {string} sessionId @param {number} windowNumber @param {any} prior @param {any} cso
 * @param {{ verification: any, invalidations: any[], headers: any, answer: () => any }} made
 */
function windowRecord(sessionId, windowNumber, prior, cso, made) {
  return {
    session_id: sessionId,
    window_number: windowNumber,
    kind: 'work',
    revision_target: null,
    state: csoChange(prior, cso),
    sealed_over: 'digest',
    status: 'active',
    remaining: cso.goal_state.remaining,
    verification: made.verification,
    invalidations: made.invalidations,
    revisions: [],
    output: { text: OUTPUT, hash: 'sha256:0', model: null },
    // The DPE and AIR's step are timed in bench/air; the record carries what a quiet window's do.
    signals: { window_number: windowNumber, claims: [], quality: 1 },
    quality: {
      policy: DEFAULT_AIR_POLICY,
      judge: 'deterministic',
      state: initialAirState(),
      packet: null,
      injection: null,
      tokens: 0,
    },
    headers: made.headers,
    // What a replay needs: the prompt's hash and the raw answer, the output cut out of it.
    context_packet_hash: PACKET_HASH,
    answers: [made.answer()],
  };
}

/** Appends `window` to the bench project's journal, as the session's agent. */
const appendWindow = (
  /** @type {Journal} */ journal,
  /** @type {any} */ window,
  /** @type {string} */ correlation,
) =>
  journal.append(
    PROJECT,
    RELAY_WINDOW.input(/** @type {any} */ ({ window }), {
      actor: 'relay:bench',
      authority: { principal: 'relay:bench', role: 'agent', project: PROJECT },
      correlation_id: correlation,
    }),
  );

/**
 * The window's pure work, step by step, then its journal append; returns each step's milliseconds.
 * @param {any} prior @param {any} contribution @param {any} ctx @param {(b: Uint8Array) => string} seal
 * @param {Journal} journal
 */
async function oneWindow(prior, contribution, ctx, seal, journal) {
  // What the model sent for the window (its raw answer, journaled for replay), untimed, as a model
  // port hands it over: text decoded from the reply's bytes. (The string JSON.stringify returns is a
  // rope of its parts, and the first reader pays ~0.9 ms to flatten 125 KB of it — a cost of how the
  // bench makes the answer, never of an answer read off the wire.)
  const raw = Buffer.from(JSON.stringify({ output: OUTPUT, ...contribution })).toString('utf8');
  const t0 = performance.now();
  // As `completeWindow` does: the raw answer's deflate starts first, on its own thread, and is
  // taken with the record.
  const answer = journaledAnswerSoon(raw, OUTPUT);
  const ta = performance.now();
  const merged = mergeContribution(prior, contribution, ctx);
  const t1 = performance.now();
  const { cso: repaired, verification } = verifyCso(prior, merged.draft, {
    uncapturedClaims: [],
    retired: merged.retired,
  });
  const t2 = performance.now();
  const index = DependencyIndex.of(prior);
  const flagged = new Set(merged.flagged);
  const invalidations = [...new Set([...merged.superseded, ...merged.invalidated])]
    .filter((id) => !index.dependenciesOf(id).some((d) => merged.invalidated.includes(d)))
    .map((id) => ({
      id,
      by: null,
      flagged: index
        .invalidate([id])
        .map((a) => a.id)
        .filter((d) => flagged.has(d))
        .sort(),
    }));
  const t3 = performance.now();
  const cso = sealCso(repaired, seal);
  const t4 = performance.now();
  const headers = relayHeaders(cso, verification, { count: 0 });
  const t5 = performance.now();
  const window = windowRecord(ctx.session_id, ctx.window_number, prior, cso, {
    verification,
    invalidations,
    headers,
    answer,
  });
  const t5r = performance.now();
  await appendWindow(journal, window, cso.cso_id);
  const t6 = performance.now();
  return {
    steps: {
      merge: t1 - ta,
      verify: t2 - t1,
      invalidations: t3 - t2,
      seal: t4 - t3,
      headers: t5 - t4,
      // With the answer's start: the steps add up to the window's time from t0.
      append: t6 - t5 + (ta - t0),
    },
    // The append's two parts (inside `append`, not added to the sum again).
    parts: { record: t5r - t5 + (ta - t0), journal: t6 - t5r },
    merged,
    verification,
    cso,
    window,
  };
}

/**
 * Part 2 on one runtime: `sessions` sessions, each built by the four setup windows (untimed), then
 * its fifth window prepared and completed (timed) with the restates-244 contribution and its raw
 * answer, as `run` hands them in.
 * @param {any} runtime @param {ReturnType<typeof generateState>} state @param {any} limited
 * @param {{ facts: number, repaired: number } | undefined} expected @param {number} sessions
 * @param {string} engine
 */
async function timeCompleteWindow(runtime, state, limited, expected, sessions, engine) {
  const agent = { id: 'agent-bench', project: PROJECT, role: /** @type {const} */ ('agent') };
  const setup = setupContributions(state);
  const limitedRaw = JSON.stringify({ output: OUTPUT, ...limited });
  /** @type {number[]} */
  const full = [];
  /** @type {number[]} */
  const prepare = [];
  /** @type {number[]} */
  const setupTimes = [];
  let sameAsPure = 0;
  for (let s = 0; s < sessions; s++) {
    const started = await runtime.relay.start(agent, {
      mode: 'AGENTIC',
      objective: OBJECTIVE,
      remaining: REMAINING,
    });
    const id = started.session.session_id;
    const b0 = performance.now();
    // Each window prepared first, as `run` does: the timed prepareWindow then meets a session whose
    // earlier windows this process prepared (their items' prompt lines are kept by object).
    for (const c of setup) {
      await runtime.relay.prepareWindow(agent, id);
      const w = await runtime.relay.completeWindow(agent, id, 'Setting up the state.', c);
      if (w.status !== 'relayed') throw new Error(`setup window ${w.window_number}: ${w.status}`);
    }
    const setupMs = performance.now() - b0;
    const p0 = performance.now();
    await runtime.relay.prepareWindow(agent, id);
    const p1 = performance.now();
    // The raw answer is journaled with the window, as `run` hands it in (the prompt's hash too).
    const w = await runtime.relay.completeWindow(agent, id, OUTPUT, limited, {
      answers: [limitedRaw],
    });
    const p2 = performance.now();
    if (w.status !== 'relayed') throw new Error(`timed window: ${w.status}`);
    if (
      w.cso?.established_facts.length === expected?.facts &&
      w.verification.repaired.length === expected?.repaired
    )
      sameAsPure++;
    prepare.push(p1 - p0);
    full.push(p2 - p1);
    setupTimes.push(setupMs);
    progress(
      SCOPE,
      `${engine}, session ${s + 1}/${sessions}: setup (4 windows) ${setupMs.toFixed(0)} ms, prepareWindow ${ms(p1 - p0)} ms, completeWindow ${ms(p2 - p1)} ms`,
    );
  }
  return { full, prepare, setup: setupTimes, sameAsPure };
}

/** A schema of its own on the bench's PostgreSQL, or null when none is reachable. */
async function postgresSchema() {
  const admin = new pg.Client({ connectionString: BENCH_PG, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const schema = `bench_relay_${Date.now().toString(36)}_${process.pid}`;
  await admin.query(`CREATE SCHEMA ${schema}`);
  return {
    url: inSchema(schema),
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const tmp = tempDir('relay-window');
  /** @type {{ close(): unknown }[]} */
  const open = [];
  try {
    const state = generateState(7);
    const keyring = HmacKeyring.inMemory();
    const key = await keyring.current(PROJECT);
    const seal = (/** @type {Uint8Array} */ b) => `hmac-sha256:${key.keyId}:${key.sign(b)}`;
    // A runtime's first long answer starts the deflate thread; here it runs before the first window.
    if (!(await startDeflateThread())) throw new Error('the answer deflate thread did not start');
    const built = buildInProcess(state, seal);
    const prior = built.prior;
    // The built state is the generator's: every fact, decision and edge.
    const edges = new Set(edgesOf(prior).map((e) => `${e.dependent}|${e.depends_on}`));
    const truthEdges = new Set(state.edges.map((e) => `${e.dependent}|${e.depends_on}`));
    if (
      prior.established_facts.length !== state.facts.length ||
      prior.decisions.length !== state.decisions.length ||
      edges.size !== truthEdges.size ||
      ![...truthEdges].every((e) => edges.has(e))
    )
      throw new Error('the built state is not the generated one');
    const bytes = csoBytes(prior).length;
    progress(
      SCOPE,
      `state: ${prior.established_facts.length} facts, ${prior.decisions.length} decisions, ${edges.size} edges, ${fmtInt(bytes)} canonical bytes`,
    );

    const scenarios = {
      'restates 988': windowContribution(state, {
        restate: 988,
        newFacts: 10,
        newDecisions: 5,
        seed: 8,
      }),
      'restates 244': windowContribution(state, {
        restate: 244,
        newFacts: 10,
        newDecisions: 5,
        seed: 8,
      }),
    };
    const store = new SqliteStore(join(tmp.dir, 'journal.db'));
    open.push(store);
    await migrate(store, { journal: JOURNAL_MIGRATIONS, relay: RELAY_MIGRATIONS });
    const journal = new Journal(store, {
      kinds: new EntryKinds(/** @type {any} */ (RELAY_ENTRY_KINDS)),
      projections: [RELAY_PROJECTION],
    });
    const ctx = ctxOf(built.session_id, built.genesis, built.windows + 1);
    // The session as the runtime leaves it after the setup windows: its row and its four windows
    // journaled and projected (their records hold the prior's 1,000 facts, 500 decisions and 5,000
    // edges), as a runtime's are. After each sample, untimed, the projection is put back as it was
    // before that window (the window row it inserted, deleted: a window never updates earlier
    // rows); the journal keeps every entry.
    await store.run(
      `INSERT INTO relay_sessions (project, session_id, status, windows, seq, record)
       VALUES ($1, $2, 'active', 0, 0, '{}')`,
      [PROJECT, built.session_id],
    );
    for (const record of built.records) await appendWindow(journal, record, record.state.cso_id);
    const fifth = [PROJECT, built.session_id, ctx.window_number];
    const where = 'project = $1 AND session_id = $2';
    const undo = async () => {
      await store.run(`DELETE FROM relay_windows WHERE ${where} AND window_number = $3`, fifth);
    };
    // Before the samples, the state the projection serves for window 4 is the prior's; after every
    // undo, its rows are the same ones (nothing of window 5 left).
    const fourth = await new RelayReader(store, PROJECT).cso(built.records.at(-1));
    if (canonicalize(fourth) !== canonicalize(prior)) {
      throw new Error("the projection does not serve the setup windows' state");
    }
    const countRows = async () => {
      const [row] = await store.all(
        `SELECT count(*) AS windows, max(window_number) AS last FROM relay_windows WHERE ${where}`,
        [PROJECT, built.session_id],
      );
      return `${row?.windows} windows, the last ${row?.last}`;
    };
    const setupRows = await countRows();
    const checkOpen = async (/** @type {string} */ when) => {
      const now = await countRows();
      if (now !== setupRows) {
        throw new Error(`${when}: the session's projection holds ${now}, not ${setupRows}`);
      }
    };
    await checkOpen('before the samples');
    // The storage floor: a bare table in its own file beside the journal's, the store's settings.
    const floorDb = rawSqlite(join(tmp.dir, 'floor.db'));
    open.push(floorDb);
    floorDb.exec('CREATE TABLE floor (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insertFloor = floorDb.prepare('INSERT INTO floor (body) VALUES (?)');
    const floorInsert = floorDb.transaction((/** @type {string} */ text) => insertFloor.run(text));

    /** @type {Record<string, Record<string, number[]>>} */
    const pure = {};
    /** @type {Record<string, { repaired: number, flagged: number, left: number, preservation: number, recordBytes: number, entryBytes: number, facts: number, ok: boolean }>} */
    const checks = {};
    for (const [name, { contribution, expect }] of Object.entries(scenarios)) {
      const first = await oneWindow(prior, contribution, ctx, seal, journal);
      // The projection serves the timed window's CSO from its record and the setup windows'.
      const served = await new RelayReader(store, PROJECT).window(
        built.session_id,
        ctx.window_number,
      );
      if (!served || canonicalize(served.cso) !== canonicalize(first.cso)) {
        throw new Error(`${name}: the projection does not serve the window's CSO`);
      }
      await undo();
      await checkOpen(`after ${name}'s first window`);
      const repaired = new Set(first.verification.repaired);
      const ok =
        first.verification.verified &&
        repaired.size === expect.dropped.length &&
        expect.dropped.every((id) => repaired.has(id)) &&
        expect.flagged.every((id) => first.merged.flagged.includes(id)) &&
        first.merged.flagged.length === expect.flagged.length &&
        expect.leaving.every((id) => first.merged.invalidated.includes(id)) &&
        first.merged.superseded.includes(expect.superseded);
      checks[name] = {
        repaired: repaired.size,
        flagged: first.merged.flagged.length,
        left: first.merged.invalidated.length + 1,
        preservation: first.verification.preservation,
        recordBytes: csoBytes(first.cso).length,
        entryBytes: Buffer.byteLength(canonicalize({ window: first.window })),
        facts: first.cso.established_facts.length,
        ok,
      };
      if (!ok) throw new Error(`${name}: the window did not do what the generator expects`);
      /** @type {Record<string, number[]>} */
      const steps = {
        check: [],
        extract: [],
        merge: [],
        verify: [],
        invalidations: [],
        seal: [],
        headers: [],
        append: [],
        record: [],
        journal: [],
        pure: [],
        total: [],
        youngPure: [],
        youngTotal: [],
        floor: [],
        whole: [],
        hash: [],
        appendRatio: [],
        pureRatio: [],
      };
      // The baselines' inputs, made untimed: the entry body's canonical text (the row the journal
      // stores) and the prior the whole-state encoding is timed on.
      const bodyText = canonicalize({ window: first.window });
      const priorBytes = csoBytes(prior);
      for (let i = 0; i < WARMUP + 2 * SAMPLES; i++) {
        const young = i % 2 === 1;
        // Before each aged sample, the baselines it is compared with (the host's speed moves from
        // minute to minute here; a ratio of neighbours less): a bare durable INSERT of the entry's
        // bytes, the state encoded whole and hashed, and SHA-256 over its bytes. Their garbage goes
        // with `age`.
        let floorMs = 0;
        let wholeMs = 0;
        let hashMs = 0;
        if (!young) {
          const f0 = performance.now();
          floorInsert(bodyText);
          const f1 = performance.now();
          wholeStateHash(prior);
          const f2 = performance.now();
          sha256Hex(priorBytes);
          floorMs = f1 - f0;
          wholeMs = f2 - f1;
          hashMs = performance.now() - f2;
        }
        // Untimed: a prior as the runtime would hold it, and the window's contribution as parsed
        // from the wire (new objects: nothing of it is cached from an earlier sample).
        const from = built.again();
        // Every other sample ages that prior as a window's wait for its model ages it (see `age`);
        // the rest time it still young, as it was just built.
        if (!young) age();
        const given = structuredClone(contribution);
        const c0 = performance.now();
        if (given.facts.length <= 256) checkContribution(given);
        const c1 = performance.now();
        mergeExtracted(
          /** @type {any} */ (given),
          extractFromText(OUTPUT, { window_number: ctx.window_number }),
        );
        const c2 = performance.now();
        const r = await oneWindow(from, given, ctx, seal, journal);
        await undo();
        await checkOpen(`after sample ${i}`);
        if (i < WARMUP) continue;
        const sum = Object.values(r.steps).reduce((a, v) => a + v, 0);
        if (young) {
          steps.youngPure?.push(sum - r.steps.append);
          steps.youngTotal?.push(sum);
          continue;
        }
        if (contribution.facts.length <= 256) steps.check?.push(c1 - c0);
        steps.extract?.push(c2 - c1);
        for (const [k, v] of Object.entries(r.steps)) steps[k]?.push(v);
        steps.record?.push(r.parts.record);
        steps.journal?.push(r.parts.journal);
        steps.pure?.push(sum - r.steps.append);
        steps.total?.push(sum);
        steps.floor?.push(floorMs);
        steps.whole?.push(wholeMs);
        steps.hash?.push(hashMs);
        steps.appendRatio?.push(r.steps.append / floorMs);
        steps.pureRatio?.push((sum - r.steps.append) / hashMs);
      }
      pure[name] = steps;
      progress(
        SCOPE,
        `${name}: pure + append median ${ms(median(steps.total ?? []))} ms (pure ${ms(median(steps.pure ?? []))}, append ${ms(median(steps.append ?? []))}) over ${SAMPLES} windows; prior still young: ${ms(median(steps.youngTotal ?? []))} ms`,
      );
    }

    // Part 2: the whole completeWindow, window 5 of its own session each time — on the embedded
    // SQLite store, then on PostgreSQL (a schema of its own, dropped after) when one is reachable.
    const limited = scenarios['restates 244'].contribution;
    const expected = checks['restates 244'];
    const runtime = await createCanonry({ dataDir: join(tmp.dir, 'runtime'), logLevel: 'silent' });
    open.push({ close: () => runtime.close() });
    const { full, prepare, sameAsPure } = await timeCompleteWindow(
      runtime,
      state,
      limited,
      expected,
      SESSIONS,
      'SQLite',
    );
    const onPostgres = await postgresSchema();
    let postgres = null;
    if (onPostgres) {
      open.push({ close: onPostgres.drop });
      const pgRuntime = await createCanonry({
        dataDir: join(tmp.dir, 'runtime-pg'),
        db: onPostgres.url,
        logLevel: 'silent',
      });
      open.push({ close: () => pgRuntime.close() });
      postgres = await timeCompleteWindow(
        pgRuntime,
        state,
        limited,
        expected,
        PG_SESSIONS,
        'PostgreSQL',
      );
    } else progress(SCOPE, `PostgreSQL at ${BENCH_PG} is not reachable: part 2 on it not run`);
    const pureLimited = pure['restates 244'] ?? {};
    const fullStats = stats(full);
    const stepNames = /** @type {const} */ ([
      ['merge', 'mergeContribution (merge + invalidation walk)'],
      ['verify', 'verifyCso (verify + repair)'],
      ['invalidations', "the record's invalidations (index of the prior + walks)"],
      ['seal', 'sealCso (digest of digests, HMAC, schema check of new items)'],
      ['headers', 'relayHeaders'],
      ['append', 'the relay.window entry: its CSO change, journal.append (SQLite, FULL)'],
    ]);
    /** The append's two parts, inside it (not added to the sum again). */
    const appendParts = /** @type {const} */ ([
      [
        'record',
        '— of which the record: its CSO change, the raw answer deflated (started first, on its own thread)',
      ],
      ['journal', '— of which journal.append (checks, chain, projection, COMMIT)'],
    ]);
    const scenarioNames = Object.keys(pure);
    return {
      name: 'window',
      title: "One window's relay work on a CSO of 1,000 facts, 500 decisions, 5,000 edges",
      tables: [
        table(
          ['the timed window (window 5)', ...scenarioNames],
          [
            [
              'facts repaired by verification',
              ...scenarioNames.map((k) => checks[k]?.repaired ?? 0),
            ],
            [
              'preservation (before repair)',
              ...scenarioNames.map((k) => (checks[k]?.preservation ?? 0).toFixed(3)),
            ],
            [
              'facts leaving (superseded + resting on it)',
              ...scenarioNames.map((k) => checks[k]?.left ?? 0),
            ],
            [
              'decisions flagged needs_revision',
              ...scenarioNames.map((k) => checks[k]?.flagged ?? 0),
            ],
            [
              "the sealed CSO's canonical bytes",
              ...scenarioNames.map((k) => fmtInt(checks[k]?.recordBytes ?? 0)),
            ],
            [
              'the journaled relay.window body, canonical bytes (its CSO as a change)',
              ...scenarioNames.map((k) => fmtInt(checks[k]?.entryBytes ?? 0)),
            ],
            [
              'matches the generator (repair, flags, what leaves)',
              ...scenarioNames.map((k) => (checks[k]?.ok ? 'yes' : 'NO')),
            ],
          ],
        ),
        ...scenarioNames.map((name) => {
          const st = pure[name] ?? {};
          return table(
            [`part 1, ${name}: ms per window (${SAMPLES} windows)`, 'median', 'p90', 'IQR'],
            [
              ...[...stepNames, ...appendParts].map(([k, label]) => row(label, st[k] ?? [])),
              row('**pure relay work (the five steps above the append)**', st.pure ?? []),
              row('**pure relay work + one journal append (the target: < 2 ms)**', st.total ?? []),
              row(
                'the same, the prior still young (built just before: its collection is paid here)',
                st.youngTotal ?? [],
              ),
              ...(st.check?.length
                ? [row('outside the sum: checkContribution (untrusted input)', st.check)]
                : []),
              row(
                'outside the sum: extractFromText + mergeExtracted (one sentence)',
                st.extract ?? [],
              ),
              row(
                'baseline: a bare INSERT of the entry body (canonical text) + COMMIT, SQLite WAL FULL',
                st.floor ?? [],
              ),
              row(
                'for comparison: the prior CSO encoded whole (RFC 8785) and hashed, as a seal without the digest of digests would',
                st.whole ?? [],
              ),
              row(
                "baseline: SHA-256 over the prior's canonical bytes (encoded beforehand)",
                st.hash ?? [],
              ),
              row('the append ÷ the bare INSERT, window by window', st.appendRatio ?? [], times),
              row(
                'pure relay work ÷ the SHA-256 baseline, window by window',
                st.pureRatio ?? [],
                times,
              ),
            ],
          );
        }),
        table(
          [
            `part 2, runtime.relay.completeWindow, restates 244 (${SESSIONS} sessions)`,
            'median',
            'p90',
            'IQR',
          ],
          [
            row('completeWindow, end to end (canon batch commit included)', full),
            row('prepareWindow before it (not in the window above)', prepare),
            [
              'completeWindow ÷ part 1 (pure + append), medians',
              `${(fullStats.median / median(pureLimited.total ?? [])).toFixed(1)}×`,
              '',
              '',
            ],
          ],
        ),
        table(
          [
            `part 2 on PostgreSQL (${postgres ? `${PG_SESSIONS} sessions` : 'not reachable: not run'})`,
            'median',
            'p90',
            'IQR',
          ],
          postgres
            ? [
                row('completeWindow, end to end', postgres.full),
                row('prepareWindow before it', postgres.prepare),
                row(
                  'the 4 setup windows of a session (250 facts, 125 decisions each)',
                  postgres.setup,
                  (v) => v.toFixed(0),
                ),
                [
                  'completeWindow on PostgreSQL ÷ on SQLite, medians',
                  `${(median(postgres.full) / fullStats.median).toFixed(1)}×`,
                  '',
                  '',
                ],
              ]
            : [],
        ),
      ],
      data: {
        facts: prior.established_facts.length,
        decisions: prior.decisions.length,
        edges: edges.size,
        csoBytes: bytes,
        samples: SAMPLES,
        sessions: SESSIONS,
        checks,
        part1: Object.fromEntries(
          Object.entries(pure).map(([name, st]) => [
            name,
            Object.fromEntries(
              Object.entries(st)
                .filter(([, v]) => v.length > 0)
                .map(([k, v]) => [k, stats(v)]),
            ),
          ]),
        ),
        part2: { completeWindow: fullStats, prepareWindow: stats(prepare), sameShape: sameAsPure },
        part2Postgres: postgres && {
          sessions: PG_SESSIONS,
          completeWindow: stats(postgres.full),
          prepareWindow: stats(postgres.prepare),
          setup: stats(postgres.setup),
          sameShape: postgres.sameAsPure,
        },
      },
    };
  } finally {
    for (const o of open.reverse()) await o.close();
    tmp.remove();
  }
}

runIfMain(import.meta.url, main);
