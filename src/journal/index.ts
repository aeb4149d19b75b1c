export type { ForwardOptions } from './append-forwarded.js';
export { bodySchema } from './body-schema.js';
export {
  CHECKPOINT_TYPE,
  type Checkpoint,
  type CheckpointClaims,
  signCheckpoint,
  verifyCheckpoint,
} from './checkpoint.js';
export { canonicalBody, entryHash, genesisHash, withoutHash } from './entry-hash.js';
export { parseProject } from './entry-input.js';
export {
  type BodyIssue,
  type BodySchema,
  checkedPart,
  defineEntryKind,
  type EntryKind,
  type EntryKindSpec,
  EntryKinds,
  type EntryMeta,
  type EntrySummary,
  storedKind,
  type TypedEntry,
} from './entry-kind.js';
export { FEED_CHANNEL, type FollowOptions, type JournalFollower } from './follow.js';
export { Journal, type JournalOptions, type JournalStats, type Quarantine } from './journal.js';
export { requireJournal, type VerifyScope, verifyProject } from './maintenance.js';
export { type PruneResult, pruneProject } from './prune.js';
export { rebuildProject, verifyProjections, withProjectionCheck } from './rebuild.js';
export { receiptFor } from './receipt.js';
export { JOURNAL_MIGRATIONS } from './schema.js';
export {
  type ExportOptions,
  exportSegment,
  SEGMENT_TYPE,
  type SegmentHeader,
  type SegmentVerifyOptions,
  segmentRevocationList,
  verifySegment,
} from './segment.js';
export { type StartCheck, verifyOnStart } from './start-check.js';
export {
  type AffectedDependent,
  type AppendOptions,
  type AppendResult,
  type BreakReason,
  ENTRY_FORMAT,
  type EntryInput,
  type Head,
  type JournalEntry,
  type Projection,
  type Receipt,
  type ReceiptCheck,
  type ReceiptInput,
  type VerifyReport,
} from './types.js';
export { type ProjectionUpgrade, upgradeProjections } from './upgrade.js';
