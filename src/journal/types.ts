import type { ContentHash, JsonValue } from '../core/index.js';
import type { Queryable } from '../store/index.js';

/** The record format written today; older formats are upgraded when read. */
export const ENTRY_FORMAT = 1;

/** What a caller supplies to append one entry. */
export interface EntryInput {
  /**
   * Dotted lowercase name of what happened (`kernel.verdict`, `canon.commit`, …): the stored name of
   * a registered kind. Build inputs with the kind (`KIND.input(body, meta)`) to have the body typed.
   */
  readonly kind: string;
  /** JSON; checked against its kind's schema when the journal has registered kinds. */
  readonly body: unknown;
  /** Who caused it (a principal id, `kernel`, a model route). */
  readonly actor: string;
  /** The authority it was done under, taken from the authenticated principal — never the payload. */
  readonly authority?: JsonValue;
  readonly correlation_id?: string | null;
  /** A repeat of a key already in the project returns the first result and appends nothing. */
  readonly idempotency_key?: string | null;
  /** What the receipt should carry besides the chain facts (LCSM §7). */
  readonly receipt?: ReceiptInput | null;
}

/** The caller's part of a receipt: its checks, warnings and what it affects. */
export interface ReceiptInput {
  readonly checks?: readonly ReceiptCheck[];
  readonly warnings?: readonly string[];
  readonly uncertainty?: string | null;
  readonly affected_dependents?: readonly AffectedDependent[];
  readonly rollback_route?: string | null;
  readonly acceptance_state?: 'accepted' | 'provisional' | 'rejected';
}

/**
 * Something an entry made stale: an id (entries written before dependents were described), or the
 * dependent with its kind, its depth below what moved and the state it is in now.
 */
export type AffectedDependent =
  | string
  | {
      readonly id: string;
      readonly kind: string;
      readonly depth: number;
      readonly state: string;
      /** Why, in words (e.g. `storage.engine moved v1 → v2 via a → b`). */
      readonly cause: string;
    };

/** One named check and its result. */
export interface ReceiptCheck {
  readonly name: string;
  readonly result: 'pass' | 'fail' | 'warn' | 'skip';
  readonly detail?: string;
}

/** One entry of a project's chain. `hash = sha256(JCS(entry without hash))`. */
export interface JournalEntry {
  readonly project: string;
  readonly seq: number;
  readonly format: number;
  readonly at: string;
  readonly kind: string;
  /** Narrow it with its kind: `KIND.is(entry)` or `KIND.body(entry)` check it against the schema. */
  readonly body: unknown;
  readonly actor: string;
  readonly authority: JsonValue;
  readonly correlation_id: string | null;
  readonly idempotency_key: string | null;
  readonly receipt: ReceiptInput | null;
  readonly prev_hash: ContentHash;
  readonly hash: ContentHash;
}

/** A project's head: the last seq and its hash (seq 0 and the genesis hash when empty). */
export interface Head {
  readonly project: string;
  readonly seq: number;
  readonly hash: ContentHash;
}

/** The LCSM §7 receipt for one entry, derived from the entry alone so `rebuild` reproduces it. */
export interface Receipt {
  readonly receipt_id: string;
  readonly request_ref: string;
  readonly prior_state_ref: { readonly seq: number; readonly hash: ContentHash };
  readonly result_state_ref: { readonly seq: number; readonly hash: ContentHash };
  readonly checks: readonly ReceiptCheck[];
  readonly warnings: readonly string[];
  readonly uncertainty: string | null;
  readonly affected_dependents: readonly AffectedDependent[];
  readonly rollback_route: string;
  readonly acceptance_state: 'accepted' | 'provisional' | 'rejected';
  readonly hash_chain_parent: ContentHash;
  readonly receipt_hash: ContentHash;
}

/** The outcome of one append. */
export interface AppendResult {
  readonly entry: JournalEntry;
  readonly receipt: Receipt;
  /** True when the idempotency key had been seen: nothing was appended. */
  readonly duplicate: boolean;
}

/** Options for an append. */
export interface AppendOptions {
  /** The head seq the caller read; CONFLICT (409, with the current head) if it moved. */
  readonly expectedSeq?: number;
  /**
   * Runs inside the append transaction, after the head lock and before anything is written; a
   * CanonryError it throws refuses this append alone. Projections use it for optimistic concurrency
   * on their own rows (an object's `base_version`). `head` is the project's head under the lock:
   * what this append follows (a caller that planned at a head can tell nothing moved since).
   */
  readonly precondition?: (tx: Queryable, head: Head) => Promise<void>;
  /**
   * Writes to the caller's own tables in the append transaction, after the entries: the entries and
   * these writes commit together or not at all (a token row and its `auth.token.issued` entry). It
   * must not fail for expected reasons — decide those in `precondition`.
   */
  readonly effects?: (tx: Queryable, results: readonly AppendResult[]) => Promise<void>;
}

/**
 * A projection: tables derived from the journal. It declares the entry kinds it consumes and the
 * tables it owns, and applies one entry inside the append transaction. `rebuild` clears its tables
 * for the project and replays every entry, which must give exactly the live rows.
 */
export interface Projection {
  readonly name: string;
  /** The kinds it consumes, or `'*'` for every entry. */
  readonly kinds: readonly string[] | '*';
  /** The tables it owns; each has a `project` column. */
  readonly tables: readonly string[];
  /**
   * What `apply` makes of the same entries. Change it whenever that changes (a new table, a new
   * field): a journal opened on a store whose tables an older version wrote rebuilds them from the
   * journal ({@link upgradeProjections}). A projection without one is never rebuilt on open.
   */
  readonly version?: number;
  apply(tx: Queryable, entry: JournalEntry): Promise<void>;
  /**
   * Writes what `apply` left for the end of the transaction (rows it would otherwise insert and
   * then update): called once after the entries of an append's transaction, before it commits,
   * and during a rebuild after each page of entries and at its end. Nothing in the transaction
   * reads those rows between an `apply` and its `settle` but the projection itself.
   */
  settle?(tx: Queryable): Promise<void>;
}

/** Why a chain does not verify, at the first seq that breaks it. */
export type BreakReason =
  | 'missing-entry'
  | 'reordered'
  | 'body-changed'
  | 'hash-rewritten'
  | 'link-broken'
  | 'head-mismatch'
  | 'checkpoint-mismatch'
  | 'unreadable'
  /** A projection table differs from what replaying the journal makes of it. */
  | 'projection-mismatch';

/** The result of walking a chain. */
export interface VerifyReport {
  readonly project: string;
  readonly ok: boolean;
  /** Entries walked. */
  readonly checked: number;
  readonly head: { readonly seq: number; readonly hash: ContentHash };
  readonly broken: {
    readonly seq: number;
    readonly reason: BreakReason;
    readonly detail: string;
  } | null;
  /** Signed checkpoints that were checked against the chain. */
  readonly checkpoints: number;
  /** The last pruned seq, when a prefix was pruned (the chain is verified from its signed anchor). */
  readonly base?: number;
  /**
   * Entries after the last signed checkpoint, and when the oldest of them was appended: the window
   * in which an edit of the database could still go unnoticed.
   */
  readonly unsigned?: { readonly entries: number; readonly since: string | null };
  /** Projection tables compared with a replay of the journal, when asked; the first that differs. */
  readonly projections?: { readonly checked: readonly string[]; readonly mismatch: string | null };
}
