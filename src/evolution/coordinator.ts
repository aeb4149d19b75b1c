import { randomBytes } from 'node:crypto';
import { Backoff, CanonryError, isCanonryError, type JsonObject } from '../core/index.js';
import type { Journal, JournalEntry, JournalFollower } from '../journal/index.js';
import type { Signer } from '../trust/index.js';
import { admitForPath } from './dispatch-path.js';
import {
  type DeliveryBody,
  EVOLUTION_DELIVERY,
  EVOLUTION_EVENT,
  type EventEntryBody,
} from './entry-kinds.js';
import { EventStore } from './event-store.js';
import type { GovernancePolicy } from './governance-types.js';
import { uuidFrom } from './ids.js';
import type { CoordinatorLease, LeaseHolder } from './lease.js';
import type {
  AssetSource,
  EvolutionTarget,
  SourceContext,
  SourceItem,
  TargetIssue,
} from './ports.js';
import { RetryClaims } from './retry-claim.js';
import { assembleQualifiedEvent } from './sign-event.js';

/** The actor evolution's entries are journaled under. */
export const EVOLUTION_ACTOR = 'evolution';

/** How a failing target is retried before its delivery is dead-lettered. */
export interface RetryPolicy {
  /** Attempts in all, first included (default 5). */
  readonly maxAttempts: number;
  /** Wait before the second attempt (ms); doubled each attempt after, capped at 30 s (default 500). */
  readonly backoffMs: number;
}

export interface CoordinatorOptions {
  readonly journal: Journal;
  /** The node's signer: the kernel's issuer under the keyring root (current after a rotation). */
  readonly signer: () => Signer;
  readonly sources: readonly AssetSource[];
  readonly targets: readonly EvolutionTarget[];
  /** The projects to follow; asked again every `discoverMs` to pick up new ones. */
  readonly projects: () => Promise<readonly string[]>;
  readonly governanceFor: (project: string) => GovernancePolicy;
  /** This node's id in `source_node`. */
  readonly sourceNode: string;
  /** The cursor's name in the store (several coordinators on one database keep their own). */
  readonly name?: string;
  readonly retry?: Partial<RetryPolicy>;
  readonly discoverMs?: number;
  readonly onError?: (err: unknown) => void;
  /** Sleeps between attempts (tests make it instant). */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * The lease that lets one coordinator per database dispatch: without it this one always does.
   * With it, the coordinator follows only while it holds the lease, tries to take or renew it
   * every `renewMs` (default a third of its time to live), and stands by otherwise.
   */
  readonly lease?: CoordinatorLease;
  readonly renewMs?: number;
}

/** Whether this coordinator dispatches, and who holds the lease. */
export interface CoordinatorRole {
  readonly role: 'leading' | 'standby' | 'stopped';
  /** This process's id among the lease's holders. */
  readonly holder: string | null;
  /** The lease as the database has it (null: none held). */
  readonly lease: LeaseHolder | null;
}

/** What the coordinator has done since it started. */
export interface CoordinatorStats {
  readonly entries: number;
  readonly events: number;
  /** Items whose governance could not be resolved (no event made: nothing is ever widened). */
  readonly rejected: number;
  readonly delivered: number;
  readonly refused: number;
  readonly deadLetters: number;
}

/** Cursor writes for entries that made no event are batched: a restart re-reads at most this many. */
const SKIP_FLUSH = 256;

/**
 * The evolution coordinator (GCS "Coordination Flow"): follows each project's journal from its own
 * cursor, turns entries into cognitive assets through the asset sources, resolves their governance,
 * assembles and signs events, stores each as an `evolution.event` entry in the project of its
 * origin — the cursor moves in the same transaction, and the entry's idempotency key names the
 * source entry and item, so a restart neither skips nor repeats an event — and dispatches them to
 * the targets that accept them, each admitted to the target's path first. A target that fails is
 * retried with backoff; when the attempts run out the delivery is journaled as a dead letter,
 * which can be retried. Everything runs in the background: failures go to `onError`.
 */
