// @ts-check
/**
 * CSO relay against text-summary relay on the recorded multi-window corpus (CRP-030; the issue's
 * target: facts and decision rationales still available after 5 and 10 windows — 100 % for the
 * CSO). The corpus (`corpus/sessions.jsonl`, made by `generate-corpus.js`) records, per window, what
 * a model answered with the relay's structured response — its text and its contribution — and the
 * generator's ground truth of what the window established. Windows never restate earlier ones.
 *
 * The replay adapter is the recording itself, keyed by session and window: a `ReplayModel` keys by
 * the exact request, whose prompt carries canonry's own state, so a recording keyed that way could
 * not be written before canonry runs. Each window is fed, in order, to:
 *
 * - the CSO relay: `runtime.relay.completeWindow(agent, session, output, contribution)` on a fresh
 *   runtime (SQLite), the state committed to canon and journaled window by window;
 * - the CSO relay given the text alone (no contribution): what the deterministic extractor keeps;
 * - the text-summary baseline (`RollingSummary`, see lib/corpus.js) at two budgets, 1,000 and 2,000
 *   tokens (2,000 is LangChain's ConversationSummaryBufferMemory default `max_token_limit`), and at
 *   as many tokens as the CSO relay's state has after the same window (the same cost).
 *
 * After windows 5 and 10, the share of the ground truth's facts (statement present) and decisions
 * (choice and rationale present) of windows 1…k that each relay still carries.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createCanonry } from 'canonry/app';
import { canonicalize, countTokens } from 'canonry/core';
import { tempDir } from '../lib/journal-data.js';
import { fmtInt, median, progress } from '../lib/measure.js';
import { runIfMain, table } from '../lib/report.js';
import { CORPUS_PATH } from './generate-corpus.js';
import { availability, norm, RollingSummary } from './lib/corpus.js';

const SCOPE = 'relay/corpus';
const CHECKPOINTS = [5, 10];
const BUDGETS = [1_000, 2_000];
const PROJECT = 'bench';

/** @typedef {import('./lib/corpus.js').RecordedWindow} RecordedWindow */

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  /** @type {RecordedWindow[]} */
  const recorded = readFileSync(CORPUS_PATH, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  /** @type {Map<string, RecordedWindow[]>} */
  const sessions = new Map();
  for (const w of recorded) sessions.set(w.session, [...(sessions.get(w.session) ?? []), w]);
  progress(SCOPE, `${recorded.length} recorded windows in ${sessions.size} sessions`);
  const tmp = tempDir('relay-corpus');
  const runtime = await createCanonry({ dataDir: join(tmp.dir, 'runtime'), logLevel: 'silent' });
  const agent = { id: 'agent-bench', project: PROJECT, role: /** @type {const} */ ('agent') };
  /** @typedef {{ facts: number, factTotal: number, decisions: number, decisionTotal: number, tokens: number[] }} Tally */
  /** @type {Record<string, Record<number, Tally>>} */
  const tally = {};
  const add = (
    /** @type {string} */ relay,
    /** @type {number} */ k,
    /** @type {ReturnType<typeof availability>} */ a,
    /** @type {number} */ tokens,
  ) => {
    tally[relay] ??= {};
    const byK = tally[relay];
    byK[k] ??= { facts: 0, factTotal: 0, decisions: 0, decisionTotal: 0, tokens: [] };
    const t = byK[k];
    t.facts += a.facts;
    t.factTotal += a.factTotal;
    t.decisions += a.decisions;
    t.decisionTotal += a.decisionTotal;
    t.tokens.push(tokens);
  };
  /** @type {number[]} */
  const repairedPerWindow = [];
  try {
    for (const [name, windows] of sessions) {
      const start = async () =>
        (
          await runtime.relay.start(agent, {
            mode: 'AGENTIC',
            objective: `Migrate the platform (${name})`,
            remaining: ['finish the migration'],
          })
        ).session.session_id;
      const structured = await start();
      const textOnly = await start();
      const summaries = BUDGETS.map((b) => new RollingSummary(b, countTokens));
      // A summary allowed as many tokens as the CSO relay's state has after the same window.
      const asLarge = new RollingSummary(0, countTokens);
      for (const w of windows) {
        const a = await runtime.relay.completeWindow(agent, structured, w.output, w.contribution);
        const b = await runtime.relay.completeWindow(agent, textOnly, w.output);
        if (a.status !== 'relayed' || b.status !== 'relayed' || !a.cso)
          throw new Error(`${name} window ${w.window}: ${a.status}/${b.status}`);
        repairedPerWindow.push(a.verification.repaired.length);
        for (const s of summaries) s.add(w.output);
        asLarge.budget = countTokens(canonicalize(a.cso));
        asLarge.add(w.output);
        if (!CHECKPOINTS.includes(w.window)) continue;
        const truth = {
          facts: windows.filter((x) => x.window <= w.window).flatMap((x) => x.truth.facts),
          decisions: windows.filter((x) => x.window <= w.window).flatMap((x) => x.truth.decisions),
        };
        for (const [relay, cso] of /** @type {const} */ ([
          ['CSO relay (text + contribution)', a.cso],
          ['CSO relay (text only: extractor)', b.cso],
        ])) {
          if (!cso) throw new Error('no CSO');
          // Present = contained in one fact's statement / one decision's choice and rationale (the
          // extractor keeps a sentence's wording around the claim, so equality would be too strict).
          const facts = cso.established_facts.map((f) => norm(f.statement));
          const decisions = cso.decisions.map((d) => `${norm(d.choice)} ${norm(d.rationale)}`);
          add(
            relay,
            w.window,
            availability(
              truth,
              (s) => facts.some((f) => f.includes(norm(s))),
              (d) =>
                decisions.some((x) => x.includes(norm(d.choice)) && x.includes(norm(d.rationale))),
            ),
            countTokens(canonicalize(cso)),
          );
        }
        for (const s of [...summaries, asLarge]) {
          const text = norm(s.text());
          add(
            s === asLarge
              ? 'text summary, as many tokens as the CSO'
              : `text summary, ${fmtInt(s.budget)} tokens`,
            w.window,
            availability(
              truth,
              (f) => text.includes(norm(f)),
              (d) => text.includes(norm(d.choice)) && text.includes(norm(d.rationale)),
            ),
            countTokens(s.text()),
          );
        }
      }
      progress(SCOPE, `session ${name}: relayed ${windows.length} windows through each relay`);
    }
  } finally {
    await runtime.close();
    tmp.remove();
  }
  const pct = (/** @type {number} */ a, /** @type {number} */ b) =>
    `${((a / b) * 100).toFixed(1)} %`;
  const rows = Object.entries(tally).flatMap(([relay, byK]) =>
    CHECKPOINTS.map((k) => {
      const t = /** @type {Tally} */ (byK[k]);
      return [
        relay,
        k,
        `${pct(t.facts, t.factTotal)} (${t.facts}/${t.factTotal})`,
        `${pct(t.decisions, t.decisionTotal)} (${t.decisions}/${t.decisionTotal})`,
        fmtInt(median(t.tokens)),
      ];
    }),
  );
  const perWindow = recorded.length / sessions.size;
  return {
    name: 'corpus',
    title: 'CSO relay vs text-summary relay on the recorded corpus: what is still available',
    tables: [
      table(
        ['corpus (seeded, bench/relay/corpus/sessions.jsonl)', 'value'],
        [
          ['sessions × windows', `${sessions.size} × ${perWindow}`],
          [
            'per window: new facts, new decisions (with rationale)',
            `${recorded[0]?.truth.facts.length}, ${recorded[0]?.truth.decisions.length}`,
          ],
          [
            'output tokens per window (median)',
            fmtInt(median(recorded.map((w) => countTokens(w.output)))),
          ],
          [
            'prior facts the CSO relay re-injected per window (median; windows restate nothing)',
            median(repairedPerWindow),
          ],
        ],
      ),
      table(
        [
          'relay',
          'after window',
          'facts available',
          'decisions with rationale available',
          'state tokens (median)',
        ],
        rows,
      ),
    ],
    data: {
      sessions: sessions.size,
      windowsPerSession: perWindow,
      tally: Object.fromEntries(
        Object.entries(tally).map(([relay, byK]) => [
          relay,
          Object.fromEntries(
            Object.entries(byK).map(([k, t]) => [
              k,
              {
                ...t,
                tokens: median(t.tokens),
                factShare: t.facts / t.factTotal,
                decisionShare: t.decisions / t.decisionTotal,
              },
            ]),
          ),
        ]),
      ),
    },
  };
}

runIfMain(import.meta.url, main);
