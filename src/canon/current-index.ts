import type { CanonLookup } from './classification.js';
import { CurrentObjects } from './current-lookup.js';
import type { CanonReader } from './read.js';
import type { ObjectStatus } from './types.js';

/** The statuses a classifier is shown: current objects, not superseded or retired ones. */
export const CURRENT_STATUSES: readonly ObjectStatus[] = ['active', 'provisional', 'disputed'];
const CURRENT = new Set<ObjectStatus>(CURRENT_STATUSES);

/** How many projects' indexes a process keeps, the least recently used forgotten first. */
const KEPT_PROJECTS = 16;

/** One project's current objects as of the entry at `seq`, brought up to date before each use. */
class ProjectIndex {
  readonly objects = new CurrentObjects();
  /** The last entry whose writes of objects are held; -1 before the first read. */
  #seq = -1;
  /** Catch-ups run one at a time: two applied out of order could put back an older object. */
  #queue: Promise<void> = Promise.resolve();

  catchUp(reader: CanonReader): Promise<void> {
    const run = this.#queue.then(() => this.#pull(reader));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #pull(reader: CanonReader): Promise<void> {
    // First, the current objects alone (one snapshot); after, every object written since: one that
    // left the current statuses is dropped. Whatever changed after the first read has a later seq
    // than any row it returned, so starting from their highest seq misses nothing.
    const first = this.#seq < 0;
    const rows = first
      ? await reader.objectsAt(CURRENT_STATUSES)
      : await reader.objectsChangedAfter(this.#seq);
    let seq = first ? 0 : this.#seq;
    for (const row of rows) {
      if (CURRENT.has(row.object.status)) this.objects.put(row.object);
      else this.objects.drop(row.object.object_id);
      if (row.seq > seq) seq = row.seq;
    }
    this.#seq = seq;
  }
}

/**
 * The current canon of the projects this process takes messages for, kept between messages: intake
 * classifies against it, reading only the objects written since the last message (by any process)
 * instead of every current object of the project again.
 */
export class CurrentIndex {
  readonly #projects = new Map<string, ProjectIndex>();

  /** What `viewer` may read of `reader`'s project's current canon, caught up with its store. */
  async lookup(reader: CanonReader, viewer: string | null): Promise<CanonLookup> {
    let index = this.#projects.get(reader.project);
    if (index) this.#projects.delete(reader.project);
    else index = new ProjectIndex();
    this.#projects.set(reader.project, index);
    if (this.#projects.size > KEPT_PROJECTS) {
      this.#projects.delete(this.#projects.keys().next().value!);
    }
    await index.catchUp(reader);
    return index.objects.view(viewer);
  }
}