export class EvolutionCoordinator {
  readonly events: EventStore;
  readonly #o: CoordinatorOptions;
  readonly #name: string;
  readonly #retry: RetryPolicy;
  readonly #byKind = new Map<string, AssetSource[]>();
  readonly #targets = new Map<string, EvolutionTarget>();
  readonly #followers = new Map<string, { follower: JournalFollower; done: Promise<void> }>();
  /** Per followed project: the last seq handled and the last seq persisted. */
  readonly #cursors = new Map<string, { handled: number; saved: number }>();
  readonly #inFlight = new Set<Promise<void>>();
  /** Retries of dead letters running in this process, by project, event and target. */
  readonly #retrying = new Map<string, Promise<DeliveryBody>>();
  /** Which process retries each dead letter, across every process on the database. */
  readonly #claims: RetryClaims;
  readonly #context: SourceContext;
  #discover: NodeJS.Timeout | undefined;
  #stopped = true;
  /** Started (leading or standing by) until `stop`. */
  #running = false;
  #leaseTimer: NodeJS.Timeout | undefined;
  /** Ends the pauses between a delivery's attempts when `stop` is called. */
  #halt = halt();
  #tick: Promise<void> = Promise.resolve();
  /** The discovery running now: one at a time, and `stop` waits for it before the store closes. */
  #discovering: Promise<void> = Promise.resolve();
  #stats = { entries: 0, events: 0, rejected: 0, delivered: 0, refused: 0, deadLetters: 0 };

