// @ts-check
/**
 * In-process verdicts/s: `kernel.evaluate` on conformant artifacts (canonicalize, hash, Ajv
 * constraints, JsonLogic rules, signed conformance event) against the floor of one node:crypto
 * Ed25519 signature over the same canonical event bytes. Then a breakdown of one evaluate.
 */
import { generateKeyPairSync, sign, verify, X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canonicalize, hashBytes, parseContentHash } from 'canonry/core';
import {
  CONFORMANCE_EVENT_TYPE,
  compileConstraints,
  compileProtocol,
  compileRule,
  isTruthy,
  Kernel,
  MemoryAuditSink,
  resolve,
  verdictEnvelope,
} from 'canonry/kernel';
import { Keyring, documentBytes as signedBytes } from 'canonry/trust';
import { compare, fmtInt, progress, ratio, ratioSpread } from '../lib/measure.js';
import { INPUT_MASK as M, metadataHashes, refundArtifacts, refundProtocol } from '../lib/refund.js';
import { fmtRatio, fmtSpread, runIfMain, table } from '../lib/report.js';

const SCOPE = 'kernel/verdicts';

/** Issue 13: ≥ 0.9 × the signing floor (it was 0.8). */
export const TARGET = 0.9;

const EVALUATE = 'canonry kernel.evaluate (no audit sink)';
const AUDITED = 'canonry kernel.evaluate + MemoryAuditSink';
const FLOOR = 'node:crypto Ed25519 sign (floor)';

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-verdicts-'));
  try {
    progress(SCOPE, `creating a keyring in ${dir}`);
    const signer = (await Keyring.init(dir)).signer();
    const protocol = refundProtocol();
    const compiled = compileProtocol(protocol);
    const artifacts = refundArtifacts();
    const metas = metadataHashes();
    const kernel = new Kernel({ signer });
    const audited = new Kernel({ signer, audit: new MemoryAuditSink() });

    // The floor signs exactly the bytes the kernel signed for each artifact; check that first.
    progress(SCOPE, 'building the signed bytes of 1,024 events and checking their signatures');
    const issuerKey = new X509Certificate(signer.certificatePem).publicKey;
    const bytes = artifacts.map((artifact, i) => {
      const { event } = kernel.evaluate(artifact, compiled, /** @type {any} */ (metas[i]));
      if (event === null) throw new Error(`artifact ${i} was not conformant`);
      const { signature, ...body } = event;
      const message = signedBytes(body);
      if (!verify(null, message, issuerKey, Buffer.from(signature.value, 'base64url'))) {
        throw new Error(`event ${i}: signature does not cover signedBytes(body)`);
      }
      return message;
    });
    const { privateKey } = generateKeyPairSync('ed25519');
    progress(SCOPE, `typical signed event: ${bytes[1]?.length} bytes of canonical JSON`);

    const results = await compare(SCOPE, [
      {
        name: EVALUATE,
        fn: (i) => kernel.evaluate(artifacts[i & M], compiled, /** @type {any} */ (metas[i & M])),
      },
      {
        name: AUDITED,
        fn: (i) => audited.evaluate(artifacts[i & M], compiled, /** @type {any} */ (metas[i & M])),
      },
      { name: FLOOR, fn: (i) => sign(null, /** @type {Buffer} */ (bytes[i & M]), privateKey) },
    ]);
    const r = ratio(results, EVALUATE, FLOOR);
    const rAudit = ratio(results, AUDITED, FLOOR);
    const spread = ratioSpread(results, EVALUATE, FLOOR);
    progress(SCOPE, `ratio evaluate/floor ${fmtRatio(r)} (target ≥ ${TARGET})`);

    const breakdown = await timeParts({ signer, compiled, protocol, artifacts, metas, kernel });
    const main = table(
      ['target', 'ops/s (median of 15 rounds)', 'ratio to floor'],
      [
        [
          EVALUATE,
          fmtInt(results[EVALUATE]?.opsPerSec ?? 0),
          `**${fmtRatio(r)}** (${fmtSpread(spread)}; target ≥ ${TARGET}: ${r >= TARGET ? 'met' : 'NOT met'})`,
        ],
        [AUDITED, fmtInt(results[AUDITED]?.opsPerSec ?? 0), fmtRatio(rAudit)],
        [FLOOR, fmtInt(results[FLOOR]?.opsPerSec ?? 0), '1.00×'],
      ],
    );
    return {
      name: 'verdicts',
      title: 'Verdicts/s in process vs the Ed25519 signing floor',
      tables: [main, breakdown.table],
      data: {
        results,
        ratio: r,
        ratioIqr: spread,
        ratioAudited: rAudit,
        target: TARGET,
        met: r >= TARGET,
        signedBytes: bytes[1]?.length,
        breakdown: breakdown.parts,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Where the time of one evaluate goes. An instrumented copy of evaluate, built from the same public
 * building blocks the kernel uses (canonicalize, hashBytes, the compiled Ajv check and JsonLogic
 * rules, the signed-document bytes, the signer), times each step with `performance.now()` inside
 * the same iteration, so all steps are measured under the same conditions. It runs interleaved with
 * the real `kernel.evaluate` and `resolve`, whose totals show what the copy leaves out.
 * @param {{ signer: import('canonry/trust').Signer, compiled: import('canonry/kernel').CompiledProtocol, protocol: any, artifacts: { amount: number }[], metas: any[], kernel: Kernel }} ctx
 */
async function timeParts({ signer, compiled, protocol, artifacts, metas, kernel }) {
  const check = compileConstraints(protocol.constraints);
  /** @type {[string, (data: unknown) => unknown][]} */
  const rules = protocol.rules.map((/** @type {any} */ r) => [r.label, compileRule(r.condition)]);
  const issuer = { fingerprint: signer.fingerprint, certificate: signer.certificatePem };
  const protocolBlock = { hash: compiled.hash, slug: protocol.slug, version: protocol.version };
  const STEPS = [
    'canonicalize(artifact) (RFC 8785)',
    'sha256 of the canonical text (artifact hash)',
    'JSON.parse of the canonical text',
    'constraints: compiled Ajv 2020 check',
    'rules: compiled JsonLogic, first-match',
    'event claims + issuer block → canonical bytes',
    'Ed25519 sign of the event bytes (signer.sign)',
    'signature → base64url, signed event object',
    'response envelope',
  ];
  const spent = new Float64Array(STEPS.length);
  let calls = 0;
  /** @param {number} i */
  const instrumented = (i) => {
    const t = [performance.now()];
    const text = canonicalize(artifacts[i & M]);
    t.push(performance.now());
    const artifactHash = hashBytes(text);
    t.push(performance.now());
    const data = JSON.parse(text);
    t.push(performance.now());
    if (!check(data).valid) throw new Error('not conformant');
    t.push(performance.now());
    let label = '';
    for (const [name, rule] of rules) {
      if (isTruthy(rule(data))) {
        label = name;
        break;
      }
    }
    t.push(performance.now());
    const unsigned = {
      type: CONFORMANCE_EVENT_TYPE,
      v: 1,
      protocol: protocolBlock,
      artifact_hash: artifactHash,
      generation_metadata_hash: parseContentHash(metas[i & M]),
      conformant: true,
      label,
      issuer,
    };
    const bytes = signedBytes(unsigned);
    t.push(performance.now());
    const signature = signer.sign(bytes);
    t.push(performance.now());
    const event = {
      ...unsigned,
      signature: { alg: 'Ed25519', value: signature.toString('base64url') },
    };
    t.push(performance.now());
    const envelope = verdictEnvelope('CONFORMANT', label, /** @type {any} */ (event));
    t.push(performance.now());
    for (let k = 0; k < STEPS.length; k++)
      spent[k] += /** @type {number} */ (t[k + 1]) - /** @type {number} */ (t[k]);
    calls++;
    return envelope;
  };
  const INSTRUMENTED = 'instrumented copy (all steps)';
  const RESOLVE = 'resolve() (the decision, no signing)';
  const EVALUATE = 'kernel.evaluate() (everything)';
  progress(SCOPE, 'breakdown: an instrumented evaluate, interleaved with the real one');
  const measured = await compare(
    `${SCOPE} breakdown`,
    [
      { name: INSTRUMENTED, fn: instrumented },
      { name: RESOLVE, fn: (i) => resolve(artifacts[i & M], compiled) },
      { name: EVALUATE, fn: (i) => kernel.evaluate(artifacts[i & M], compiled, metas[i & M]) },
    ],
    { rounds: 9, time: 300 },
  );
  const us = (/** @type {string} */ name) => 1e6 / (measured[name]?.opsPerSec ?? Number.NaN);
  const total = us(EVALUATE);
  const steps = STEPS.map(
    (name, k) => /** @type {[string, number]} */ ([name, (1000 * (spent[k] ?? 0)) / calls]),
  );
  const sum = steps.reduce((acc, [, t]) => acc + t, 0);
  const decision = steps.slice(0, 5).reduce((acc, [, t]) => acc + t, 0);
  const row = (/** @type {string} */ name, /** @type {number} */ t) => [
    name,
    t.toFixed(2),
    `${((100 * t) / total).toFixed(1)} %`,
  ];
  const rows = [
    ...steps.map(([name, t]) => row(name, t)),
    row('**sum of the steps**', sum),
    row('of which the decision (steps 1–5)', decision),
    row(`**${RESOLVE}**, measured`, us(RESOLVE)),
    row(`**${EVALUATE}**, measured`, total),
    row('evaluate minus the steps (verdict objects, spreads, closures, timer)', total - sum),
  ];
  return {
    table: table(['step of one evaluate', 'µs/op', 'share of evaluate'], rows),
    parts: { steps: Object.fromEntries(steps), sum, resolve: us(RESOLVE), evaluate: total },
  };
}

runIfMain(import.meta.url, main);
