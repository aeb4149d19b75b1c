import { isContentHash } from '../core/index.js';
import type { JournalEntry } from '../journal/index.js';
import { entryAsset } from './asset-of-entry.js';
import { EVOLUTION_BENCHMARK, EVOLUTION_FEEDBACK } from './entry-kinds.js';
import type { AssetSource, SourceContext, SourceItem } from './ports.js';
import { KERNEL_VERDICT_CLASS, type KernelVerdictOutcome } from './replay-outcomes.js';

/** The project events from the kernel's audit are stored in: the audit belongs to no project. */
export const EVOLUTION_SYSTEM_PROJECT = 'evolution';

/** The kind the kernel's audit batches are journaled as (declared in `app`, read here by shape). */
const KERNEL_VERDICTS = 'kernel.verdicts';

interface VerdictRecordShape {
  readonly class?: unknown;
  readonly protocol_slug?: unknown;
  readonly protocol_hash?: unknown;
  readonly artifact_hash?: unknown;
  readonly generation_metadata_hash?: unknown;
  readonly label?: unknown;
  readonly issuer?: unknown;
}

/**
 * Most `kernel.verdict` events one audit entry (up to 512 records) makes: the first verdict on each
 * distinct (protocol, artifact, metadata) pair, in record order, up to this many. The rest are in
 * the batch's counts only.
 */
export const MAX_VERDICT_EVENTS_PER_BATCH = 16;

/** A record's verdict in `kernelVerdictOutcome`'s shape, or null when it names no artifact. */
function verdictOutcome(r: VerdictRecordShape): KernelVerdictOutcome | null {
  if (
    !isContentHash(r.protocol_hash) ||
    !isContentHash(r.artifact_hash) ||
    !isContentHash(r.generation_metadata_hash) ||
    typeof r.class !== 'string' ||
    (r.label !== null && typeof r.label !== 'string') ||
    (r.issuer !== null && !isContentHash(r.issuer))
  )
    return null;
  return {
    protocol_hash: r.protocol_hash,
    artifact_hash: r.artifact_hash,
    generation_metadata_hash: r.generation_metadata_hash,
    class: r.class,
    label: r.label,
    issuer: r.issuer,
  };
}

