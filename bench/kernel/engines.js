// @ts-check
/**
 * The same refund decision (constraints, then AUTO_APPROVE ≤ 50 < MANAGER_REVIEW ≤ 1000 < BLOCK)
 * through canonry and through other engines, after checking they all agree on every input.
 */
import '../lib/v8-workaround.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { compileProtocol, Kernel, resolve } from 'canonry/kernel';
import { Keyring } from 'canonry/trust';
import jsonLogic from 'json-logic-js';
import { Engine } from 'json-rules-engine';
import { compare, fmtInt, progress, ratio, ratioSpread } from '../lib/measure.js';
import {
  expectedLabel,
  INVALID_ARTIFACTS,
  INPUT_MASK as M,
  metadataHashes,
  refundArtifacts,
  refundProtocol,
} from '../lib/refund.js';
import { fmtRatio, runIfMain, table } from '../lib/report.js';

const SCOPE = 'kernel/engines';

/** A decision procedure: the label for an artifact, or null when the constraints refuse it. */
/** @typedef {(artifact: unknown) => string | null | Promise<string | null>} Decide */

/** Ajv 2020 compiled once from the protocol's constraints, with canonry's own Ajv options. */
function ajvCheck(/** @type {any} */ protocol) {
  const ajv = new Ajv2020({
    strict: false,
    logger: false,
    allErrors: false,
    ownProperties: true,
    validateFormats: false,
  });
  return ajv.compile(protocol.constraints);
}

/** json-logic-js + Ajv: validate, then apply the protocol's own rules in order (first match). */
function jsonLogicEngine(/** @type {any} */ protocol) {
  const valid = ajvCheck(protocol);
  /** @type {[string, any][]} */
  const rules = protocol.rules.map((/** @type {any} */ r) => [r.label, r.condition]);
  /** @type {Decide} */
  return (artifact) => {
    if (!valid(artifact)) return null;
    for (const [label, condition] of rules)
      if (jsonLogic.truthy(jsonLogic.apply(condition, artifact))) return label;
    return null;
  };
}

/** json-rules-engine + Ajv: one rule per label, priorities 3 > 2 > 1, and the first success stops the run. */
function rulesEngine(/** @type {any} */ protocol) {
  const valid = ajvCheck(protocol);
  const engine = new Engine([], { allowUndefinedFacts: false });
  const stop = () => {
    engine.stop();
  };
  const amount = (/** @type {string} */ operator, /** @type {number} */ value) => ({
    fact: 'amount',
    operator,
    value,
  });
  engine.addRule({
    name: 'AUTO_APPROVE',
    priority: 3,
    conditions: { all: [amount('lessThanInclusive', 50)] },
    event: { type: 'AUTO_APPROVE' },
    onSuccess: stop,
  });
  engine.addRule({
    name: 'MANAGER_REVIEW',
    priority: 2,
    conditions: { all: [amount('greaterThan', 50), amount('lessThanInclusive', 1000)] },
    event: { type: 'MANAGER_REVIEW' },
    onSuccess: stop,
  });
  engine.addRule({
    name: 'BLOCK',
    priority: 1,
    conditions: { all: [] },
    event: { type: 'BLOCK' },
    onSuccess: stop,
  });
  return async (/** @type {unknown} */ artifact) => {
    if (!valid(artifact)) return null;
    const { events } = await engine.run(/** @type {Record<string, unknown>} */ (artifact));
    return events[0]?.type ?? null;
  };
}

/**
 * Cedar has no first-match and no floats: three permit policies, each id'd by its label, with
 * disjoint conditions on the amount in integer cents (Long). One isAuthorized call per decision;
 * the label is the one policy in `diagnostics.reason`. Constraints: the same Ajv check first.
 */
const CEDAR_POLICIES = {
  staticPolicies: {
    AUTO_APPROVE:
      'permit (principal, action == Action::"refund", resource) when { context.cents <= 5000 };',
    MANAGER_REVIEW:
      'permit (principal, action == Action::"refund", resource) when { context.cents > 5000 && context.cents <= 100000 };',
    BLOCK:
      'permit (principal, action == Action::"refund", resource) when { context.cents > 100000 };',
  },
};
const CEDAR_SET_ID = 'refund';

