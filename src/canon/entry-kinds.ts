import { defineEntryKind, type EntryKind } from '../journal/index.js';
import {
  classification,
  comparison,
  gateVerdict,
  hash,
  list,
  manifest,
  message,
  noteVersion,
  nullable,
  object,
  operation,
  principal,
  proposal,
  role,
  text,
} from './entry-schemas.js';
import type { ClassificationBody } from './intake-classification.js';
import type { ClassificationFailureBody } from './intake-failure.js';
import type { CanonEntryBodies } from './records.js';

/**
 * The kinds of entry canon writes, each with its body's type and schema (version 1: every canon
 * entry ever written) and what a live feed may show of it (ids, versions, outcomes; never note or
 * message text, comparisons, the gate's signed event, classifier output or failure details). The journal checks a body against its kind when it is appended and when it
 * is replayed; canon's projection reads bodies through these kinds, never by casting.
 */

/** An archived message, exactly as captured (§4). */
export const MESSAGE = defineEntryKind<CanonEntryBodies['canon.message']>({
  kind: 'canon.message',
  version: 1,
  schema: object({ message }),
  summary: ({ message: m }) => ({
    message_id: m.message_id,
    role: m.role,
    visibility: m.visibility ?? 'project',
  }),
});

/** A proposal with its comparison and gate verdict. */
export const PROPOSAL = defineEntryKind<CanonEntryBodies['canon.proposal']>({
  kind: 'canon.proposal',
  version: 1,
  schema: object({ proposal }),
  summary: ({ proposal: p }) => ({
    proposal_id: p.proposal_id,
    object_id: p.object_id,
    intent: p.intent,
    status: p.status,
    gate: p.gate.label,
    required_role: p.required_role,
  }),
});

/** A pending proposal compared again after canon moved. */
export const RECOMPARE = defineEntryKind<CanonEntryBodies['canon.recompare']>({
  kind: 'canon.recompare',
  version: 1,
  schema: object({
    proposal_id: text,
    base_version: nullable(hash),
    comparison,
    gate: gateVerdict,
    required_role: role,
  }),
  summary: (b) => ({
    proposal_id: b.proposal_id,
    gate: b.gate.label,
    required_role: b.required_role,
  }),
});

/** A version committed: the version, the §7 operation and what it made stale. */
export const COMMIT = defineEntryKind<CanonEntryBodies['canon.commit']>({
  kind: 'canon.commit',
  version: 1,
  schema: object({
    proposal_id: text,
    version: noteVersion,
    supersedes: list(text),
    operation,
    stale_artifacts: list(text),
  }),
  summary: (b) => ({
    proposal_id: b.proposal_id,
    object_id: b.version.note_id,
    version_id: b.version.version_id,
    version_hash: b.version.version_hash,
    supersedes: [...b.supersedes],
    stale_artifacts: [...b.stale_artifacts],
  }),
});

/** A proposal closed without committing (by a principal, or by canon itself). */
export const REJECT = defineEntryKind<CanonEntryBodies['canon.reject']>({
  kind: 'canon.reject',
  version: 1,
  schema: object({ proposal_id: text, by: nullable(principal), reason: text }),
  summary: (b) => ({ proposal_id: b.proposal_id, outcome: 'rejected', by: b.by?.id ?? null }),
});

/** A project's scripted-classifier configuration, whole. */
export const CLASSIFIER = defineEntryKind<CanonEntryBodies['canon.classifier']>({
  kind: 'canon.classifier',
  version: 1,
  schema: object({
    config: object({ subjects: { type: 'object' } }),
    by: nullable(principal),
    source: { enum: ['api', 'file'] },
  }),
  summary: (b) => ({ source: b.source }),
});

/** An artifact's manifest (§10). */
export const ARTIFACT = defineEntryKind<CanonEntryBodies['canon.artifact']>({
  kind: 'canon.artifact',
  version: 1,
  schema: object({ manifest, by: principal }),
  summary: ({ manifest: m }) => ({
    artifact_id: m.artifact_id,
    artifact_version: m.artifact_version,
    acceptance_state: m.acceptance_state,
  }),
});

/** A message's classification, journaled once. */
export const CLASSIFICATION = defineEntryKind<ClassificationBody>({
  kind: 'canon.classification',
  version: 1,
  schema: object({ message_id: text, classification }),
  summary: (b) => ({ message_id: b.message_id }),
});

/** A classification that failed (an outage or output refused). */
export const CLASSIFICATION_FAILED = defineEntryKind<ClassificationFailureBody>({
  kind: 'canon.classification_failed',
  version: 1,
  schema: object({
    message_id: text,
    code: text,
    detail: text,
    issues: list(text),
    classifier: text,
  }),
  summary: (b) => ({ message_id: b.message_id, code: b.code }),
});

/** What one intake made of a classified message's drafts, in draft order. */
export interface IntakeDoneBody {
  readonly message_id: string;
  readonly proposals: readonly (
    | { readonly ok: true; readonly proposal_id: string }
    | {
        readonly ok: false;
        readonly object_id: string;
        readonly code: string;
        readonly message: string;
      }
  )[];
}

/**
 * An intake finished proposing: the proposal each draft became, or the typed error that stopped
 * it. Journaled once per message (after its proposals), so a retry — in this process or another —
 * reports the first intake whole, failures included, and one racing it waits for it.
 */
export const INTAKE_DONE = defineEntryKind<IntakeDoneBody>({
  kind: 'canon.intake',
  version: 1,
  schema: object({
    message_id: text,
    proposals: list(
      object(
        { ok: { type: 'boolean' } },
        {
          proposal_id: text,
          object_id: text,
          code: text,
          message: text,
        },
      ),
    ),
  }),
  summary: (b) => ({ message_id: b.message_id, proposals: b.proposals.length }),
});

/** Every kind canon writes: register them all with the journal. */
export const CANON_ENTRY_KINDS: readonly EntryKind<unknown>[] = [
  MESSAGE,
  PROPOSAL,
  RECOMPARE,
  COMMIT,
  REJECT,
  ARTIFACT,
  CLASSIFICATION,
  CLASSIFICATION_FAILED,
  CLASSIFIER,
  INTAKE_DONE,
];
