// @ts-check
/**
 * Two scripted models for the §3.2 trajectory, driven through `relay.run` on the same generated
 * plan. Both have the same habits: from window 2 on they write every problem the plan injects
 * (fabrications, distortions, sentences copied from earlier windows) in every window, and they skip
 * the section the plan drifts from. The DEAF model never reads the prompt's quality packet. The
 * OBEDIENT one reads it and does what it says: it leaves out every sentence whose claim is
 * quarantined, rephrases (or, with no phrasing left, drops) a sentence holding a forbidden phrase,
 * and writes the overdue section the goal residual still lists. Nothing else differs, so what
 * separates their numbers is the loop's mechanics — not how any real model responds to an IAP.
 */
import { ScriptedModel } from 'canonry/models';
import { key, words } from './check.js';

/** The quality packet of a prompt ('' when it has none). @param {string} prompt */
export function packetOf(prompt) {
  const at = prompt.indexOf('## Quality packet');
  if (at < 0) return '';
  const next = prompt.indexOf('\n## ', at + 3);
  return prompt.slice(at, next < 0 ? undefined : next);
}

/** What an obedient model reads from a packet. @param {string} packet */
export function directivesOf(packet) {
  const quarantined = new Set();
  for (const m of packet.matchAll(
    /Do NOT state or imply that (.+?)\.(?= The verified fact is:| No context fact supports it)/g,
  ))
    quarantined.add(key(/** @type {string} */ (m[1])));
  const forbidden = new Set();
  for (const line of packet.split('\n')) {
    if (!line.startsWith('VOCABULARY:') && !line.includes('(freshness ')) continue;
    for (const m of line.matchAll(/"([^"]+)"/g)) forbidden.add(/** @type {string} */ (m[1]));
  }
  const residual = [];
  const from = packet.indexOf('Still to cover, starting in this window:');
  if (from >= 0) {
    for (const line of packet.slice(from).split('\n').slice(1)) {
      if (!line.startsWith('  - ')) break;
      residual.push(line.slice(4));
    }
  }
  return { quarantined, forbidden, residual };
}

/** Whether a sentence holds a forbidden 6-gram. @param {string} sentence @param {Set<string>} forbidden */
function wornOut(sentence, forbidden) {
  const w = words(sentence);
  for (let i = 0; i + 6 <= w.length; i++)
    if (forbidden.has(w.slice(i, i + 6).join(' '))) return true;
  return false;
}

/** A second phrasing of each fact sentence (same facts, other words). @param {import('./plan.js').Subject} s */
export function alternates(s) {
  const [, n, region] = /runs (\d+) replicas in (\S+)/.exec(s.facts.number.statement) ?? [];
  const [, ms] = /is (\d+) ms/.exec(s.facts.unit.statement) ?? [];
  const store = s.facts.entity.statement.split(' ').at(-1);
  return [
    `${region} hosts all ${n} replicas of the ${s.name} cluster.`,
    `Reads on ${s.name} complete within ${ms} ms at the p99.`,
    `Backups of ${s.name} are encrypted at rest.`,
    `${s.name} stores its index in ${store}.`,
  ];
}

/** The plan's problems, as the model's habits: every injected sentence, from window 2 on. @param {import('./plan.js').SessionPlan} plan */
function habitsOf(plan) {
  return plan.windows.flatMap((w) =>
    w.injected.flatMap((i) =>
      i.kind === 'fabrication' || i.kind === 'distortion'
        ? [i.claim]
        : i.kind === 'repetition'
          ? i.sentences
          : [],
    ),
  );
}

/**
 * The window text and contribution a scripted model writes for window `n`, given the prompt.
 * @param {import('./plan.js').SessionPlan} plan @param {number} n @param {string} prompt @param {boolean} obeys
 */
export function scriptedWindow(plan, n, prompt, obeys) {
  const d = obeys
    ? directivesOf(packetOf(prompt))
    : { quarantined: new Set(), forbidden: new Set(), residual: [] };
  const w = plan.windows[n - 1];
  const covered = [];
  /** @type {string[]} */
  const sentences = [];
  /** @param {import('./plan.js').Subject} s */
  const section = (s) => {
    sentences.push(`## ${s.item}`);
    const alt = alternates(s);
    s.sentences.forEach((primary, i) => {
      const choice = [primary, alt[i]].find((x) => x !== undefined && !wornOut(x, d.forbidden));
      if (choice) sentences.push(choice);
    });
    covered.push(s.item);
  };
  // Overdue sections the residual names (the obedient model only: the deaf one never sees it).
  for (const item of d.residual) {
    const due = plan.windows.find((x) => x.item === item);
    if (due && due.window < n) section(/** @type {any} */ (plan.subjects[due.window - 1]));
  }
  if (!w) sentences.push('## Closing notes', 'The runbook is complete.');
  else if (w.covers) section(/** @type {any} */ (plan.subjects[n - 1]));
  else
    sentences.push(
      '## General notes',
      'Operators should review the dashboards each morning before the stand-up.',
    );
  if (n >= 2) {
    for (const h of habitsOf(plan)) {
      if (d.quarantined.has(key(h)) || wornOut(h, d.forbidden)) continue;
      sentences.push(h);
    }
  }
  return { sentences, completed: covered };
}

/**
 * A scripted model for `relay.run`: each call is the next window; it answers the contribution
 * schema's JSON (every fact restated, the sections it covered completed).
 * @param {import('./plan.js').SessionPlan} plan @param {{ obeys: boolean, textOf: (s: string[]) => string }} options
 */
export function scriptedModel(plan, options) {
  let n = 0;
  /** @type {{ window: number, sentences: string[] }[]} */
  const written = [];
  const model = new ScriptedModel(
    [
      {
        match: () => true,
        respond: (request) => {
          n++;
          const prompt = request.messages.map((m) => m.content).join('\n');
          const { sentences, completed } = scriptedWindow(plan, n, prompt, options.obeys);
          written.push({ window: n, sentences });
          return JSON.stringify({
            output: options.textOf(sentences),
            facts: plan.facts.map((f) => ({
              fact_id: f.fact_id,
              statement: f.statement,
              provenance: 'USER',
              provenance_ref: null,
              confidence: null,
              supersedes: [],
            })),
            decisions: [],
            open_questions: [],
            resolved_questions: [],
            constraints: [],
            completed,
            invalidates: [],
            tool_results: [],
          });
        },
      },
    ],
    options.obeys ? 'scripted-obedient' : 'scripted-deaf',
  );
  return { model, written };
}
