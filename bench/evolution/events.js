// @ts-check
/**
 * Qualified cognitive events (GCS) per second, resolved, signed and verified: `assembleQualifiedEvent`
 * (governance of two sources intersected, hashes, Ed25519 signature, the result read back as
 * untrusted input) and a receiving side's `QualifiedEventVerifier.verify` (schema, policy hash,
 * provenance, certificate chain, signature), against the floor of one node:crypto Ed25519 sign +
 * verify over the same canonical event bytes, in the same run (issue 17: ≥ 0.6 of the floor).
 */
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentHash } from 'canonry/core';
import {
  assembleQualifiedEvent,
  eventBytes,
  QualifiedEventVerifier,
  resolveGovernance,
} from 'canonry/evolution';
import { Keyring } from 'canonry/trust';
import { compare, fmtInt, median, progress, quantile, ratio, ratioSpread } from '../lib/measure.js';
import { fmtRatio, fmtSpread, runIfMain, table } from '../lib/report.js';

const SCOPE = 'evolution/events';

/** Issue 17: resolved + signed + verified ≥ 0.6 × the raw Ed25519 sign + verify floor. */
export const TARGET = 0.6;

const FULL = 'canonry assemble (resolve + sign) + verify';
const WITH_SOURCES = 'canonry assemble + verify against the sources';
const FLOOR = 'node:crypto Ed25519 sign + verify (floor)';
/** Inputs cycled through: 256 events over different sources. */
const N = 256;
const M = N - 1;

/** Two sources per event: a user's private verdict and an enterprise's relay window. */
function inputs() {
  const users = ['alice', 'bob', 'carol', 'dave'];
  return Array.from({ length: N }, (_, i) => {
    const user = /** @type {string} */ (users[i % users.length]);
    /** @type {import('canonry/evolution').CognitiveAsset[]} */
    const sources = [
      {
        asset_id: `verdict:${i}`,
        asset_kind: 'kernel.verdict',
        content_hash: contentHash({ verdict: i }),
        created_at: 1_767_225_600_000 + i,
        governance: {
          privacy_scope: 'user_private',
          privacy_boundary: { constraints: [{ kind: 'user', id: user }] },
          allowed_principals: [user],
          allowed_roles: ['*'],
          replication_policy: 'trusted_devices',
          inference_policy: 'private_nodes',
          training_policy: 'local_only',
          export_policy: 'approval_required',
          retention_policy: 'indefinite',
          policy_tags: i % 3 === 0 ? ['pii'] : [],
        },
        provenance: {
          derived_from: [`message:${i}`],
          execution_claims: [],
          verification_results: [],
        },
      },
      {
        asset_id: `window:${i}`,
        asset_kind: 'relay.window',
        content_hash: contentHash({ window: i }),
        created_at: 1_767_225_600_500 + i,
        governance: {
          privacy_scope: 'enterprise_private',
          privacy_boundary: { constraints: [{ kind: 'enterprise', id: 'acme' }] },
          allowed_principals: [...users],
          allowed_roles: ['analyst', 'owner'],
          replication_policy: 'tenant_nodes',
          inference_policy: 'private_nodes',
          training_policy: 'tenant_only',
          export_policy: 'approval_required',
          retention_policy: `expires-at:${4_102_444_800_000 + i}`,
          policy_tags: ['confidential'],
        },
        provenance: { derived_from: [], execution_claims: [`tool:${i}`], verification_results: [] },
      },
    ];
    const hex = i.toString(16).padStart(12, '0');
    /** @type {import('canonry/evolution').EventDraft} */
    const draft = {
      event_id: `0f8b6c2e-3d4a-4b5c-8d6e-${hex}`,
      request_id: `1a2b3c4d-5e6f-4071-8293-${hex}`,
      event_type: 'verification',
      model_and_expert_versions: ['scripted@1'],
      adaptive_artifact_refs: { capability: 'judge', judgment_family: 'stakes' },
      creator: 'system',
      source_node: 'node-1',
      outcome: { verdict: 'CONFORMANT', label: i % 2 ? 'SMALL' : 'LARGE', amount: i },
      scores: { confidence: 0.9, verification: 1 },
      created_at: 1_767_225_601_000 + i,
    };
    return { sources, draft };
  });
}

