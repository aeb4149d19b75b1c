// @ts-check
/**
 * The AIR loop on generated sessions with KNOWN problems (issue #15, "Evaluation (bench/air)").
 *
 * Part 1, recorded sessions: each generated session (lib/plan.js) is driven through a real runtime
 * (`createCanonry` on a temp data dir, SQLite) window by window — prepareWindow → the recorded
 * output → completeWindow — and every injected problem is checked against the generator's ground
 * truth: flagged by the window's DPE signals, detected exactly (the right kind and the right fact),
 * and targeted by the IAP the next window's prompt carries (lib/check.js).
 *
 * Part 2, the §3.2 trajectory: an obedient and a deaf scripted model (lib/scripted.js), same plan,
 * same habits, driven by `relay.run` (structured contribution JSON); per window, the problem claims
 * each wrote (ground truth), what the DPE counted, 6-gram repetition and duplicate sentences.
 *
 * This proves the loop's mechanics — that what the DPE measures reaches the next prompt, and that a
 * model which does what the prompt says stops repeating it — not how any real model responds.
 */
import { join } from 'node:path';
import { createCanonry } from 'canonry/app';
import { tempDir } from '../lib/journal-data.js';
import { progress } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { detected, key, promptOf, targeted } from './lib/check.js';
import { contributionOf, generateSession, PROBLEMS, textOf } from './lib/plan.js';
import { scriptedModel } from './lib/scripted.js';

const SCOPE = 'air/sessions';
const QUICK = Boolean(process.env.BENCH_QUICK);
const SESSIONS = QUICK ? 6 : 40;
const TRAJECTORIES = QUICK ? 3 : 12;
const WINDOWS = 7;
const AGENT = { id: 'agent-bench', project: 'bench-air', role: /** @type {const} */ ('agent') };

/**
 * @typedef {{ injected: number, flagged: number, exact: number, targeted: number, bound: number }} Tally
 */
const tally = () => ({ injected: 0, flagged: 0, exact: 0, targeted: 0, bound: 0 });

/** Flagged: some signal on it, whatever its kind or fact (what AIR quarantines). @param {import('./lib/plan.js').Injection} inj @param {import('canonry/dpe').WindowSignals} s */
function flagged(inj, s) {
  if (inj.kind === 'fabrication' || inj.kind === 'distortion')
    return s.contradictions.some((c) => key(c.claim) === key(inj.claim));
  return detected(inj, s);
}

/** @param {import('canonry/app').CanonryRuntime} runtime */
async function recorded(runtime) {
  /** @type {Map<string, Tally>} window|kind → tally */
  const rows = new Map();
  /** @type {Record<string, string[]>} how misses were read, by kind */
  const misses = {};
  let falsePositives = 0;
  let absorbed = 0;
  let wrongCorrections = 0;
  let quarantined = 0;
  for (let seed = 1; seed <= SESSIONS; seed++) {
    const plan = generateSession(seed, { windows: WINDOWS });
    const { session } = await runtime.relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: plan.objective,
      remaining: plan.items,
      air_mode: 'adaptive',
    });
    const id = session.session_id;
    /** @type {{ w: import('./lib/plan.js').PlanWindow, res: any } | null} */
    let last = null;
    const judge = (/** @type {string} */ prompt) => {
      if (!last) return;
      for (const inj of last.w.injected) {
        const k = `${last.w.window}|${inj.kind}`;
        const t = rows.get(k) ?? tally();
        rows.set(k, t);
        t.injected++;
        const s = last.res.signals;
        if (flagged(inj, s)) t.flagged++;
        if (detected(inj, s)) t.exact++;
        else if (inj.kind === 'fabrication' || inj.kind === 'distortion') {
          const got = s.contradictions.find(
            (/** @type {any} */ c) => key(c.claim) === key(inj.claim),
          );
          const how = got
            ? `${got.kind} (${got.contradiction}) against ${got.fact_id === inj.fact_id ? 'the right fact' : /^f\d/.test(got.fact_id ?? '') ? 'a claim the relay absorbed into the CSO' : "another service's fact"}`
            : 'not flagged';
          const list = misses[inj.kind] ?? [];
          misses[inj.kind] = list;
          list.push(how);
        }
        const hit = targeted(inj, last.res.quality?.packet ?? null, prompt);
        if (inj.kind === 'fabrication' || inj.kind === 'distortion') {
          // A quarantine entry whose "verified fact" is about another service than the claim.
          const q = last.res.quality?.packet?.iap.error_quarantine.find(
            (/** @type {any} */ x) => key(x.original_claim) === key(inj.claim),
          );
          const service = inj.claim.split(' ')[1] ?? '';
          if (q?.correction && !q.correction.includes(service)) wrongCorrections++;
          if (q) quarantined++;
        }
        if (hit === null) t.bound++;
        else if (hit) t.targeted++;
      }
      const claims = new Set(last.w.injected.flatMap((i) => ('claim' in i ? [key(i.claim)] : [])));
      falsePositives += last.res.signals.contradictions.filter(
        (/** @type {any} */ c) => !claims.has(key(c.claim)),
      ).length;
    };
    for (const w of plan.windows) {
      const prepared = await runtime.relay.prepareWindow(AGENT, id);
      judge(promptOf(prepared));
      const res = await runtime.relay.completeWindow(
        AGENT,
        id,
        textOf(w.sentences),
        contributionOf(plan, w),
      );
      if (res.status !== 'relayed')
        throw new Error(`seed ${seed} window ${w.window}: ${res.status}`);
      absorbed += (res.cso?.established_facts ?? []).filter(
        (f) => f.window_origin === w.window && !plan.facts.some((p) => p.fact_id === f.fact_id),
      ).length;
      last = { w, res };
    }
    // The last window has no next prompt in the plan; prepare one to see what it would carry.
    const state = await runtime.relay.state(AGENT, id);
    judge(state.status === 'active' ? promptOf(await runtime.relay.prepareWindow(AGENT, id)) : '');
    if (seed % 10 === 0) progress(SCOPE, `recorded sessions: ${seed}/${SESSIONS}`);
  }
  return { rows, misses, falsePositives, absorbed, wrongCorrections, quarantined };
}

