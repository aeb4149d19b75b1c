// @ts-check
/**
 * The CRP-018 §8 protocol against any OpenAI-compatible server (a local LM Studio, llama.cpp,
 * vLLM or Ollama server, or a hosted API):
 *
 *   node bench/air/harness.js --model openai:http://127.0.0.1:1234/v1 [--model-name NAME]
 *     [--windows 5] [--seed 1] [--timeout-ms 120000] [--completion-tokens 1500] [--json]
 *
 * Three arms on the same task and the same five sections, one window per section, temperature 0:
 * the relay with AIR adaptive (the CSO and the IAP in each prompt), the relay with AIR off (the CSO
 * only), and a text-summary relay (the model gets a rolling summary of the earlier windows instead
 * of the CSO: bench/relay's RollingSummary, 600 tokens). Each arm's outputs are then measured by the
 * same DPE against the task's source facts (not each relay's own state, so the arms are comparable):
 * the §3.2 dimensions — 6-gram repetition, duplicate sentences, fabrication rate (and distortions),
 * completeness — and the §5.2 session IQ. Without `--model` it says how to run and exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sessionIq } from 'canonry/air';
import { createCanonry } from 'canonry/app';
import { countTokens } from 'canonry/core';
import { analyseWindow } from 'canonry/dpe';
import { OpenAIModel } from 'canonry/models';
import { table } from '../lib/report.js';
import { RollingSummary } from '../relay/lib/corpus.js';
import { generateSession } from './lib/plan.js';

const AGENT = { id: 'agent-harness', project: 'air-harness', role: /** @type {const} */ ('agent') };
const SUMMARY_TOKENS = 600;
export const ARMS = /** @type {const} */ (['AIR adaptive', 'AIR off', 'text summary']);

/**
 * The task every arm gets: a runbook of `windows` services from the generator's source facts,
 * stated in the objective (so the relay arms' first window records them, as the summary arm's sees
 * them). @param {number} seed @param {number} windows
 */
export function protocolTask(seed, windows) {
  const plan = generateSession(seed, { windows: Math.max(3, windows) });
  const subjects = plan.subjects.slice(0, windows);
  const facts = subjects.flatMap((s) => Object.values(s.facts));
  const objective = [
    `Write an operations runbook with one section per service: ${subjects.map((s) => s.item).join(', ')}.`,
    'Use only these source facts; do not invent figures:',
    ...facts.map((f) => `- ${f.statement}.`),
  ].join('\n');
  return {
    objective,
    sections: subjects.map((s) => s.item),
    context: facts.map((f) => ({ id: f.fact_id, statement: f.statement, source: 'task' })),
  };
}

/**
 * The §3.2 dimensions of one arm's window texts, measured by the DPE against the source facts.
 * @param {string[]} texts @param {ReturnType<typeof protocolTask>} task
 */
export function measureArm(texts, task) {
  const signals = texts.map((text, i) =>
    analyseWindow({
      window_number: i + 1,
      text,
      context: task.context,
      remaining: task.sections,
      earlier: texts.slice(0, i),
    }),
  );
  const n = Math.max(1, signals.length);
  const sum = (/** @type {(s: import('canonry/dpe').WindowSignals) => number} */ f) =>
    signals.reduce((a, s) => a + f(s), 0);
  const claims = sum((s) => s.claims.length);
  const covered = new Set(signals.flatMap((s) => s.completeness.covered));
  const repetition = sum((s) => s.repetition.ratio) / n;
  const completeness = task.sections.length === 0 ? 1 : covered.size / task.sections.length;
  const fabricationRate = claims === 0 ? 0 : sum((s) => s.fabrication_count) / claims;
  const flow = sum((s) => s.flow_score) / n;
  return {
    windows: signals.map((s) => ({
      repetition: s.repetition.ratio,
      duplicates: s.repetition.duplicate_sentences.length,
      fabrications: s.fabrication_count,
      distortions: s.distortion_count,
      claims: s.claims.length,
    })),
    repetition,
    duplicateRatio: sum((s) => s.repetition.duplicate_ratio) / n,
    fabricationRate,
    distortionRate: claims === 0 ? 0 : sum((s) => s.distortion_count) / claims,
    claims,
    completeness,
    flow,
    sessionIq: sessionIq({
      cumulative_repetition_ratio: repetition,
      completeness_score: completeness,
      fabrication_rate: fabricationRate,
      flow_score: flow,
    }),
  };
}

