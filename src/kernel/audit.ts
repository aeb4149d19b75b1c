import { createWriteStream, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { type ContentHash, makeDirectory } from '../core/index.js';
import type { VerdictClass, VerdictDetail } from './verdict.js';

/**
 * The private, server-side record of how the kernel reached a verdict (TCP/AP §6: the detail MAY be
 * retained, MUST NOT be returned). It never holds key material.
 */
export interface AuditRecord {
  readonly at: string;
  readonly protocol_hash: ContentHash;
  readonly protocol_slug: string;
  readonly artifact_hash: ContentHash | null;
  readonly generation_metadata_hash: ContentHash;
  readonly class: VerdictClass;
  readonly label: string | null;
  readonly detail: VerdictDetail;
  readonly issuer: ContentHash | null;
}

/** Where the kernel sends its private reasoning. */
export interface AuditSink {
  record(entry: AuditRecord): void;
  /** Resolves once every record so far is durably written. */
  flush(): Promise<void>;
  /** Flushes and releases whatever the sink holds. */
  close(): Promise<void>;
}

/** An audit sink that appends one JSON line per verdict to a file, buffered by a write stream. */
export class FileAuditSink implements AuditSink {
  readonly #stream: WriteStream;

  constructor(path: string) {
    makeDirectory(dirname(path));
    this.#stream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  }

  record(entry: AuditRecord): void {
    this.#stream.write(`${JSON.stringify(entry)}\n`);
  }

  flush(): Promise<void> {
    return new Promise((done) => {
      if (this.#stream.writableNeedDrain) this.#stream.once('drain', () => done());
      else this.#stream.write('', () => done());
    });
  }

  close(): Promise<void> {
    return new Promise((done, failed) => {
      this.#stream.end((err?: Error | null) => (err ? failed(err) : done()));
    });
  }
}

/** An audit sink that keeps at least the most recent `limit` records in memory (tests, embedding). */
export class MemoryAuditSink implements AuditSink {
  readonly records: AuditRecord[] = [];

  constructor(private readonly limit = 10_000) {}

  record(entry: AuditRecord): void {
    this.records.push(entry);
    // Trim in bulk once the buffer doubles, so recording stays O(1) amortised.
    if (this.records.length >= this.limit * 2)
      this.records.splice(0, this.records.length - this.limit);
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {}
}
