import { isCanonryError } from '../core/index.js';
import type { Journal, JournalEntry, JournalFollower } from '../journal/index.js';
import { activePromotions, reachedProjects } from './promotion-activation.js';
import { RUNTIME_ACTOR } from './promotion-actor.js';
import type { PromotionRunner } from './promotion-runner.js';
import type { PromotionArtifactKind } from './promotion-types.js';

/** One sample of a promotion's metric, read from one entry (a completed relay window). */
export interface CanarySample {
  /** The promotion's own project: its observations are journaled there. */
  readonly project: string;
  readonly promotion_id: string;
  readonly arm: 'canary' | 'baseline';
  /** Unique per sample (`canary:<promotion>:<project>:<session>:<window>`): counted once, ever. */
  readonly key: string;
  /** Every metric the entry measures, by name, each in [0, 1]; the promotion's own is taken. */
  readonly metrics: Readonly<Record<string, number>>;
}

/** The port that turns an entry into samples (app fills it from the relay; evolution cannot). */
export interface SampleReader {
  /** The artifact kind whose canaries it measures: which projects to follow. */
  readonly artifactKind: PromotionArtifactKind;
  /** The entry kinds it reads. */
  readonly kinds: readonly string[];
  /**
   * The projects whose journals hold its entries while a canary of its kind is open, when they are
   * not the projects the canary reaches (the kernel's audit keeps every validation's verdict in one
   * project of its own); absent: the reached projects.
   */
  readonly projects?: readonly string[];
  read(entry: JournalEntry): Promise<readonly CanarySample[]>;
}

export interface CanaryCollectorOptions {
  readonly journal: Journal;
  readonly runner: PromotionRunner;
  readonly readers: readonly SampleReader[];
  /** The cursor's name in `evolution_cursors` (default `canary`). */
  readonly name?: string;
  /** How often it looks for canaries opened or ended (default 2 s). */
  readonly discoverMs?: number;
  readonly onError?: (err: unknown) => void;
}

/** What the collector has done since it started. */
export interface CollectorStats {
  readonly entries: number;
  /** Observations journaled (or found already journaled under their key). */
  readonly observed: number;
  /** Samples not posted: the canary had ended, or the entry lacks the promotion's metric. */
  readonly skipped: number;
}

const FLUSH = 256;
const TRIES = 6;

/**
 * Collects canary metrics on its own: follows the journal of every project an open canary reaches
 * (its own project and the named projects that admit it), from a cursor of its own, and turns each sample a
 * reader finds (a completed window of a session in an arm) into an observation of the promotion,
 * journaled in the promotion's project under the sample's idempotency key — so a restart that
 * reads an entry again counts nothing twice, and a cursor saved late loses nothing. Samples of a
 * promotion no longer in its canary are not posted. The runner decides (rolls back or promotes) as
 * soon as both arms have their minimum sample.
 */
export class CanaryCollector {
  readonly #o: CanaryCollectorOptions;
  readonly #name: string;
  readonly #byKind = new Map<string, SampleReader[]>();
  readonly #followers = new Map<string, { follower: JournalFollower; done: Promise<void> }>();
  readonly #cursors = new Map<string, { handled: number; saved: number }>();
  /** For a reader's own project: when the earliest open canary it measures began. */
  readonly #openedAt = new Map<string, string>();
  #discover: NodeJS.Timeout | undefined;
  #stopped = true;
  #discovering: Promise<void> = Promise.resolve();
  #stats = { entries: 0, observed: 0, skipped: 0 };

  constructor(options: CanaryCollectorOptions) {
    this.#o = options;
    this.#name = options.name ?? 'canary';
    for (const reader of options.readers) {
      for (const kind of reader.kinds) {
        this.#byKind.set(kind, [...(this.#byKind.get(kind) ?? []), reader]);
      }
    }
  }

  stats(): CollectorStats {
    return { ...this.#stats };
  }

  /** Starts following the projects open canaries reach (looked for again every `discoverMs`). */
  async start(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    await this.#discoverProjects();
    this.#discover = setInterval(
      () => void this.#discoverProjects().catch((err) => this.#report(err)),
      this.#o.discoverMs ?? 2_000,
    );
    this.#discover.unref();
  }

