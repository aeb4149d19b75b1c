import { Backoff, CanonryError, isCanonryError } from '../core/index.js';
import { bodySchema, defineEntryKind, type EntryInput, type Journal } from '../journal/index.js';
import { type AuditRecord, type AuditSink, VERDICT_CLASSES } from '../kernel/index.js';
import { isTransientStoreError, isUnknownOutcome } from '../store/index.js';
import { auditRecordBound } from './audit-record-bound.js';

// The kernel computed these hashes itself; the audit is the hottest append path (see `hashRef`).
const { hashRef: hash, list, nullable, object, oneOf, text } = bodySchema;

/** One audit record's fields besides its time. */
const RECORD_FIELDS = {
  protocol_hash: hash,
  protocol_slug: text,
  artifact_hash: nullable(hash),
  generation_metadata_hash: hash,
  class: oneOf(VERDICT_CLASSES),
  label: nullable(text),
  detail: object({ reason: text }),
  issuer: nullable(hash),
};

/** A `kernel.verdict` entry's body (one record per entry, its time the entry's): older chains. */
export type VerdictBody = Omit<AuditRecord, 'at'>;

/** The audit's entries as written before records were batched; registered so old chains replay. */
export const VERDICT = defineEntryKind<VerdictBody>({
  kind: 'kernel.verdict',
  version: 1,
  schema: object(RECORD_FIELDS),
});

/** The project the kernel's private audit records are journaled under. */
export const KERNEL_AUDIT_PROJECT = 'kernel';

/** The kind of the audit's entries: one entry carries the records of one batch, in order. */
export const AUDIT_ENTRY_KIND = 'kernel.verdicts';

/** A `kernel.verdicts` entry's body. */
export interface AuditEntryBody {
  /** The records, oldest first, each with its own time (`at`). */
  readonly records: readonly AuditRecord[];
}

/** The kernel's private reasoning, one batch of verdicts per entry, journaled in the project `kernel`. */
export const VERDICTS = defineEntryKind<AuditEntryBody>({
  kind: AUDIT_ENTRY_KIND,
  version: 1,
  schema: object({ records: list(object({ at: text, ...RECORD_FIELDS })) }),
});

/**
 * Most bytes of records one entry carries, by their upper bound (`auditRecordBound`, plus a comma
 * each): under the journal's 1 MiB body limit with room for the body's own brackets, so an entry is
 * never refused for its size.
 */
export const AUDIT_ENTRY_MAX_BYTES = 1_000_000;
/** Most records one entry carries. */
export const AUDIT_ENTRY_MAX_RECORDS = 512;

/** How audit records are batched into journal transactions. */
export interface AuditBatching {
  /** Records that trigger a write at once (default 2,048). */
  readonly maxRecords?: number;
  /** Longest a record waits for its batch (default 100 ms). */
  readonly maxDelayMs?: number;
  /**
   * Most records kept for another try while the store cannot take them (full, unreachable, busy):
   * default 100,000 (at most ~100 MB by the records' bound, far less in practice).
   */
  readonly maxRetained?: number;
}

/** The pause before retained records are tried again: doubling from the first to the most, jittered. */
const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

/**
 * Sends the kernel's private reasoning to the journal as `kernel.verdicts` entries, each carrying up
 * to {@link AUDIT_ENTRY_MAX_RECORDS} records (within {@link AUDIT_ENTRY_MAX_BYTES}). A verdict is
 * answered without waiting for its record: records are buffered and appended in batches (one
 * transaction, one fsync, per batch) and packed into few entries, so the per-entry work — the
 * entry's hash, its row, its index updates — is paid once per batch, not per verdict. `flush` and
 * `close` wait until every record so far is committed. A failed write is reported to `onError`,
 * never thrown into a request. A write the store refuses for now (a full disk, a database out of
 * reach, a lock) keeps its records, up to `maxRetained`, and tries them again with backoff ahead of
 * the newer ones: the first failure of such a run is reported, and so is every record dropped past
 * the bound; `close` tries once more and reports what it could not keep, and a record made after it
 * is refused (SHUTTING_DOWN, reported) rather than left for a write after the store closed.
 */