/** A model port that remembers the text of each answer. @param {import('canonry/models').ModelPort} inner */
function recording(inner) {
  /** @type {string[]} */
  const answers = [];
  return {
    answers,
    port: /** @type {import('canonry/models').ModelPort} */ ({
      route: inner.route,
      complete: async (/** @type {import('canonry/models').ModelRequest} */ request) => {
        const response = await inner.complete(request);
        answers.push(response.text);
        return response;
      },
    }),
  };
}

/** A relay arm: the session with AIR in `mode`, run for `windows` windows; the window texts. */
async function relayArm(
  /** @type {import('canonry/app').CanonryRuntime} */ runtime,
  /** @type {import('canonry/models').ModelPort} */ model,
  /** @type {ReturnType<typeof protocolTask>} */ task,
  /** @type {{ mode: 'adaptive' | 'off', windows: number, completionTokens: number, log: (s: string) => void }} */ o,
) {
  const { session } = await runtime.relay.start(AGENT, {
    mode: 'DOCUMENT',
    objective: task.objective,
    remaining: task.sections,
    air_mode: o.mode,
  });
  const rec = recording(model);
  /** @type {string[]} */
  const texts = [];
  /** @type {number[]} */
  const iap = [];
  await runtime.relay.run(AGENT, session.session_id, rec.port, {
    maxWindows: o.windows,
    completionTokens: o.completionTokens,
    onWindow: (w) => {
      let text = '';
      try {
        text = String(JSON.parse(rec.answers.at(-1) ?? '{}').output ?? '');
      } catch {}
      texts.push(text);
      iap.push(w.quality?.tokens ?? 0);
      o.log(`AIR ${o.mode}: window ${w.window_number} ${w.status}`);
    },
  });
  return { texts, iap };
}

/** The text-summary arm: each window gets the task and a rolling summary of the earlier windows. */
async function summaryArm(
  /** @type {import('canonry/models').ModelPort} */ model,
  /** @type {ReturnType<typeof protocolTask>} */ task,
  /** @type {{ windows: number, completionTokens: number, log: (s: string) => void }} */ o,
) {
  const summary = new RollingSummary(SUMMARY_TOKENS, countTokens);
  /** @type {string[]} */
  const texts = [];
  for (let i = 0; i < o.windows; i++) {
    const section = task.sections[i] ?? 'finish the runbook';
    const response = await model.complete({
      messages: [
        {
          role: 'system',
          content:
            'You write one window of a long task. Continue from the summary of the earlier windows; answer with the text of this window only.',
        },
        {
          role: 'user',
          content: [
            '## Task',
            task.objective,
            '',
            '## Summary of earlier windows',
            summary.text() || '(none yet)',
            '',
            '## This window',
            `Write section ${section}.`,
          ].join('\n'),
        },
      ],
      temperature: 0,
      maxTokens: o.completionTokens,
    });
    texts.push(response.text);
    summary.add(response.text);
    o.log(`text summary: window ${i + 1}`);
  }
  return { texts };
}

/**
 * Runs the three arms against one OpenAI-compatible server and measures them.
 * @param {{ baseURL: string, modelName?: string, windows?: number, seed?: number, timeoutMs?: number, completionTokens?: number, log?: (s: string) => void }} options
 */
