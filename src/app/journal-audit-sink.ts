import type { EntryInput, Journal } from '../journal/index.js';
import type { AuditRecord, AuditSink } from '../kernel/index.js';

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
    const { at: _at, ...body } = entry;
    this.#buffer.push({
      kind: 'kernel.verdict',
      body: body as never,
      actor: 'kernel',
      authority: { issuer: entry.issuer },
    });
    if (this.#buffer.length >= this.#maxRecords) this.#write();
    else this.#timer ??= setTimeout(() => this.#write(), this.#maxDelayMs).unref();
  }

  #write(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#buffer.length === 0) return;
    const batch = this.#buffer.splice(0);
    const write: Promise<void> = this.journal
      .appendAll(this.project, batch)
      .then(
        () => undefined,
        (err: unknown) => this.onError(err),
      )
      .finally(() => this.#writes.delete(write));
    this.#writes.add(write);
  }

  async flush(): Promise<void> {
    this.#write();
    while (this.#writes.size > 0) await Promise.all([...this.#writes]);
  }

  close(): Promise<void> {
    return this.flush();
  }
}