export class JournalAuditSink implements AuditSink {
  /** The entries of the batch being filled; the last one is open. */
  #entries: AuditRecord[][] = [];
  #open: AuditRecord[] = [];
  #openBytes = 0;
  #buffered = 0;
  readonly #writes = new Set<Promise<void>>();
  readonly #maxRecords: number;
  readonly #maxDelayMs: number;
  readonly #maxRetained: number;
  #timer: NodeJS.Timeout | undefined;
  /** Entries a transient failure refused, oldest first: written ahead of the next batch. */
  #retained: AuditRecord[][] = [];
  #retainedRecords = 0;
  /**
   * Writes that failed with their outcome unknown, which the journal can tell later: read back
   * before the next write, and written again only if they never committed (never twice).
   */
  #doubts: { readonly groups: readonly AuditRecord[][]; readonly err: unknown }[] = [];
  #doubtRecords = 0;
  readonly #retry = new Backoff({ firstMs: FIRST_RETRY_MS, maxMs: MAX_RETRY_MS });
  #retryTimer: NodeJS.Timeout | undefined;
  /** A transient failure was reported and no write has succeeded since. */
  #failing = false;
  #closing = false;
  /** `close` finished: nothing more is written (a later write would meet a closed store). */
  #closed = false;

  constructor(
    private readonly journal: Journal,
    private readonly onError: (err: unknown) => void = () => undefined,
    { maxRecords = 2048, maxDelayMs = 100, maxRetained = 100_000 }: AuditBatching = {},
    private readonly project = KERNEL_AUDIT_PROJECT,
  ) {
    this.#maxRecords = maxRecords;
    this.#maxDelayMs = maxDelayMs;
    this.#maxRetained = maxRetained;
  }

  /** Records kept for another try after the store refused them for now. */
  get retained(): number {
    return this.#retainedRecords + this.#doubtRecords;
  }

  record(entry: AuditRecord): void {
    if (this.#closed) {
      this.onError(
        new CanonryError(
          'SHUTTING_DOWN',
          'a kernel audit record arrived after the audit closed: it is not journaled',
        ),
      );
      return;
    }
    try {
      const bytes = auditRecordBound(entry) + 1;
      if (
        this.#open.length > 0 &&
        (this.#open.length >= AUDIT_ENTRY_MAX_RECORDS ||
          this.#openBytes + bytes > AUDIT_ENTRY_MAX_BYTES)
      ) {
        this.#seal();
      }
      if (this.#open.length === 0) this.#entries.push(this.#open);
      this.#open.push(entry);
      this.#openBytes += bytes;
      if (++this.#buffered >= this.#maxRecords) this.#write();
      else this.#timer ??= setTimeout(() => this.#write(), this.#maxDelayMs).unref();
    } catch (err) {
      // Recording runs inside a request and on a timer: a failure is reported, never thrown.
      this.onError(err);
    }
  }

  #seal(): void {
    this.#open = [];
    this.#openBytes = 0;
  }

  /**
   * Sends the buffered records (after the retained ones). While retained records wait out their
   * pause, a batch joins them instead (`now` — the retry itself, `flush` — sends at once): a store
   * that refuses writes is not asked again for every batch.
   */
  #write(now = false): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!now && this.#retryTimer !== undefined) {
      this.#keep(this.#entries);
      this.#entries = [];
      this.#buffered = 0;
      this.#seal();
      return;
    }
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#buffered === 0 && this.#retained.length === 0 && this.#doubts.length === 0) return;
    const groups = [...this.#retained, ...this.#entries];
    const doubts = this.#doubts;
    this.#doubts = [];
    this.#doubtRecords = 0;
    this.#retained = [];
    this.#retainedRecords = 0;
    this.#entries = [];
    this.#buffered = 0;
    this.#seal();
    // A lone entry would commit on the event loop's connection, its fsync included; two or more go
    // to the store's background writer (the journal's plain path). A batch of several records is
    // therefore always sent as at least two entries.
    const write: Promise<void> = this.#settle(doubts)
      .then((absent) => {
        const all = [...absent, ...groups];
        if (all.length === 0) return;
        const only = all.length === 1 ? all[0]! : undefined;
        if (only !== undefined && only.length > 1) {
          const half = Math.ceil(only.length / 2);
          all.splice(0, 1, only.slice(0, half), only.slice(half));
        }
        return this.#append(all).then(
          () => {
            this.#failing = false;
            this.#retry.reset();
          },
          (err: unknown) => this.#failed(all, err),
        );
      })
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  /**
   * Reads back the writes in doubt: stored ones are done, and the groups of those that never
   * committed are returned to be written again; the rest stay in doubt for the next try.
   */
  async #settle(
    doubts: readonly { readonly groups: readonly AuditRecord[][]; readonly err: unknown }[],
  ): Promise<AuditRecord[][]> {
    const absent: AuditRecord[][] = [];
    let waiting = false;
    for (const doubt of doubts) {
      const settled = await this.journal.settle(doubt.err).catch(() => undefined);
      if (settled === 'absent') absent.push(...doubt.groups);
      else if (settled === undefined) {
        this.#doubt(doubt.groups, doubt.err);
        waiting = true;
      }
    }
    if (waiting) this.#again();
    return absent;
  }