  constructor(options: CoordinatorOptions) {
    this.#o = options;
    this.#name = options.name ?? 'default';
    this.#claims = new RetryClaims(
      options.journal.store,
      options.lease?.holder ?? `retry:${randomBytes(8).toString('hex')}`,
    );
    this.#retry = {
      maxAttempts: options.retry?.maxAttempts ?? 5,
      backoffMs: options.retry?.backoffMs ?? 500,
    };
    // Its numbers are checked now, not when the first delivery fails.
    this.#pauses();
    for (const source of options.sources) {
      for (const kind of source.kinds) {
        this.#byKind.set(kind, [...(this.#byKind.get(kind) ?? []), source]);
      }
    }
    for (const target of options.targets) this.#targets.set(target.name, target);
    this.events = new EventStore(options.journal.store);
    this.#context = { governanceFor: options.governanceFor };
  }

  /** The registered targets' names. */
  targetNames(): string[] {
    return [...this.#targets.keys()];
  }

  stats(): CoordinatorStats {
    return { ...this.#stats };
  }

  /**
   * Starts: follows every project `projects()` names (and, every `discoverMs`, new ones) — at once
   * without a lease; with one, while it holds it, standing by otherwise.
   */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#halt = halt();
    const lease = this.#o.lease;
    if (!lease) return this.#begin();
    await this.#leaseStep();
    this.#leaseTimer = setInterval(
      () => void this.#leaseStep(),
      this.#o.renewMs ?? Math.max(Math.floor(lease.ttlMs / 3), 10),
    );
    this.#leaseTimer.unref();
  }

  /** Whether this coordinator dispatches (leading), stands by, or is stopped; who holds the lease. */
  async role(): Promise<CoordinatorRole> {
    const lease = this.#o.lease;
    return {
      role: !this.#running ? 'stopped' : this.#stopped ? 'standby' : 'leading',
      holder: lease?.holder ?? null,
      lease: lease ? await lease.current() : null,
    };
  }

  /** Takes or renews the lease, then leads or stands by; one step at a time. */
  #leaseStep(): Promise<void> {
    this.#tick = this.#tick.then(async () => {
      if (!this.#running) return;
      let held = false;
      try {
        held = await this.#o.lease!.acquire();
      } catch (err) {
        this.#report(err);
      }
      if (held && this.#stopped) await this.#begin();
      else if (!held && !this.#stopped) await this.#end();
    });
    return this.#tick.catch((err) => this.#report(err));
  }

  async #begin(): Promise<void> {
    if (!this.#stopped) return;
    this.#stopped = false;
    await this.#discoverProjects();
    this.#discover = setInterval(
      () => void this.#discoverProjects().catch((err) => this.#report(err)),
      this.#o.discoverMs ?? 5_000,
    );
    this.#discover.unref();
  }

  /**
   * Waits until every followed project has been handled up to the head it has now, and every
   * dispatch started meanwhile has settled (the demo and tests; nothing timed).
   */
  async idle(): Promise<void> {
    await this.#discoverProjects();
    for (;;) {
      const heads = await this.#o.journal.projects();
      const behind = heads.some(
        ({ project, seq }) =>
          this.#followers.has(project) && (this.#cursors.get(project)?.handled ?? 0) < seq,
      );
      if (!behind && this.#inFlight.size === 0) return;
      if (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
      else await new Promise((resolve) => setImmediate(resolve));
      if (this.#stopped) return;
    }
  }

  /** Stops following, waits for the work in flight, saves every cursor and gives the lease up. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#halt.resolve();
    clearInterval(this.#leaseTimer);
    await this.#tick.catch(() => undefined);
    await this.#end();
    await this.#o.lease?.release().catch((err) => this.#report(err));
  }

  async #end(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#discover);
    await this.#discovering;
    const running = [...this.#followers.values()];
    for (const { follower } of running) await follower.return();
    await Promise.allSettled(running.map((r) => r.done));
    await Promise.allSettled([...this.#inFlight]);
    this.#followers.clear();
    for (const [project, cursor] of this.#cursors) {
      if (cursor.handled > cursor.saved) {
        await this.#saveCursor(project, cursor.handled).catch((err) => this.#report(err));
      }
    }
    this.#cursors.clear();
  }

  /**
   * Dispatches a dead-lettered delivery again (only that target); resolves to the new delivery.
   * UNKNOWN_DEAD_LETTER when the event's delivery to the target is not a dead letter. A retry of
   * the same delivery asked while one runs in this process joins it: the target receives the
   * event once, and both answer that delivery. Across processes a retry first claims the dead
   * letter ({@link RetryClaims}): one asked while another process's runs is CONFLICT, one asked
   * after it journaled its outcome UNKNOWN_DEAD_LETTER — the target receives the event once.
   */
  retryDeadLetter(project: string, eventId: string, target: string): Promise<DeliveryBody> {
    const key = `${project}\u0000${eventId}\u0000${target}`;
    const running = this.#retrying.get(key);
    if (running) return running;
    const started = this.#retryDeadLetter(project, eventId, target).finally(() =>
      this.#retrying.delete(key),
    );
    this.#retrying.set(key, started);
    return started;
  }

  async #retryDeadLetter(project: string, eventId: string, target: string): Promise<DeliveryBody> {
    const stored = await this.events.get(project, eventId);
    const delivery = stored.deliveries.find((d) => d.target === target);
    if (delivery?.outcome !== 'dead_letter') {
      throw new CanonryError(
        'UNKNOWN_DEAD_LETTER',
        `the delivery of ${eventId.slice(0, 64)} to ${target.slice(0, 64)} is not a dead letter`,
      );
    }
    const found = this.#targets.get(target);
    if (!found) {
      throw new CanonryError('UNKNOWN_TARGET', `no target ${target.slice(0, 64)} is registered`);
    }
    const claim = await this.#claims.claim(project, eventId, target);
    if (claim === null) {
      // Another process retried it meanwhile (its outcome journaled), or is retrying it now.
      const now = (await this.events.deliveries(project, eventId)).find((d) => d.target === target);
      if (now?.outcome !== 'dead_letter') {
        throw new CanonryError(
          'UNKNOWN_DEAD_LETTER',
          `the delivery of ${eventId.slice(0, 64)} to ${target.slice(0, 64)} was retried: it is ${now?.outcome ?? 'gone'}`,
        );
      }
      throw new CanonryError(
        'CONFLICT',
        `another process is retrying the delivery of ${eventId.slice(0, 64)} to ${target.slice(0, 64)}`,
        { event_id: eventId.slice(0, 64), target: target.slice(0, 64) },
      );
    }
    const renewing = setInterval(
      () => void claim.renew().catch((err: unknown) => this.#report(err)),
      Math.max(1_000, Math.floor(this.#claims.ttlMs / 3)),
    ).unref();
    try {
      const outcome = await this.#deliver(project, stored, found);
      await claim.finish().catch((err: unknown) => this.#report(err));
      return outcome;
    } catch (err) {
      // Cut short by a stop, nothing was journaled: the dead letter may be retried again. Any other
      // failure leaves the claim to expire (the delivery may have been made).
      if (isCanonryError(err, 'SHUTTING_DOWN')) {
        await claim.release().catch((e: unknown) => this.#report(e));
      }
      throw err;
    } finally {
      clearInterval(renewing);
    }
  }

  /**
   * One discovery at a time: two would each follow a project they both found unfollowed, and a
   * stop must know what to wait for (a discovery it did not wait for reads a closed store).
   */
  #discoverProjects(): Promise<void> {
    const run = this.#discovering.then(() => this.#discoverOnce());
    this.#discovering = run.catch(() => undefined);
    return run;
  }

  async #discoverOnce(): Promise<void> {
    if (this.#stopped) return;
    for (const project of await this.#o.projects()) {
      if (this.#followers.has(project) || this.#stopped) continue;
      const [row] = await this.#o.journal.store.all<{ seq: number | string }>(
        'SELECT seq FROM evolution_cursors WHERE coordinator = $1 AND project = $2',
        [this.#name, project],
      );
      if (this.#stopped) return;
      const after = row ? Number(row.seq) : 0;
      this.#cursors.set(project, { handled: after, saved: after });
      const follower = this.#o.journal.follow(project, { after });
      const done = this.#run(project, follower);
      this.#followers.set(project, { follower, done });
      // Events stored before a stop cut their dispatch short.
      this.#track(this.#redeliver(project));
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
      // Follow again from where this one got to, unless stopping.
      this.#followers.delete(project);
    }
  }

  async #handle(entry: JournalEntry): Promise<void> {
    const cursor = this.#cursors.get(entry.project)!;
    this.#stats.entries++;
    const sources = this.#byKind.get(entry.kind) ?? [];
    const items: { source: AssetSource; item: SourceItem; index: number }[] = [];
    for (const source of sources) {
      try {
        (await source.read(entry, this.#context)).forEach((item, index) => {
          items.push({ source, item, index });
        });
      } catch (err) {
        // The store failing for now is not the entry's fault: its events are made when it answers
        // again (the follower stops short of it and is started again from the cursor). Anything
        // else is the entry's or the source's, and would fail the same way every time.
        if (storeFailedForNow(err)) throw err;
        this.#report(err);
      }
    }
    let stored = 0;
    for (const [i, { source, item, index }] of items.entries()) {
      const last = i === items.length - 1;
      if (await this.#store(entry, source, item, index, last)) stored++;
    }
    cursor.handled = entry.seq;
    if (stored === 0 || items.length === 0) {
      if (cursor.handled - cursor.saved >= SKIP_FLUSH)
        await this.#saveCursor(entry.project, entry.seq);
    } else {
      cursor.saved = entry.seq;
    }
  }

  /** Makes, stores and dispatches one event; false when its governance cannot be resolved. */
  async #store(
    entry: JournalEntry,
    source: AssetSource,
    item: SourceItem,
    index: number,
    last: boolean,
  ): Promise<boolean> {
    const key = `evolution:${entry.project}:${entry.seq}:${source.name}:${index}`;
    const assembled = assembleQualifiedEvent(
      {
        ...item.draft,
        event_id: uuidFrom(`${key}:${entry.hash}`),
        request_id: uuidFrom(`request:${entry.correlation_id ?? key}`),
        source_node: this.#o.sourceNode,
        created_at: Date.parse(entry.at),
      },
      item.assets,
      { signer: this.#o.signer() },
    );
    if (!assembled.ok) {
      this.#stats.rejected++;
      const issue = assembled.issues[0]!;
      this.#report(
        Object.assign(new Error(`no event from ${key}: ${issue.code}: ${issue.message}`), {
          code: issue.code,
        }),
      );
      // Saved with the next event's transaction or the next batch of skipped entries.
      return false;
    }
    const event = assembled.value;
    const targets = [...this.#targets.values()].filter((t) => t.accepts(event)).map((t) => t.name);
    const body: EventEntryBody = {
      event,
      origin: {
        project: entry.project,
        seq: entry.seq,
        kind: entry.kind,
        source: source.name,
        item: index,
      },
      targets,
      sources: item.assets,
    };
    const cursorSeq = last ? entry.seq : entry.seq - 1;
    const result = await this.#o.journal.append(
      item.project,
      EVOLUTION_EVENT.input(body, { actor: EVOLUTION_ACTOR, idempotency_key: key }),
      {
        effects: (tx) =>
          tx
            .run(
              `INSERT INTO evolution_cursors (coordinator, project, seq) VALUES ($1, $2, $3)
             ON CONFLICT (coordinator, project) DO UPDATE SET seq = excluded.seq
             WHERE excluded.seq > evolution_cursors.seq`,
              [this.#name, entry.project, cursorSeq],
            )
            .then(() => undefined),
      },
    );
    if (result.duplicate) return true;
    this.#stats.events++;
    const stored = { ...body, seq: result.entry.seq, deliveries: [] };
    for (const name of targets) {
      this.#track(this.#dispatch(item.project, stored, this.#targets.get(name)!));
    }
    return true;
  }

  async #redeliver(project: string): Promise<void> {
    for (const stored of await this.events.undelivered(project, 1_000)) {
      const done = new Set(stored.deliveries.map((d) => d.target));
      for (const name of stored.targets) {
        const target = this.#targets.get(name);
        if (target && !done.has(name)) await this.#dispatch(project, stored, target);
      }
    }
  }

  /** {@link #deliver} in the background: a delivery a stop cut short is left pending, unreported. */
  async #dispatch(project: string, stored: EventEntryBody, target: EvolutionTarget): Promise<void> {
    await this.#deliver(project, stored, target).catch((err: unknown) => {
      if (!isCanonryError(err, 'SHUTTING_DOWN')) throw err;
    });
  }

  /**
   * Delivers one stored event to one target: admitted to the target's path (else refused with the
   * reason), received (the target verifies it), retried with backoff while the target says the
   * failure is transient, then journaled as delivered, refused or dead-lettered.
   */
  async #deliver(
    project: string,
    stored: EventEntryBody,
    target: EvolutionTarget,
  ): Promise<DeliveryBody> {
    const { event } = stored;
    let outcome: DeliveryBody;
    const admitted = admitForPath(event, target.path);
    if (!admitted.ok) {
      outcome = refusal(event.event_id, target.name, 0, admitted.issues[0]!);
    } else {
      let attempts = 0;
      const pauses = this.#pauses();
      for (;;) {
        attempts++;
        const received = await target
          .receive({ project, event, sources: stored.sources })
          .catch((err: unknown): { ok: false; issue: TargetIssue; retry: boolean } => ({
            ok: false,
            issue: { code: 'TARGET_UNAVAILABLE', message: messageOf(err) },
            retry: true,
          }));
        if (received.ok) {
          outcome = delivered(event.event_id, target.name, attempts, received.record);
          break;
        }
        if (received.retry !== true) {
          outcome = refusal(event.event_id, target.name, attempts, received.issue);
          break;
        }
        if (attempts >= this.#retry.maxAttempts) {
          outcome = {
            ...refusal(event.event_id, target.name, attempts, received.issue),
            outcome: 'dead_letter',
          };
          break;
        }
        // A stop does not wait out the backoff: nothing is journaled, so the event stays pending
        // and is dispatched again when the project is next followed. (Waited out, a stop took
        // every remaining attempt and pause — minutes with a long retry policy.)
        if (!this.#running) throw cutShort();
        await Promise.race([(this.#o.sleep ?? sleep)(pauses.next()), this.#halt.promise]);
        if (!this.#running) throw cutShort();
      }
    }
    await this.#o.journal.append(
      project,
      EVOLUTION_DELIVERY.input(outcome, { actor: EVOLUTION_ACTOR }),
    );
    if (outcome.outcome === 'delivered') this.#stats.delivered++;
    else if (outcome.outcome === 'refused') this.#stats.refused++;
    else this.#stats.deadLetters++;
    return outcome;
  }

  /**
   * The pauses between one delivery's attempts: `retry.backoffMs` doubling to 30 s, without jitter
   * (one coordinator leads and delivers, so there is no crowd of retries to spread).
   */
  #pauses(): Backoff {
    return new Backoff({ firstMs: this.#retry.backoffMs, maxMs: 30_000, jitter: false });
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

  #track(work: Promise<unknown>): void {
    const p: Promise<void> = work.then(
      () => undefined,
      (err: unknown) => this.#report(err),
    );
    this.#inFlight.add(p);
    void p.finally(() => this.#inFlight.delete(p));
  }

  #report(err: unknown): void {
    try {
      this.#o.onError?.(err);
    } catch {
      // A reporter that throws must not take the coordinator down.
    }
  }
}

function delivered(
  eventId: string,
  target: string,
  attempts: number,
  record: JsonObject | null,
): DeliveryBody {
  return {
    event_id: eventId,
    target,
    outcome: 'delivered',
    attempts,
    code: null,
    reason: null,
    record,
  };
}

function refusal(
  eventId: string,
  target: string,
  attempts: number,
  issue: TargetIssue,
): DeliveryBody {
  return {
    event_id: eventId,
    target,
    outcome: 'refused',
    attempts,
    code: issue.code,
    reason: issue.message.slice(0, 2048),
    record: null,
  };
}

/** A promise and the function that resolves it. */
function halt(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A delivery a stop cut short between attempts: left pending, dispatched again at the next start. */
function cutShort(): CanonryError {
  return new CanonryError(
    'SHUTTING_DOWN',
    'the coordinator stopped between attempts; the delivery is made again when it next runs',
  );
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A failure of the store that may pass (unreachable, busy): what a later attempt can get past. */
function storeFailedForNow(err: unknown): boolean {
  return isCanonryError(err, 'STORE_UNAVAILABLE') || isCanonryError(err, 'STORE_BUSY');
}