/** @param {any} protocol @param {boolean} preparsed use `statefulIsAuthorized` on a preparsed policy set */
function cedarEngine(protocol, preparsed) {
  const valid = ajvCheck(protocol);
  if (preparsed) {
    const parsed = cedar.preparsePolicySet(CEDAR_SET_ID, CEDAR_POLICIES);
    if (parsed.type !== 'success') throw new Error(`cedar: ${JSON.stringify(parsed.errors)}`);
  }
  const principal = { type: 'Agent', id: 'model' };
  const action = { type: 'Action', id: 'refund' };
  const resource = { type: 'Refund', id: 'request' };
  /** @type {Decide} */
  return (artifact) => {
    if (!valid(artifact)) return null;
    const amount = /** @type {{ amount: number }} */ (artifact).amount;
    const cents = Math.round(amount * 100);
    if (cents / 100 !== amount) throw new Error(`cedar: ${amount} is not a whole number of cents`);
    const request = { principal, action, resource, context: { cents }, entities: [] };
    const answer = preparsed
      ? cedar.statefulIsAuthorized({ ...request, preparsedPolicySetId: CEDAR_SET_ID })
      : cedar.isAuthorized({ ...request, policies: CEDAR_POLICIES });
    if (answer.type !== 'success') throw new Error(`cedar: ${JSON.stringify(answer.errors)}`);
    const { decision, diagnostics } = answer.response;
    if (decision !== 'allow' || diagnostics.reason.length !== 1)
      throw new Error(`cedar: no single label for ${amount}`);
    return diagnostics.reason[0] ?? null;
  };
}

const RESOLVE = 'canonry resolve (decision only)';
const EVALUATE = 'canonry kernel.evaluate (signed event)';

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-engines-'));
  try {
    const protocol = refundProtocol();
    const compiled = compileProtocol(protocol);
    const kernel = new Kernel({ signer: (await Keyring.init(dir)).signer() });
    const artifacts = refundArtifacts();
    const metas = metadataHashes();
    const canonry = (/** @type {unknown} */ a) => resolve(a, compiled).label;
    /** @type {[string, Decide, boolean][]} name, decide, async */
    const engines = [
      ['json-logic-js + Ajv', jsonLogicEngine(protocol), false],
      ['json-rules-engine + Ajv (awaited)', rulesEngine(protocol), true],
      ['cedar-wasm statefulIsAuthorized (preparsed) + Ajv', cedarEngine(protocol, true), false],
      ['cedar-wasm isAuthorized (policies per call) + Ajv', cedarEngine(protocol, false), false],
    ];

    progress(
      SCOPE,
      `checking that every engine agrees with canonry on ${artifacts.length} + ${INVALID_ARTIFACTS.length} inputs`,
    );
    const counts = /** @type {Record<string, number>} */ ({});
    for (const artifact of [...artifacts, ...INVALID_ARTIFACTS]) {
      const want = canonry(artifact);
      const oracle = INVALID_ARTIFACTS.includes(/** @type {any} */ (artifact))
        ? null
        : expectedLabel(/** @type {any} */ (artifact).amount);
      if (want !== oracle)
        throw new Error(`canonry gave ${want} for ${JSON.stringify(artifact)}, expected ${oracle}`);
      counts[String(want)] = (counts[String(want)] ?? 0) + 1;
      for (const [name, decide] of engines) {
        const got = await decide(artifact);
        if (got !== want)
          throw new Error(
            `${name} gave ${got} for ${JSON.stringify(artifact)}, canonry gave ${want}`,
          );
      }
    }
    progress(SCOPE, `all engines agree (labels: ${JSON.stringify(counts)})`);

    const results = await compare(SCOPE, [
      { name: RESOLVE, fn: (i) => resolve(artifacts[i & M], compiled) },
      {
        name: EVALUATE,
        fn: (i) => kernel.evaluate(artifacts[i & M], compiled, /** @type {any} */ (metas[i & M])),
      },
      ...engines.map(([name, decide, async]) => ({
        name,
        fn: (/** @type {number} */ i) => decide(artifacts[i & M]),
        async,
      })),
    ]);

    const rows = [RESOLVE, EVALUATE, ...engines.map(([name]) => name)].map((name) => [
      name,
      fmtInt(results[name]?.opsPerSec ?? 0),
      name === RESOLVE ? '1.00×' : fmtRatio(ratio(results, RESOLVE, name)),
      name === EVALUATE ? '1.00×' : fmtRatio(ratio(results, EVALUATE, name)),
    ]);
    const ratios = Object.fromEntries(
      engines.map(([name]) => [
        name,
        {
          resolve: ratio(results, RESOLVE, name),
          resolveIqr: ratioSpread(results, RESOLVE, name),
          evaluate: ratio(results, EVALUATE, name),
        },
      ]),
    );
    return {
      name: 'engines',
      title: 'The refund decision through other engines',
      tables: [
        table(
          [
            'engine',
            'decisions/s (median of 15 rounds)',
            'canonry resolve ÷ engine',
            'canonry evaluate ÷ engine',
          ],
          rows,
        ),
      ],
      data: {
        results,
        ratios,
        agreedOn: artifacts.length + INVALID_ARTIFACTS.length,
        labels: counts,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

runIfMain(import.meta.url, main);