  /** Holds `groups`, written with their outcome unknown, until the journal can tell what they did. */
  #doubt(groups: readonly AuditRecord[][], err: unknown): void {
    this.#doubts.push({ groups, err });
    for (const group of groups) this.#doubtRecords += group.length;
  }

  /** Tries again after the backoff's next pause (once: a pending try takes everything). */
  #again(): void {
    const wait = this.#retry.next();
    this.#retryTimer ??= setTimeout(() => {
      this.#retryTimer = undefined;
      this.#write(true);
    }, wait).unref();
  }

  /** Keeps the records of a write the store refused for now, within the bound; reports the rest. */
  #failed(groups: readonly AuditRecord[][], err: unknown): void {
    // Transient failures (`isTransientStoreError`): a full disk, a database out of reach, a lock.
    if (this.#closing || !isTransientStoreError(err)) {
      this.onError(err);
      return;
    }
    if (!this.#failing) {
      this.#failing = true;
      this.onError(err);
    }
    // Records carry their own time: a batch that joined the retained ones while this write was in
    // flight may go before it. A write that may have committed is read back before it is written
    // again, when the journal can tell; otherwise it is written again (at least once).
    if (isUnknownOutcome(err) && this.journal.isSettleable(err)) this.#doubt(groups, err);
    else this.#keep(groups);
    this.#again();
  }

  /** Retains `groups` in order within `maxRetained`; what does not fit is dropped and reported. */
  #keep(groups: readonly AuditRecord[][]): void {
    let dropped = 0;
    for (const group of groups) {
      if (this.#retainedRecords + this.#doubtRecords + group.length > this.#maxRetained) {
        dropped += group.length;
        continue;
      }
      this.#retained.push(group);
      this.#retainedRecords += group.length;
    }
    if (dropped > 0) {
      this.onError(
        new CanonryError(
          'STORE_UNAVAILABLE',
          `${dropped} kernel audit records were dropped: ${this.#retainedRecords} are kept for the store to take (at most ${this.#maxRetained})`,
          { dropped },
        ),
      );
    }
  }

  /**
   * One transaction for the batch; if the journal refuses an entry of it (a malformed record is a
   * bug, but one bug must not cost the other records), the records go one entry each and only the
   * refused ones are reported.
   */
  async #append(groups: readonly AuditRecord[][]): Promise<void> {
    try {
      await this.journal.appendAll(this.project, groups.map(auditEntry));
    } catch (err) {
      const records = groups.flat();
      if (!isCanonryError(err, 'INVALID_ENTRY') || records.length === 1) throw err;
      for (const record of records) {
        await this.journal
          .append(this.project, auditEntry([record]))
          .catch((one: unknown) => this.onError(one));
      }
    }
  }

  /** Writes what is buffered and waits for every write in flight (retained records are tried too). */
  async flush(): Promise<void> {
    this.#write(true);
    while (this.#writes.size > 0) await Promise.all([...this.#writes]);
  }

  /** Flushes once more; records the store still refuses are reported, not kept. */
  async close(): Promise<void> {
    this.#closing = true;
    // Records that arrive while the last writes run go out with them, not on a timer after close.
    do await this.flush();
    while (this.#buffered > 0);
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (this.#doubtRecords > 0) {
      this.onError(
        new CanonryError(
          'STORE_UNAVAILABLE',
          `${this.#doubtRecords} kernel audit records were written with their outcome unknown and could not be read back before closing: they may or may not be in the journal`,
          { outcome: 'unknown', records: this.#doubtRecords },
        ),
      );
      this.#doubts = [];
      this.#doubtRecords = 0;
    }
  }
}

/** One `kernel.verdicts` entry; its authority names every issuer that signed one of its verdicts. */
function auditEntry(records: readonly AuditRecord[]): EntryInput {
  const issuers = new Set<string>();
  for (const { issuer } of records) if (issuer !== null) issuers.add(issuer);
  return VERDICTS.input(
    { records },
    { actor: 'kernel', authority: { issuers: [...issuers].sort() } },
  );
}