/** @param {import('canonry/app').CanonryRuntime} runtime @param {boolean} obeys */
async function trajectory(runtime, obeys) {
  /** @type {{ problems: number[], dpe: number[], ratio: number[], duplicates: number[], completeness: number[], iap: number[] }} */
  const per = { problems: [], dpe: [], ratio: [], duplicates: [], completeness: [], iap: [] };
  const sums = Array.from({ length: WINDOWS }, () => ({
    problems: 0,
    dpe: 0,
    ratio: 0,
    duplicates: 0,
    completeness: 0,
    iap: 0,
  }));
  for (let seed = 1; seed <= TRAJECTORIES; seed++) {
    const plan = generateSession(1000 + seed, { windows: WINDOWS });
    const bad = new Set(
      plan.windows.flatMap((w) => w.injected.flatMap((i) => ('claim' in i ? [key(i.claim)] : []))),
    );
    const { session } = await runtime.relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: plan.objective,
      remaining: plan.items,
      air_mode: 'adaptive',
    });
    const { model, written } = scriptedModel(plan, { obeys, textOf });
    const run = await runtime.relay.run(AGENT, session.session_id, model, { maxWindows: WINDOWS });
    run.windows.forEach((w, i) => {
      const s = /** @type {any} */ (w).signals;
      const t = /** @type {any} */ (sums[i]);
      t.problems += (written[i]?.sentences ?? []).filter((x) => bad.has(key(x))).length;
      t.dpe += s.fabrication_count + s.distortion_count;
      t.ratio += s.repetition.ratio;
      t.duplicates += s.repetition.duplicate_sentences.length;
      t.completeness += s.completeness.score;
      t.iap += /** @type {any} */ (w).quality?.tokens ?? 0;
    });
    if (run.windows.length !== WINDOWS)
      throw new Error(`trajectory ${seed}: ${run.windows.length} windows`);
  }
  for (const t of sums) {
    per.problems.push(t.problems / TRAJECTORIES);
    per.dpe.push(t.dpe / TRAJECTORIES);
    per.ratio.push(t.ratio / TRAJECTORIES);
    per.duplicates.push(t.duplicates / TRAJECTORIES);
    per.completeness.push(t.completeness / TRAJECTORIES);
    per.iap.push(t.iap / TRAJECTORIES);
  }
  return per;
}

const pct = (/** @type {number} */ a, /** @type {number} */ b) =>
  b === 0 ? '—' : `${a}/${b} (${Math.round((100 * a) / b)} %)`;
