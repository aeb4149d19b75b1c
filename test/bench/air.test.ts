// bench/air: the session generator's ground truth at a tiny size, the obedient model's reading of a
// packet, and the §8 harness end to end against a fake OpenAI-compatible server on loopback.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ARMS, measureArm, protocolTask, runProtocol } from '../../bench/air/harness.js';
import { key, sixGrams } from '../../bench/air/lib/check.js';
import { contributionOf, generateSession, PROBLEMS, textOf } from '../../bench/air/lib/plan.js';
import { directivesOf, scriptedWindow } from '../../bench/air/lib/scripted.js';
import { analyseWindow } from '../../src/dpe/index.js';
import {
  completion,
  type FakeOpenAI,
  startFakeOpenAI,
} from '../fixtures/models/fake-openai-server.js';

describe('bench/air session generator: ground truth', () => {
  it('injects every problem kind where it says, and the same seed gives the same session', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const plan = generateSession(seed, { windows: 4 });
      expect(generateSession(seed, { windows: 4 })).toEqual(plan);
      expect(plan.windows).toHaveLength(4);
      expect(plan.facts).toHaveLength(16);
      expect(plan.windows[0]!.injected).toEqual([]);
      const kinds = plan.windows.flatMap((w) => w.injected.map((i) => i.kind));
      for (const k of PROBLEMS) expect(kinds).toContain(k);
      expect(kinds.filter((k) => k === 'drift')).toHaveLength(1);
      const facts = new Map(plan.facts.map((f) => [f.fact_id, f.statement]));
      for (const w of plan.windows) {
        const text = textOf(w.sentences);
        for (const inj of w.injected) {
          if (inj.kind === 'drift') {
            expect(w.covers).toBe(false);
            expect(text).not.toContain(inj.item);
            expect(contributionOf(plan, w).completed).toEqual([]);
          } else if (inj.kind === 'repetition') {
            const earlier = plan.windows.slice(0, w.window - 1).flatMap((x) => x.sentences);
            for (const s of inj.sentences) {
              expect(w.sentences).toContain(s);
              expect(earlier).toContain(s);
            }
          } else {
            expect(w.sentences).toContain(inj.claim);
            expect(facts.has(inj.fact_id)).toBe(true);
            // No fact states the claim: it is a problem, not a restatement.
            expect([...facts.values()].map(key)).not.toContain(key(inj.claim));
          }
          if (inj.kind === 'distortion') {
            expect(inj.fact).toBe(facts.get(inj.fact_id));
            const changed = {
              number: /runs \d+ replicas/,
              unit: / seconds\.$/,
              negation: /does not encrypt/,
              entity: /keeps its index in/,
            }[inj.contradiction];
            expect(inj.claim).toMatch(changed);
          }
        }
      }
    }
  });

  it('writes problems the DPE flags against the facts, and clean sections it does not', () => {
    const plan = generateSession(7, { windows: 5 });
    const context = plan.facts.map((f) => ({
      id: f.fact_id,
      statement: f.statement,
      source: 'cso',
    }));
    const earlier: string[] = [];
    for (const w of plan.windows) {
      const s = analyseWindow({
        window_number: w.window,
        text: textOf(w.sentences),
        context,
        remaining: [w.item],
        earlier: [...earlier],
      });
      earlier.push(textOf(w.sentences));
      const claims = w.injected.flatMap((i) => ('claim' in i ? [key(i.claim)] : []));
      expect(s.contradictions.map((c) => key(c.claim)).sort()).toEqual(claims.sort());
      expect(s.completeness.covered).toEqual(w.covers ? [w.item] : []);
    }
  });

  it('reads a packet as an obedient model: quarantined claims, forbidden phrases, the residual', () => {
    const plan = generateSession(3, { windows: 5 });
    const bad = plan.windows.flatMap((w) => w.injected).find((i) => i.kind === 'distortion');
    expect(bad).toBeDefined();
    const claim = (bad as { claim: string }).claim;
    const phrase = sixGrams(plan.subjects[0]!.sentences[0]!)[0]!;
    const packet = [
      '## Quality packet (feedback on earlier windows)',
      'ERROR QUARANTINE (these claims contradict the context or have no support; never repeat them):',
      `  - Do NOT state or imply that ${claim.replace(/\.$/, '')}. The verified fact is: something.`,
      'Still to cover, starting in this window:',
      `  - ${plan.items[0]}`,
      `VOCABULARY: do not reuse these phrases: "${phrase}".`,
    ].join('\n');
    const d = directivesOf(packet);
    expect(d.quarantined.has(key(claim))).toBe(true);
    expect(d.forbidden.has(phrase)).toBe(true);
    expect(d.residual).toEqual([plan.items[0]]);
    const obedient = scriptedWindow(plan, 3, packet, true);
    const deaf = scriptedWindow(plan, 3, packet, false);
    expect(deaf.sentences).toContain(claim);
    expect(obedient.sentences).not.toContain(claim);
    expect(obedient.sentences.some((s) => sixGrams(s).includes(phrase))).toBe(false);
    expect(obedient.completed).toContain(plan.items[0]);
  });
});

