import type { ContentHash } from '../core/index.js';
import type { Store } from '../store/index.js';
import type { Checkpoint } from './checkpoint.js';
import type { PreparedInput } from './entry-input.js';
import type { EntryKinds } from './entry-kind.js';
import type { Head, Projection } from './types.js';

/** What the append paths (solo, background, transaction) share with the journal that runs them. */
export interface AppendContext {
  readonly store: Store;
  /** The last committed head per project, as far as this process knows (it may be stale). */
  readonly heads: Map<string, Head>;
  /** The head each project will have once its background batches in flight commit. */
  readonly assumed: Map<string, Head>;
  /** The kinds every body was checked against on the way in, if the journal has them. */
  readonly kinds: EntryKinds | undefined;
  /** The clock stamped on entries (`at`). */
  now(): Date;
  /** The projections that consume a kind, in declaration order. */
  consumers(kind: string): readonly Projection[];
  /** Whether a checkpoint is due at `seq` (a signer, and every `checkpointEvery` entries). */
  checkpointDue(seq: number): boolean;
  /** Signs the checkpoint of the entry at `seq`. */
  signCheckpoint(project: string, seq: number, hash: ContentHash): Checkpoint;
  /**
   * A committed head: the newest this process knows unless it knew a later one. `announce: false`
   * when another process committed it, and announces it to followers itself.
   */
  committed(head: Head, announce?: boolean): void;
  /** Another writer moved the head of `project` since this process last knew it. */
  contention(project: string): void;
}

/** Appends that need no read and no decision: they may be committed by the background writer. */
export interface PlainAppend {
  readonly project: string;
  readonly inputs: readonly PreparedInput[];
  /** Forwarded entries' ids, one an input, stored as their `parked_id` (PostgreSQL). */
  readonly stamps?: readonly string[];
}