/** One replayable `kernel.verdict` item per distinct verdict of the batch, bounded. */
function verdictItems(
  entry: JournalEntry,
  records: readonly VerdictRecordShape[],
  context: SourceContext,
): SourceItem[] {
  const items: SourceItem[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    if (items.length === MAX_VERDICT_EVENTS_PER_BATCH) break;
    const outcome = verdictOutcome(r);
    if (outcome === null) continue;
    const key = `${outcome.protocol_hash} ${outcome.artifact_hash} ${outcome.generation_metadata_hash}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push({
      project: EVOLUTION_SYSTEM_PROJECT,
      assets: [
        entryAsset(entry, 'kernel.verdict', context.governanceFor(EVOLUTION_SYSTEM_PROJECT)),
      ],
      draft: {
        event_type: 'verification',
        creator: 'system',
        outcome: { ...outcome },
        scores: { verification: outcome.class === 'CONFORMANT' ? 1 : 0 },
        model_and_expert_versions: [outcome.protocol_hash],
        adaptive_artifact_refs: { capability: 'judge' },
        replay: {
          plan_ref: `kernel:${outcome.protocol_hash}`,
          policy_versions: [outcome.protocol_hash],
          seeds: [],
          execution_class: KERNEL_VERDICT_CLASS,
          validators: ['kernel.decide'],
        },
      },
    });
  }
  return items;
}

/**
 * Kernel verdicts (the `kernel.verdicts` audit batches): one `verification` event per batch, its
 * outcome the count of each verdict class and the protocols judged — never a verdict's reasons,
 * which stay the kernel's private audit — then one replayable `kernel.verdict` event per distinct
 * verdict of the batch (at most {@link MAX_VERDICT_EVENTS_PER_BATCH}): its outcome the verdict's
 * hashes, class, label and issuer, replayed from the artifact whose hash it names. Stored in
 * {@link EVOLUTION_SYSTEM_PROJECT}.
 */
export const KERNEL_VERDICT_SOURCE: AssetSource = {
  name: 'kernel-verdicts',
  kinds: [KERNEL_VERDICTS],
  read(entry, context) {
    const records = (entry.body as { records?: unknown }).records;
    if (!Array.isArray(records) || records.length === 0) return [];
    const classes: Record<string, number> = {};
    const protocols = new Set<string>();
    const versions = new Set<string>();
    for (const r of records as VerdictRecordShape[]) {
      if (typeof r.class === 'string') classes[r.class] = (classes[r.class] ?? 0) + 1;
      if (typeof r.protocol_slug === 'string') protocols.add(r.protocol_slug);
      if (typeof r.protocol_hash === 'string') versions.add(r.protocol_hash);
    }
    const conformant = classes.CONFORMANT ?? 0;
    return [
      {
        project: EVOLUTION_SYSTEM_PROJECT,
        assets: [
          entryAsset(entry, 'kernel.verdict', context.governanceFor(EVOLUTION_SYSTEM_PROJECT)),
        ],
        draft: {
          event_type: 'verification',
          creator: 'system',
          outcome: {
            records: records.length,
            classes,
            protocols: [...protocols].sort().slice(0, 64),
          },
          scores: { verification: round(conformant / records.length) },
          model_and_expert_versions: [...versions].sort().slice(0, 64),
          adaptive_artifact_refs: { capability: 'judge' },
        },
      },
      ...verdictItems(entry, records as VerdictRecordShape[], context),
    ];
  },
};

/**
 * User feedback (`evolution.feedback`): a `memory` event — with `remember`, what the person wants
 * canon to hold, which the memory target turns into a proposal.
 */
export const FEEDBACK_SOURCE: AssetSource = {
  name: 'user-feedback',
  kinds: [EVOLUTION_FEEDBACK.kind],
  read(entry, context) {
    if (!EVOLUTION_FEEDBACK.is(entry)) return [];
    const f = entry.body;
    return [
      item(entry, context.governanceFor(entry.project), 'user.feedback', [f.subject], {
        event_type: 'memory',
        creator: 'user',
        outcome: {
          feedback_id: f.feedback_id,
          subject: f.subject,
          score: f.score,
          remember: f.remember === null ? null : { title: f.remember.title, text: f.remember.text },
        },
        scores: { user_feedback: f.score },
        model_and_expert_versions: [],
        adaptive_artifact_refs: {},
      }),
    ];
  },
};

/** Benchmark results (`evolution.benchmark`): a `benchmark` event for the replay dataset. */
export const BENCHMARK_SOURCE: AssetSource = {
  name: 'benchmark-results',
  kinds: [EVOLUTION_BENCHMARK.kind],
  read(entry, context) {
    if (!EVOLUTION_BENCHMARK.is(entry)) return [];
    const b = entry.body;
    return [
      item(entry, context.governanceFor(entry.project), 'benchmark.result', [], {
        event_type: 'benchmark',
        creator: 'system',
        outcome: { result_id: b.result_id, suite: b.suite, case: b.case, passed: b.passed },
        scores: { verification: b.score, execution_success: b.passed ? 1 : 0 },
        model_and_expert_versions: b.model === null ? [] : [b.model],
        adaptive_artifact_refs: {},
      }),
    ];
  },
};

/** The sources evolution itself provides (canon's and the relay's are app's). */
export const BUILT_IN_SOURCES: readonly AssetSource[] = [
  KERNEL_VERDICT_SOURCE,
  FEEDBACK_SOURCE,
  BENCHMARK_SOURCE,
];

/** One item: the entry as the one asset of an event stored in the entry's own project. */
export function item(
  entry: JournalEntry,
  governance: Parameters<typeof entryAsset>[2],
  kind: Parameters<typeof entryAsset>[1],
  derivedFrom: readonly string[],
  draft: SourceItem['draft'],
): SourceItem {
  return {
    project: entry.project,
    assets: [entryAsset(entry, kind, governance, derivedFrom)],
    draft,
  };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
