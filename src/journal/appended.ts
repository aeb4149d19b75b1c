import { receiptFor } from './receipt.js';
import type { AppendResult, JournalEntry, Receipt } from './types.js';

/**
 * An append's result. Its receipt is computed the first time it is read: most callers (the audit
 * sink, batch loaders) never look, and hashing a receipt per entry would be wasted. A class, not an
 * object literal with a getter: V8 gives each such literal a map of its own and a closure, ~0.5 us
 * per append.
 */
class Appended implements AppendResult {
  #receipt: Receipt | undefined;
  constructor(
    readonly entry: JournalEntry,
    readonly duplicate: boolean,
  ) {}
  get receipt(): Receipt {
    this.#receipt ??= receiptFor(this.entry);
    return this.#receipt;
  }
  /** Serialised like a plain result, receipt included. */
  toJSON(): { entry: JournalEntry; receipt: Receipt; duplicate: boolean } {
    return { entry: this.entry, receipt: this.receipt, duplicate: this.duplicate };
  }
}

/** The result of appending (or, for a duplicate, having appended) `entry`. */
export function appended(entry: JournalEntry, duplicate: boolean): AppendResult {
  return new Appended(entry, duplicate);
}
