import type { Journal } from '../journal/index.js';
import type { AuditRecord, AuditSink } from '../kernel/index.js';

/** The project the kernel's private audit records are journaled under. */
export const KERNEL_AUDIT_PROJECT = 'kernel';

/**
 * Sends the kernel's private reasoning to the journal as `kernel.verdict` entries. The verdict is
 * answered without waiting for the write; appends are group-committed, and `close` waits for every
 * one still in flight. A failed write is reported to `onError`, never thrown into a request.
 */
export class JournalAuditSink implements AuditSink {
  readonly #pending = new Set<Promise<unknown>>();

  constructor(
    private readonly journal: Journal,
    private readonly onError: (err: unknown) => void = () => undefined,
    private readonly project = KERNEL_AUDIT_PROJECT,
  ) {}

  record(entry: AuditRecord): void {
    const { at: _at, ...body } = entry;
    const write = this.journal
      .append(this.project, {
        kind: 'kernel.verdict',
        body: body as never,
        actor: 'kernel',
        authority: { issuer: entry.issuer },
      })
      .catch(this.onError)
      .finally(() => this.#pending.delete(write));
    this.#pending.add(write);
  }

  async flush(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  close(): Promise<void> {
    return this.flush();
  }
}
