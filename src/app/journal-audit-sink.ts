import { isCanonryError } from '../core/index.js';
import { bodySchema, defineEntryKind, type EntryInput, type Journal } from '../journal/index.js';
import { type AuditRecord, type AuditSink, VERDICT_CLASSES } from '../kernel/index.js';

// The kernel computed these hashes itself; the audit is the hottest append path (see `hashRef`).
const { hashRef: hash, nullable, object, oneOf, text } = bodySchema;

/** A `kernel.verdict` entry's body: the kernel's audit record, its time being the entry's. */
export type VerdictBody = Omit<AuditRecord, 'at'>;

/** The kernel's private reasoning for one verdict, journaled in the project `kernel`. */
export const VERDICT = defineEntryKind<VerdictBody>({
  kind: 'kernel.verdict',
  version: 1,
  schema: object({
    protocol_hash: hash,
    protocol_slug: text,
    artifact_hash: nullable(hash),
    generation_metadata_hash: hash,
    class: oneOf(VERDICT_CLASSES),
    label: nullable(text),
    detail: object({ reason: text }),
    issuer: nullable(hash),
  }),
});

/** The project the kernel's private audit records are journaled under. */
export const KERNEL_AUDIT_PROJECT = 'kernel';

/** How audit records are batched into journal transactions. */
export interface AuditBatching {
  /** Records that trigger a write at once (default 2,048). */
  readonly maxRecords?: number;
  /** Longest a record waits for its batch (default 100 ms). */
  readonly maxDelayMs?: number;
}

/**
 * Sends the kernel's private reasoning to the journal as `kernel.verdict` entries. A verdict is
 * answered without waiting for its record: records are buffered and appended in batches (one
 * transaction, one fsync, per batch), so auditing costs the request path almost nothing. `flush` and
 * `close` wait until every record so far is committed. A failed write is reported to `onError`, never
 * thrown into a request.
 */
export class JournalAuditSink implements AuditSink {
  readonly #buffer: EntryInput[] = [];
  readonly #writes = new Set<Promise<void>>();
  readonly #maxRecords: number;
  readonly #maxDelayMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly journal: Journal,
    private readonly onError: (err: unknown) => void = () => undefined,
    { maxRecords = 2048, maxDelayMs = 100 }: AuditBatching = {},
    private readonly project = KERNEL_AUDIT_PROJECT,
  ) {
    this.#maxRecords = maxRecords;
    this.#maxDelayMs = maxDelayMs;
  }

  record(entry: AuditRecord): void {
    try {
      const { at: _at, ...body } = entry;
      this.#buffer.push(
        VERDICT.input(body, { actor: 'kernel', authority: { issuer: entry.issuer } }),
      );
      if (this.#buffer.length >= this.#maxRecords) this.#write();
      else this.#timer ??= setTimeout(() => this.#write(), this.#maxDelayMs).unref();
    } catch (err) {
      // Recording runs inside a request and on a timer: a failure is reported, never thrown.
      this.onError(err);
    }
  }

  #write(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#buffer.length === 0) return;
    const batch = this.#buffer.splice(0);
    const write: Promise<void> = this.#append(batch)
      .catch((err: unknown) => this.onError(err))
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  /**
   * One transaction for the batch; if the journal refuses an entry of it (a malformed record is a
   * bug, but one bug must not cost the other records), the records go one by one and only the
   * refused ones are reported.
   */
  async #append(batch: EntryInput[]): Promise<void> {
    try {
      await this.journal.appendAll(this.project, batch);
    } catch (err) {
      if (!isCanonryError(err, 'INVALID_ENTRY') || batch.length === 1) throw err;
      for (const input of batch) {
        await this.journal.append(this.project, input).catch((one: unknown) => this.onError(one));
      }
    }
  }

  async flush(): Promise<void> {
    this.#write();
    while (this.#writes.size > 0) await Promise.all([...this.#writes]);
  }

  close(): Promise<void> {
    return this.flush();
  }
}