  /**
   * Waits until every project an open canary reaches is handled up to its head now (tests, the
   * demo; nothing timed).
   */
  async idle(): Promise<void> {
    await this.#discoverProjects();
    for (;;) {
      const heads = await this.#o.journal.projects();
      const behind = heads.some(
        ({ project, seq }) =>
          this.#followers.has(project) && (this.#cursors.get(project)?.handled ?? 0) < seq,
      );
      if (!behind || this.#stopped) return;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Stops following and saves every cursor. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#discover);
    await this.#discovering;
    const running = [...this.#followers.values()];
    for (const { follower } of running) await follower.return();
    await Promise.allSettled(running.map((r) => r.done));
    this.#followers.clear();
    for (const [project, cursor] of this.#cursors) {
      if (cursor.handled > cursor.saved) {
        await this.#saveCursor(project, cursor.handled).catch((err) => this.#report(err));
      }
    }
  }

  /**
   * The projects whose entries hold samples now: for each measured kind with an open canary, the
   * reader's own projects (noting when the earliest such canary opened), or else the projects
   * those canaries reach.
   */
  async #reached(): Promise<Set<string>> {
    const projects = new Set<string>();
    this.#openedAt.clear();
    for (const reader of this.#o.readers) {
      const open = (await activePromotions(this.#o.journal.store, reader.artifactKind)).filter(
        (p) => p.stage === 'canary',
      );
      if (open.length === 0) continue;
      if (reader.projects === undefined) {
        for (const p of open) for (const q of reachedProjects(p)) projects.add(q);
        continue;
      }
      const since = open.map((p) => p.since).sort()[0]!;
      for (const q of reader.projects) {
        projects.add(q);
        const known = this.#openedAt.get(q);
        if (known === undefined || since < known) this.#openedAt.set(q, since);
      }
    }
    return projects;
  }

  /**
   * The seq of the last entry of `project` made before `time` (0: none), by bisection over its
   * journal (entries are appended in time order): a few single-entry reads, not a scan.
   */
  async #lastBefore(project: string, time: string, head: number): Promise<number> {
    let low = 0; // every entry up to `low` is before `time`
    let high = head; // the entry at `high + 1` and after are not (none past the head)
    while (low < high) {
      const mid = Math.floor((low + high + 1) / 2);
      const [entry] = await this.#o.journal.read(project, { after: mid - 1, limit: 1 });
      if (entry !== undefined && entry.at < time) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** One discovery at a time: two would each follow a project they both found unfollowed. */
  #discoverProjects(): Promise<void> {
    const run = this.#discovering.then(() => this.#discoverOnce());
    this.#discovering = run.catch(() => undefined);
    return run;
  }

  async #discoverOnce(): Promise<void> {
    if (this.#stopped) return;
    const reached = await this.#reached();
    for (const [project, { follower }] of this.#followers) {
      if (reached.has(project)) continue;
      // No open canary reaches it any more: what it appends from now on is no sample.
      await follower.return();
    }
    const heads = new Map((await this.#o.journal.projects()).map((p) => [p.project, p.seq]));
    for (const project of reached) {
      if (this.#followers.has(project) || this.#stopped || !heads.has(project)) continue;
      const [row] = await this.#o.journal.store.all<{ seq: number | string }>(
        'SELECT seq FROM evolution_cursors WHERE coordinator = $1 AND project = $2',
        [this.#name, project],
      );
      // Without a cursor, from the first entry: a session started under a canary is in this
      // project's journal after it, and nothing older is a sample. A reader's own project (the
      // kernel's audit, as long as the node) is followed from the first entry made after the
      // earliest open canary began: nothing before it is a sample.
      const opened = this.#openedAt.get(project);
      const after = row
        ? Number(row.seq)
        : opened === undefined
          ? 0
          : await this.#lastBefore(project, opened, heads.get(project) ?? 0);
      this.#cursors.set(project, { handled: after, saved: after });
      const follower = this.#o.journal.follow(project, { after, limit: 500 });
      this.#followers.set(project, { follower, done: this.#run(project, follower) });
    }
  }

  async #run(project: string, follower: JournalFollower): Promise<void> {
    try {
      for await (const entry of follower) {
        await this.#handle(entry);
        if (this.#stopped) break;
      }
    } catch (err) {
      this.#report(err);
    } finally {
      // Followed again from its saved cursor when a canary reaches it next (samples are keyed).
      if (this.#followers.get(project)?.follower === follower) this.#followers.delete(project);
      const cursor = this.#cursors.get(project);
      if (cursor && cursor.handled > cursor.saved) {
        await this.#saveCursor(project, cursor.handled).catch((err) => this.#report(err));
      }
    }
  }

  async #handle(entry: JournalEntry): Promise<void> {
    const cursor = this.#cursors.get(entry.project)!;
    this.#stats.entries++;
    for (const reader of this.#byKind.get(entry.kind) ?? []) {
      for (const sample of await reader.read(entry)) await this.#post(sample);
    }
    cursor.handled = entry.seq;
    if (cursor.handled - cursor.saved >= FLUSH) await this.#saveCursor(entry.project, entry.seq);
  }

  /** Posts one sample as an observation of one session (samples 1), unless its canary ended. */
  async #post(sample: CanarySample): Promise<void> {
    const runner = this.#o.runner;
    for (let attempt = 1; ; attempt++) {
      try {
        const state = await runner.get(sample.project, sample.promotion_id);
        const value = sample.metrics[state.candidate.metric.name];
        if (state.stage !== 'canary' || value === undefined || !Number.isFinite(value)) {
          this.#stats.skipped++;
          return;
        }
        await runner.observe(
          sample.project,
          RUNTIME_ACTOR,
          sample.promotion_id,
          { arm: sample.arm, value: Math.min(1, Math.max(0, value)), samples: 1 },
          { idempotencyKey: sample.key },
        );
        this.#stats.observed++;
        return;
      } catch (err) {
        // Decided (or rolled back by hand) between the read and the append: no longer a canary.
        if (
          isCanonryError(err, 'PROMOTION_ILLEGAL_TRANSITION') ||
          isCanonryError(err, 'UNKNOWN_PROMOTION')
        ) {
          this.#stats.skipped++;
          return;
        }
        if (isCanonryError(err, 'CONFLICT') && attempt < TRIES) continue;
        throw err;
      }
    }
  }

  async #saveCursor(project: string, seq: number): Promise<void> {
    await this.#o.journal.store.run(
      `INSERT INTO evolution_cursors (coordinator, project, seq) VALUES ($1, $2, $3)
       ON CONFLICT (coordinator, project) DO UPDATE SET seq = excluded.seq
       WHERE excluded.seq > evolution_cursors.seq`,
      [this.#name, project, seq],
    );
    const cursor = this.#cursors.get(project);
    if (cursor && seq > cursor.saved) cursor.saved = seq;
  }

  #report(err: unknown): void {
    try {
      this.#o.onError?.(err);
    } catch {
      // a failing reporter must not take the collector down
    }
  }
}