/** @returns {Promise<import('../lib/report.js').BenchResult>} */
export async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'canonry-bench-events-'));
  try {
    progress(SCOPE, `creating a keyring in ${dir}`);
    const keyring = await Keyring.init(dir);
    const signer = keyring.signer();
    const verifier = new QualifiedEventVerifier({ root: keyring.rootCertificatePem });
    const data = inputs();

    // Every input must resolve, sign and verify; the floor signs exactly the bytes canonry signed.
    progress(SCOPE, `assembling and verifying ${N} events once, collecting their signed bytes`);
    const bytes = data.map(({ sources, draft }, i) => {
      const made = assembleQualifiedEvent(draft, sources, { signer });
      if (!made.ok) throw new Error(`event ${i}: ${made.issues[0]?.message}`);
      const checked = verifier.verify(made.value, { sources });
      if (!checked.ok) throw new Error(`event ${i}: ${checked.issues[0]?.message}`);
      const { signature: _s, ...claims } = made.value;
      return eventBytes(claims);
    });
    const resolved = resolveGovernance(/** @type {any} */ (data[0]).sources);
    if (!resolved.ok || resolved.value.governance.privacy_scope !== 'compound') {
      throw new Error('the sources must resolve to a compound boundary');
    }
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const signatures = bytes.map((b) => sign(null, b, privateKey));
    progress(SCOPE, `typical signed event: ${bytes[1]?.length} bytes of canonical JSON`);

    const targets = /** @type {import('../lib/measure.js').Target[]} */ ([
      {
        name: FULL,
        fn: (i) => {
          const { sources, draft } = /** @type {any} */ (data[i & M]);
          const made = assembleQualifiedEvent(draft, sources, { signer });
          if (!made.ok || !verifier.verify(made.value).ok) throw new Error('refused');
          return made;
        },
      },
      {
        name: WITH_SOURCES,
        fn: (i) => {
          const { sources, draft } = /** @type {any} */ (data[i & M]);
          const made = assembleQualifiedEvent(draft, sources, { signer });
          if (!made.ok || !verifier.verify(made.value, { sources }).ok) throw new Error('refused');
          return made;
        },
      },
      {
        name: FLOOR,
        fn: (i) => {
          const message = /** @type {Buffer} */ (bytes[i & M]);
          const signature = sign(null, message, privateKey);
          if (!verify(null, message, publicKey, /** @type {Buffer} */ (signatures[i & M]))) {
            throw new Error('floor signature');
          }
          return signature;
        },
      },
    ]);
    const results = await compare(SCOPE, targets, { batch: 16 });
    const cpu = cpuRatios(targets);
    progress(SCOPE, `CPU-time ratio full/floor ${fmtRatio(cpu.full)} (${fmtSpread(cpu.fullIqr)})`);
    const r = ratio(results, FULL, FLOOR);
    const rSources = ratio(results, WITH_SOURCES, FLOOR);
    const spread = ratioSpread(results, FULL, FLOOR);
    progress(SCOPE, `ratio full/floor ${fmtRatio(r)} (target ≥ ${TARGET})`);
    const main = table(
      ['target', 'events/s (median of 15 rounds)', 'ratio to floor'],
      [
        [
          FULL,
          fmtInt(results[FULL]?.opsPerSec ?? 0),
          `**${fmtRatio(r)}** (${fmtSpread(spread)}; target ≥ ${TARGET}: ${r >= TARGET ? 'met' : 'NOT met'})`,
        ],
        [WITH_SOURCES, fmtInt(results[WITH_SOURCES]?.opsPerSec ?? 0), fmtRatio(rSources)],
        [FLOOR, fmtInt(results[FLOOR]?.opsPerSec ?? 0), '1.00×'],
      ],
    );
    const cpuTable = table(
      ['target', 'CPU µs per event (median of 31 slices)', 'ratio to floor (CPU time)'],
      [
        [
          FULL,
          cpu.micros[FULL]?.toFixed(0) ?? '',
          `**${fmtRatio(cpu.full)}** (${fmtSpread(cpu.fullIqr)})`,
        ],
        [WITH_SOURCES, cpu.micros[WITH_SOURCES]?.toFixed(0) ?? '', fmtRatio(cpu.sources)],
        [FLOOR, cpu.micros[FLOOR]?.toFixed(0) ?? '', '1.00×'],
      ],
    );
    return {
      name: 'events',
      title:
        'Qualified cognitive events resolved, signed and verified vs the Ed25519 sign + verify floor',
      tables: [main, cpuTable],
      data: {
        results,
        ratio: r,
        ratioIqr: spread,
        ratioWithSources: rSources,
        target: TARGET,
        met: r >= TARGET,
        signedBytes: bytes[1]?.length,
        cpu,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The same comparison in this process's CPU time (`process.cpuUsage`) rather than wall time: slices
 * of 256 operations per target, alternating, 31 rounds, the ratio taken per round. On a machine other
 * work is loading, time spent descheduled falls out of both sides.
 * @param {import('../lib/measure.js').Target[]} targets
 */
function cpuRatios(targets) {
  /** @type {Record<string, number[]>} */
  const per = Object.fromEntries(targets.map((t) => [t.name, []]));
  let i = 0;
  for (let round = 0; round < 31; round++) {
    const order = round % 2 === 0 ? targets : [...targets].reverse();
    for (const target of order) {
      const start = process.cpuUsage();
      for (let k = 0; k < 256; k++) target.fn(i++);
      const used = process.cpuUsage(start);
      per[target.name]?.push((used.user + used.system) / 256);
    }
  }
  const rounds = (/** @type {string} */ name) =>
    (per[name] ?? []).map((micros, r) => (per[FLOOR]?.[r] ?? Number.NaN) / micros);
  const full = rounds(FULL);
  return {
    full: median(full),
    fullIqr: /** @type {[number, number]} */ ([quantile(full, 0.25), quantile(full, 0.75)]),
    sources: median(rounds(WITH_SOURCES)),
    micros: Object.fromEntries(Object.entries(per).map(([name, list]) => [name, median(list)])),
  };
}

runIfMain(import.meta.url, main);