describe('bench/air harness: the §8 protocol against an OpenAI-compatible server', () => {
  let server: FakeOpenAI;
  beforeEach(async () => {
    server = await startFakeOpenAI();
  });
  afterEach(async () => server.close());

  it('runs the three arms with the same task and measures each by the DPE', async () => {
    const task = protocolTask(2, 3);
    const facts = task.context;
    const [s1, s2, s3] = task.sections as [string, string, string];
    const distorted = `${facts[4]!.statement.replace(/runs (\d+) replicas/, (_, n) => `runs ${Number(n) + 2} replicas`)}.`;
    const texts = [
      `## ${s1}\n\n${facts[0]!.statement}. ${facts[1]!.statement}.`,
      `## ${s2}\n\n${facts[5]!.statement}. ${distorted}`,
      `## ${s3}\n\n${facts[8]!.statement}. ${facts[0]!.statement}.`,
    ];
    const answer = (output: string, completed: string) =>
      JSON.stringify({
        output,
        facts: facts.map((f) => ({
          fact_id: f.id,
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
        completed: [completed],
        invalidates: [],
        tool_results: [],
      });
    for (let arm = 0; arm < 2; arm++)
      server.enqueue(...texts.map((t, i) => completion(answer(t, task.sections[i]!))));
    server.enqueue(...texts.map((t) => completion(t)));

    const run = await runProtocol({
      baseURL: server.baseURL,
      modelName: 'recorded',
      windows: 3,
      seed: 2,
    });
    expect(server.requests).toHaveLength(9);
    const prompts = server.requests.map((r) =>
      (r.body.messages as { content: string }[]).map((m) => m.content).join('\n'),
    );
    // The relay arms send the contribution schema; the summary arm plain chat.
    expect(server.requests.slice(0, 6).every((r) => r.body.response_format)).toBe(true);
    expect(server.requests.slice(6).some((r) => r.body.response_format)).toBe(false);
    // Same task in every prompt; the distortion of window 2 is quarantined in window 3's prompt
    // with AIR adaptive and nowhere with AIR off.
    for (const p of prompts) expect(p).toContain(facts[0]!.statement);
    expect(prompts[2]).toContain('Do NOT state or imply');
    expect(prompts[2]).toContain(distorted.replace(/\.$/, ''));
    expect(prompts[5]).not.toContain('## Quality packet');
    expect(prompts[8]).toContain('## Summary of earlier windows');

    for (const arm of ARMS) {
      const a = run.arms[arm];
      expect(a.texts).toEqual(texts);
      expect(a.windows.map((w) => w.distortions)).toEqual([0, 1, 0]);
      expect(a.windows[2]!.duplicates).toBe(1);
      expect(a.completeness).toBe(1);
    }
    expect(run.arms['AIR adaptive'].iap[1]).toBeGreaterThan(0);
    expect(run.arms['AIR off'].iap.every((t) => t === 0)).toBe(true);
    // The standalone measure is the same function of the texts.
    expect(measureArm(texts, task).sessionIq).toBeCloseTo(run.arms['text summary'].sessionIq, 9);
  });
});