export async function runProtocol(options) {
  const windows = options.windows ?? 5;
  const completionTokens = options.completionTokens ?? 1_500;
  const log = options.log ?? (() => {});
  const task = protocolTask(options.seed ?? 1, windows);
  const model = new OpenAIModel({
    baseURL: options.baseURL,
    model: options.modelName ?? 'local',
    timeoutMs: options.timeoutMs ?? 120_000,
    maxRetries: 2,
    ...(process.env.OPENAI_API_KEY ? { apiKey: process.env.OPENAI_API_KEY } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'canonry-air-harness-'));
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  try {
    const adaptive = await relayArm(runtime, model, task, {
      mode: 'adaptive',
      windows,
      completionTokens,
      log,
    });
    const off = await relayArm(runtime, model, task, {
      mode: 'off',
      windows,
      completionTokens,
      log,
    });
    const summary = await summaryArm(model, task, { windows, completionTokens, log });
    return {
      model: model.route,
      baseURL: options.baseURL,
      windows,
      task,
      arms: {
        'AIR adaptive': {
          texts: adaptive.texts,
          iap: adaptive.iap,
          ...measureArm(adaptive.texts, task),
        },
        'AIR off': { texts: off.texts, iap: off.iap, ...measureArm(off.texts, task) },
        'text summary': { texts: summary.texts, iap: [], ...measureArm(summary.texts, task) },
      },
    };
  } finally {
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The side-by-side tables of a run. @param {Awaited<ReturnType<typeof runProtocol>>} run */
export function protocolTables(run) {
  const arms = ARMS.map((a) => run.arms[a]);
  const pct = (/** @type {number} */ x) => `${(100 * x).toFixed(2)} %`;
  const perWindow = Array.from({ length: run.windows }, (_, i) => [
    String(i + 1),
    ...arms.map((a) => {
      const w = a.windows[i];
      return w
        ? `${pct(w.repetition)} · ${w.duplicates} dup · ${w.fabrications} fab · ${w.distortions} dist`
        : '—';
    }),
  ]);
  return [
    table(
      [`§3.2 dimension (${run.model}, ${run.windows} windows)`, ...ARMS, '§3.2 AIR projected'],
      [
        ['6-gram repetition (mean of windows)', ...arms.map((a) => pct(a.repetition)), '< 1.0 %'],
        [
          'duplicate sentences (mean of windows)',
          ...arms.map((a) => pct(a.duplicateRatio)),
          '< 0.2 %',
        ],
        [
          'fabrication rate (fabrications / claims)',
          ...arms.map((a) => pct(a.fabricationRate)),
          '≈ 0',
        ],
        ['distortion rate (distortions / claims)', ...arms.map((a) => pct(a.distortionRate)), ''],
        ['claims read', ...arms.map((a) => String(a.claims)), ''],
        ['completeness (sections covered)', ...arms.map((a) => pct(a.completeness)), '> 92 %'],
        ['flow (mean)', ...arms.map((a) => a.flow.toFixed(2)), ''],
        ['session IQ (§5.2)', ...arms.map((a) => a.sessionIq.toFixed(1)), ''],
        [
          'IAP tokens injected (sum)',
          ...arms.map((a) => String(a.iap.reduce((x, y) => x + y, 0))),
          '',
        ],
      ],
    ),
    table(['window', ...ARMS], perWindow),
  ];
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {Record<string, string>} */
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = /** @type {string} */ (argv[i]);
    if (a === '--json') out.json = 'true';
    else if (a.startsWith('--')) {
      const [name, inline] = a.slice(2).split('=', 2);
      out[/** @type {string} */ (name)] = inline ?? argv[++i] ?? '';
    }
  }
  return out;
}

async function cli() {
  const args = parseArgs(process.argv.slice(2));
  const spec = args.model ?? '';
  if (!spec.startsWith('openai:') || spec.length <= 'openai:'.length) {
    process.stdout.write(
      [
        'bench/air/harness.js: no model server given, nothing to run.',
        'Run the CRP-018 §8 protocol (AIR adaptive vs AIR off vs text summary, 5 windows) against an',
        'OpenAI-compatible server, for example a local LM Studio or llama.cpp server:',
        '  npm run build && node bench/air/harness.js --model openai:http://127.0.0.1:1234/v1 --model-name llama-3.1-8b-instruct',
        'Options: --windows N (default 5), --seed N, --timeout-ms N, --completion-tokens N, --json.',
        'An API key, when the server needs one, is read from OPENAI_API_KEY.',
        '',
      ].join('\n'),
    );
    return;
  }
  const run = await runProtocol({
    baseURL: spec.slice('openai:'.length),
    ...(args['model-name'] ? { modelName: args['model-name'] } : {}),
    ...(args.windows ? { windows: Number(args.windows) } : {}),
    ...(args.seed ? { seed: Number(args.seed) } : {}),
    ...(args['timeout-ms'] ? { timeoutMs: Number(args['timeout-ms']) } : {}),
    ...(args['completion-tokens'] ? { completionTokens: Number(args['completion-tokens']) } : {}),
    log: (s) => process.stderr.write(`air/harness: ${s}\n`),
  });
  process.stdout.write(
    args.json === 'true'
      ? `${JSON.stringify(run, null, 2)}\n`
      : `## CRP-018 §8 protocol: AIR vs no AIR vs text summary\n\n${protocolTables(run).join('\n\n')}\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  cli().catch((error) => {
    process.stderr.write(`air/harness: ${error?.message ?? error}\n`);
    process.exit(1);
  });
}