const f2 = (/** @type {number} */ x) => x.toFixed(2);

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const tmp = tempDir('air-sessions');
  const runtime = await createCanonry({ dataDir: join(tmp.dir, 'runtime'), logLevel: 'silent' });
  try {
    const rec = await recorded(runtime);
    progress(SCOPE, 'trajectory: obedient');
    const obedient = await trajectory(runtime, true);
    progress(SCOPE, 'trajectory: deaf');
    const deaf = await trajectory(runtime, false);

    const windowRows = [...rec.rows.entries()]
      .sort(([a], [b]) => {
        const [wa, ka] = a.split('|');
        const [wb, kb] = b.split('|');
        return (
          Number(wa) - Number(wb) ||
          PROBLEMS.indexOf(/** @type {any} */ (ka)) - PROBLEMS.indexOf(/** @type {any} */ (kb))
        );
      })
      .map(([k, t]) => {
        const [w, kind] = k.split('|');
        return [
          w,
          kind,
          t.injected,
          pct(t.flagged, t.injected),
          pct(t.exact, t.injected),
          t.bound === t.injected ? '— (loop bound, §3.3)' : pct(t.targeted, t.injected - t.bound),
        ];
      });
    /** @type {Record<string, Tally>} */
    const byKind = {};
    for (const [k, t] of rec.rows) {
      const kind = /** @type {string} */ (k.split('|')[1]);
      const s = byKind[kind] ?? tally();
      byKind[kind] = s;
      for (const f of /** @type {const} */ (['injected', 'flagged', 'exact', 'targeted', 'bound']))
        s[f] += t[f];
    }
    const missRows = Object.entries(rec.misses).flatMap(([kind, hows]) => {
      /** @type {Record<string, number>} */
      const counts = {};
      for (const h of hows) counts[h] = (counts[h] ?? 0) + 1;
      return Object.entries(counts).map(([how, n]) => [kind, how, n]);
    });
    const windows = Array.from({ length: WINDOWS }, (_, i) => i + 1);
    return {
      name: 'sessions',
      title: `Injected problems: detected by the DPE, targeted by the next IAP (${SESSIONS} recorded sessions of ${WINDOWS} windows; ${TRAJECTORIES} scripted runs per model)`,
      tables: [
        table(
          [
            'problem',
            'injected',
            'flagged by the DPE',
            'detected exactly (kind + fact)',
            'targeted by the next IAP',
          ],
          PROBLEMS.map((kind) => {
            const t = byKind[kind] ?? tally();
            return [
              kind,
              t.injected,
              pct(t.flagged, t.injected),
              pct(t.exact, t.injected),
              pct(t.targeted, t.injected - t.bound),
            ];
          }),
        ),
        table(
          [
            'window',
            'problem',
            'injected',
            'flagged',
            'detected exactly',
            'targeted by the next IAP',
          ],
          windowRows,
        ),
        table(
          ['missed exactly: problem', 'how the DPE read it', 'count'],
          missRows.length > 0 ? missRows : [['—', 'none', 0]],
        ),
        table(
          ['recorded sessions: other figures', 'value'],
          [
            ['contradictions on claims nothing injected (false positives)', rec.falsePositives],
            [
              'quarantine entries for injected claims whose "verified fact" is about another service',
              pct(rec.wrongCorrections, rec.quarantined),
            ],
            [
              'window claims the relay absorbed into the CSO as facts (uncaptured → CONVERSATION facts)',
              rec.absorbed,
            ],
          ],
        ),
        table(
          ['window', ...windows.map(String)],
          [
            ['obedient: problem claims written', ...obedient.problems.map(f2)],
            ['deaf: problem claims written', ...deaf.problems.map(f2)],
            ['obedient: fabrications + distortions (DPE)', ...obedient.dpe.map(f2)],
            ['deaf: fabrications + distortions (DPE)', ...deaf.dpe.map(f2)],
            ['obedient: 6-gram repetition ratio', ...obedient.ratio.map(f2)],
            ['deaf: 6-gram repetition ratio', ...deaf.ratio.map(f2)],
            ['obedient: duplicate sentences', ...obedient.duplicates.map(f2)],
            ['deaf: duplicate sentences', ...deaf.duplicates.map(f2)],
            ['obedient: completeness', ...obedient.completeness.map(f2)],
            ['deaf: completeness', ...deaf.completeness.map(f2)],
            [
              'IAP tokens built from the window (obedient)',
              ...obedient.iap.map((x) => x.toFixed(0)),
            ],
          ],
        ),
      ],
      data: {
        sessions: SESSIONS,
        windows: WINDOWS,
        trajectories: TRAJECTORIES,
        byKind,
        byWindow: Object.fromEntries(rec.rows),
        misses: rec.misses,
        falsePositives: rec.falsePositives,
        absorbed: rec.absorbed,
        wrongCorrections: rec.wrongCorrections,
        quarantined: rec.quarantined,
        obedient,
        deaf,
      },
    };
  } finally {
    await runtime.close();
    tmp.remove();
  }
}

runIfMain(import.meta.url, main);
