import type { ContentHash } from '../core/index.js';
import type { Queryable } from '../store/index.js';
import type { AppendContext } from './append-context.js';
import { insertStatements, readHead } from './append-statements.js';
import { appended } from './appended.js';
import { storeCheckpoint } from './checkpoint-rows.js';
import { buildEntry, rowHash } from './entry-hash.js';
import type { PreparedInput } from './entry-input.js';
import type { EntryRow } from './entry-row.js';
import { type AppendResult, ENTRY_FORMAT, type Head } from './types.js';

/** How long a project counts as contended after the last sign of another writer on its head. */
export const CONTENDED_MS = 2_000;

/** How often a process that parked looks whether it can stop listening (`#watchQuiet`). */
const QUIET_CHECK_MS = 500;

/** Parked appends chained by one statement or transaction at most; the rest wait for the next. */
const MAX_CHAIN = 256;

/** The channel a chain's places are announced on. */
const PARKED_CHANNEL = 'canonry_parked';

/**
 * How long a parked writer waits for its place to be announced before it asks the database: a
 * notification is a hint, so a lost one costs this much latency, never an append.
 */
const WAIT_MS = 50;

/** Places announced before their writer asked for them (a reply overtaken by a notification). */
const EARLY_MAX = 4_096;

/** A notification's payload stays under PostgreSQL's 8,000 bytes. */
const PAYLOAD_MAX = 7_000;

/**
 * How long after hearing a chain's places a project counts as led (another writer is chaining it):
 * its appends then only park, and leave the head to that writer.
 */
const LED_MS = 20;

/** A leader that finds nothing parked looks again this many times (ms apart) before it stops. */
const LINGER = [0, 0, 1, 1];

/**
 * The longest a leader waits for its last announcement to be sent before it chains again (the
 * wait is what lets that chain's writers park their next appends: see `#lead`).
 */
const ANNOUNCED_MS = 5;

/** The most announcements a leader waits for before it chains again (see `#announced`). */
const ANNOUNCED_ROUNDS = 4;

/** Parks an append and tries, without waiting, to chain (`canonry_park`, schema.ts). */
const PARK = `SELECT id, state, places
  FROM canonry_park($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

/** Parks an append and leaves it to the writer leading the project. */
const PARK_ONLY = `INSERT INTO journal_parked (project, at, kind, actor, correlation_id, body, authority, receipt)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, 'led' AS state, NULL AS places`;

/** Takes the head (waiting for it with $2) and chains the project's parked rows. */
const CHAIN = 'SELECT state, places FROM canonry_chain($1, $2::boolean, $3, $4, $5)';

/**
 * Where a parked row is: still parked, or chained — then its entry names it. One statement, one
 * snapshot: a chain deletes the row and inserts the entry in one transaction.
 */
const RESOLVE = `SELECT 'parked' AS state, NULL AS seq, NULL AS prev_hash, NULL AS hash
    FROM journal_parked WHERE id = $2
  UNION ALL
  SELECT 'placed', seq, prev_hash, hash FROM journal_entries
    WHERE project = $1 AND seq > $3 AND parked_id = $2`;

const UNPARK = 'DELETE FROM journal_parked WHERE id = $1';

/** The checkpoint case, chained here so the writer can sign it: the parked rows, under the head. */
const WAITING = `SELECT id, at, kind, actor, correlation_id, body, authority, receipt
  FROM journal_parked WHERE project = $1 ORDER BY id LIMIT ${MAX_CHAIN} FOR UPDATE`;
const STAMP = `UPDATE journal_entries AS e SET parked_id = x.id
  FROM json_to_recordset($2::json) AS x(id bigint, seq bigint)
  WHERE e.project = $1 AND e.seq = x.seq`;
const UNPARK_ALL = `DELETE FROM journal_parked AS p USING json_to_recordset($1::json) AS x(id bigint)
  WHERE p.id = x.id`;

/** Where a parked append landed in the chain (its `at` is the writer's own). */
interface Place {
  readonly seq: number;
  readonly prev_hash: ContentHash;
  readonly hash: ContentHash;
}

/** One chained row: its parked id and its place. */
interface Placed extends Place {
  readonly id: string;
}

/**
 * What became of a parked append so far: `placed` (with its place, from the database), `heard`
 * (with its place, from an announcement: a hint to check), `waiting` (parked; another writer
 * holds the head, or chained without it), `ask` (perhaps chained meanwhile: ask the database),
 * `no-head`, `checkpoint` (the next entry is one a checkpoint is due at, which a writer must
 * sign), `lost` (neither parked nor chained: the database restarted and emptied the unlogged
 * table — never acknowledged, never appended).
 */
type Outcome =
  | { readonly state: 'placed' | 'heard'; readonly place: Place }
  | { readonly state: 'waiting' | 'ask' | 'no-head' | 'checkpoint' | 'lost' };

/** What `canonry_chain` returns. */
interface ChainRow {
  readonly state: string;
  readonly places: string | null;
}

interface ParkedRow {
  readonly id: string | number;
  readonly at: string;
  readonly kind: string;
  readonly actor: string;
  readonly correlation_id: string | null;
  readonly body: string;
  readonly authority: string;
  readonly receipt: string;
}

/** A writer of this process waiting for its parked row's place. */
interface Waiter {
  readonly project: string;
  /** Its place, or undefined: stop waiting and ask the database. */
  wake(place: Place | undefined): void;
}

/**
 * Plain appends to a project whose head other processes keep moving (engines with row locks shared
 * by many processes: PostgreSQL). Each entry of a chain must take the head in turn, and a
 * transaction holds the head's lock through its commit's flush, so writers that each commit their
 * own entry serialise on one flush apiece. Here an append parks its canonical texts in
 * `journal_parked` (an unlogged table: no flush) and, in the same statement, tries to take the
 * head; whoever has it chains every parked row of the project inside the database — one statement,
 * one flush for the appends of every process — and, while rows keep arriving, goes on chaining
 * them: that writer leads the project until it finds nothing parked. Each chain's places are
 * announced (`NOTIFY`) after its commit; a parked writer takes its own from there, rebuilds its
 * entry from its own input and refuses to acknowledge a hash the chain did not commit. A writer
 * that hears nothing within WAIT_MS, or hears that the leader stopped without its row, asks the
 * database in one statement where its row is (still parked: it chains; chained: the entry names
 * it), so a lost notification costs latency, never an append.
 *
 * An append is acknowledged only once its entry is committed in the chain. A process that dies with
 * a row parked leaves it for the next writer to chain, like a transaction whose reply was lost; a
 * crash of the database empties the unlogged table, and the appends parked there were never
 * acknowledged. Idempotency keys, expected seqs, preconditions and projections never come here:
 * they decide under the head's lock in a transaction of their own.
 */
export class ParkedAppends {
  readonly #ctx: AppendContext;
  readonly #every: number;
  /** Per project, until when it counts as contended. */
  readonly #contended = new Map<string, number>();
  readonly #clock: () => number;
  readonly #waiting = new Map<string, Waiter>();
  readonly #early = new Map<string, Place>();
  /** Parks of this process whose reply is not in yet: only then are unclaimed places kept. */
  #parking = 0;
  /** Per project, how many times a writer chaining it announced that it stopped. */
  readonly #ended = new Map<string, number>();
  /** Per project, when a chain of it was last heard of (ms), while its writer has not stopped. */
  readonly #led = new Map<string, number>();
  /** Projects this process is chaining for everyone (see `#lead`). */
  readonly #leading = new Set<string>();
  /** Per project, the last announcement of places this process sent, until the database took it. */
  readonly #announcing = new Map<string, Promise<void>>();
  #unlisten: (() => void) | undefined;
  /** The timer that stops listening when this process is done with parking (`#watchQuiet`). */
  #quiet: NodeJS.Timeout | undefined;

  /** `every`: checkpoints are signed every this many entries (0: none). */
  constructor(ctx: AppendContext, every: number, clock: () => number = Date.now) {
    this.#ctx = ctx;
    this.#every = every;
    this.#clock = clock;
  }

  /** Another writer moved the head of `project` under this process (a compare-and-set failed). */
  contention(project: string): void {
    this.#contended.set(project, this.#clock() + CONTENDED_MS);
    this.#listen();
    this.#watchQuiet();
  }

  /**
   * Stops listening once no project is contended and no append of this process is parked: a
   * listening connection costs the database a wake-up for every notification anyone sends.
   */
  #watchQuiet(): void {
    if (this.#quiet) return;
    this.#quiet = setTimeout(() => {
      this.#quiet = undefined;
      const now = this.#clock();
      for (const [project, until] of this.#contended) {
        if (until <= now) this.#contended.delete(project);
      }
      const busy =
        this.#contended.size + this.#waiting.size + this.#leading.size + this.#parking > 0;
      if (busy) {
        this.#watchQuiet();
        return;
      }
      this.#unlisten?.();
      this.#unlisten = undefined;
    }, QUIET_CHECK_MS);
    this.#quiet.unref();
  }

  /** Whether plain appends to `project` should park: another writer moved its head recently. */
  contended(project: string): boolean {
    const until = this.#contended.get(project);
    if (until === undefined) return false;
    if (until > this.#clock()) return true;
    this.#contended.delete(project);
    return false;
  }

  /** Stops listening for places; writers still waiting ask the database. */
  close(): void {
    clearTimeout(this.#quiet);
    this.#quiet = undefined;
    this.#unlisten?.();
    this.#unlisten = undefined;
    this.#wakeAll();
  }

  /** Every waiter of this process (of `project`, if given) stops waiting and asks the database. */
  #wakeAll(project?: string): void {
    for (const [id, waiter] of this.#waiting) {
      if (project !== undefined && waiter.project !== project) continue;
      this.#waiting.delete(id);
      waiter.wake(undefined);
    }
  }

  /**
   * Appends one plain entry through the parking table; undefined when the project has no head yet
   * (the first append creates it in a transaction).
   */
  async append(project: string, input: PreparedInput): Promise<AppendResult[] | undefined> {
    const store = this.#ctx.store;
    const at = this.#ctx.now().toISOString();
    // Entries after this seq may hold the row; whatever the head was, it is at least this.
    const from = this.#ctx.heads.get(project)?.seq ?? 0;
    let ended = this.#ended.get(project) ?? 0;
    const texts = [
      project,
      at,
      input.kind,
      input.actor,
      input.correlation_id,
      input.bodyText,
      input.authorityText,
      input.receiptText,
    ];
    const led = (this.#led.get(project) ?? Number.NEGATIVE_INFINITY) > this.#clock() - LED_MS;
    this.#parking++;
    let parked: (ChainRow & { id: string | number }) | undefined;
    try {
      [parked] = await store.all<ChainRow & { id: string | number }>(
        led ? PARK_ONLY : PARK,
        led ? texts : [...texts, this.#every, ENTRY_FORMAT, MAX_CHAIN],
      );
    } catch (error) {
      this.#parked();
      throw error;
    }
    const id = String(parked!.id);
    const early = this.#early.get(id);
    this.#early.delete(id);
    this.#parked();
    let outcome: Outcome = early
      ? { state: 'heard', place: early }
      : this.#chained(project, parked!, id);
    let missed = 0;
    for (;;) {
      switch (outcome.state) {
        case 'placed':
        case 'heard': {
          const { entry } = buildEntry(
            project,
            outcome.place.seq,
            outcome.place.prev_hash,
            at,
            input,
          );
          if (entry.hash !== outcome.place.hash) {
            // An announcement is a hint: what the database holds decides.
            if (outcome.state === 'heard') {
              outcome = await this.#resolve(project, id, from, false);
              break;
            }
            // The chain holds other texts than this process parked: never acknowledge a different entry.
            throw new Error(`parked append at ${project} seq ${entry.seq} hashes differently`);
          }
          // Followers and checkpoint timers hear of it; the writer that chained it announced it.
          this.#ctx.committed({ project, seq: entry.seq, hash: entry.hash }, false);
          return [appended(entry, false)];
        }
        case 'waiting': {
          const place = await this.#wait(project, id, ended);
          if (place) {
            outcome = { state: 'heard', place };
            break;
          }
          ended = this.#ended.get(project) ?? 0;
          // Twice missed (the head held by a writer that does not chain parked rows), queue for
          // the head itself.
          outcome = await this.#resolve(project, id, from, ++missed > 2);
          break;
        }
        case 'ask':
          outcome = await this.#resolve(project, id, from, false);
          break;
        case 'checkpoint':
          outcome = await this.#chainHere(project, id);
          break;
        case 'no-head': {
          if ((await store.run(UNPARK, [id])) === 1) return undefined;
          outcome = await this.#resolve(project, id, from, false);
          if (outcome.state === 'waiting')
            throw new Error(`parked append ${id} of ${project} vanished`);
          break;
        }
        case 'lost':
          throw new Error(
            `parked append ${id} of ${project} is neither parked nor chained (the database restarted?): not appended`,
          );
      }
    }
  }

  #listen(): void {
    const notifications = this.#ctx.store.notifications;
    if (this.#unlisten || !notifications) return;
    this.#unlisten = notifications.listen(PARKED_CHANNEL, {
      message: (payload) => this.#heard(payload),
      // Listening (again): whatever was announced meanwhile is lost; every waiter asks.
      reset: () => this.#wakeAll(),
    });
  }

  /** Waits for row `id`'s place; undefined once it should ask the database instead. */
  #wait(project: string, id: string, ended: number): Promise<Place | undefined> {
    // A chain ended without this row since it was parked: nobody may be chaining it.
    if ((this.#ended.get(project) ?? 0) !== ended || !this.#unlisten) {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        resolve(undefined);
      }, WAIT_MS);
      this.#waiting.set(id, {
        project,
        wake: (place) => {
          clearTimeout(timer);
          resolve(place);
        },
      });
    });
  }

  /** An announcement: a chain's places, or that the writer chaining a project stopped. */
  #heard(payload: string): void {
    const lines = payload.split('\n');
    let header: unknown;
    try {
      header = JSON.parse(lines[0]!);
    } catch {
      return;
    }
    if (!Array.isArray(header) || typeof header[0] !== 'string') return;
    const [project, stopped] = header as [string, unknown];
    this.#deliver(parsePlaces(lines.slice(1)), true);
    if (stopped === true) this.#stopped(project);
    else this.#led.set(project, this.#clock());
  }

  /** Hands each place to its waiter in this process (or keeps it a while, if `keep`). */
  #deliver(places: readonly Placed[], keep: boolean): void {
    for (const place of places) {
      const waiter = this.#waiting.get(place.id);
      if (waiter) {
        this.#waiting.delete(place.id);
        waiter.wake(place);
      } else if (keep && this.#parking > 0) {
        // Perhaps the place of a row whose park reply is still on its way here.
        this.#early.set(place.id, place);
        if (this.#early.size > EARLY_MAX) this.#early.delete(this.#early.keys().next().value!);
      }
    }
  }

  /** A park's reply is in (its early place taken); with none left out, no place is kept. */
  #parked(): void {
    if (--this.#parking === 0) this.#early.clear();
  }

  /** The writer chaining `project` stopped: rows parked after its last look wait for nobody. */
  #stopped(project: string): void {
    this.#led.delete(project);
    this.#ended.set(project, (this.#ended.get(project) ?? 0) + 1);
    this.#wakeAll(project);
  }

  /**
   * What a `canonry_chain` row means for row `ownId` (undefined: none of this process's): a chain
   * committed by this process is announced, handed to this process's waiters, and followed by more
   * chains while rows keep arriving (`#lead`).
   */
  #chained(project: string, row: ChainRow, ownId: string | undefined): Outcome {
    switch (row.state) {
      case 'chained': {
        const places = parsePlaces((row.places ?? '').split('\n'));
        const last = places.at(-1)!;
        const own = this.#took(project, { project, seq: last.seq, hash: last.hash }, places, ownId);
        return own ? { state: 'placed', place: own } : { state: 'waiting' };
      }
      case 'busy':
        this.contention(project);
        return { state: 'waiting' };
      case 'idle':
        return { state: 'ask' };
      case 'led':
        return { state: 'waiting' };
      case 'no-head':
        return { state: 'no-head' };
      case 'checkpoint':
        return { state: 'checkpoint' };
      default:
        throw new Error(`unknown parked append state ${row.state}`);
    }
  }

  /**
   * A chain this process committed: the head moved, the places are announced and handed to this
   * process's waiters, and this process leads the project on (`#lead`) if the chain took other
   * writers' rows — a writer that chained only its own leaves the head, and says so, so that rows
   * parked meanwhile are chained by their writers at once. Returns the place of `ownId`, if chained.
   */
  #took(
    project: string,
    head: Head,
    places: readonly Placed[],
    ownId: string | undefined,
  ): Place | undefined {
    this.#ctx.committed(head);
    const lead = ownId === undefined || places.length > 1;
    this.#announce(project, places, !lead);
    const own = places.find((place) => place.id === ownId);
    this.#deliver(own ? places.filter((place) => place !== own) : places, false);
    if (lead) this.#lead(project);
    else this.#stopped(project);
    return own;
  }

  /**
   * Tells every process the places of a chain this process committed (after the commit), or that
   * this process stopped chaining the project (`stopped`).
   */
  #announce(project: string, places: readonly Placed[], stopped: boolean): void {
    const notifications = this.#ctx.store.notifications;
    if (!notifications) return;
    const payloads: string[] = [];
    const head = (last: boolean) => JSON.stringify([project, stopped && last]);
    let chunk = '';
    for (const place of places) {
      const line = `${place.id} ${place.seq} ${place.prev_hash} ${place.hash}`;
      if (chunk.length + line.length > PAYLOAD_MAX) {
        payloads.push(`${head(false)}\n${chunk}`);
        chunk = '';
      }
      chunk += `${line}\n`;
    }
    payloads.push(chunk ? `${head(true)}\n${chunk}` : head(true));
    // A hint: a writer that misses it asks the database after WAIT_MS.
    const sent = notifications.notify(PARKED_CHANNEL, payloads).catch(() => undefined);
    // A writer saying it stopped placed nobody else: no leader need wait for that to go out.
    if (stopped) return;
    this.#announcing.set(project, sent);
    void sent.then(() => {
      if (this.#announcing.get(project) === sent) this.#announcing.delete(project);
    });
  }

  /**
   * Resolves once the last announcement of places in `project` was sent, or ANNOUNCED_MS after
   * the wait for it began: a leader that chained again at once would find only the rows parked
   * during its last chain, while the writers that chain placed are still hearing of it; one round
   * trip later their next appends are parked too, and the next chain takes all of them under one
   * flush. Alternated with the code before on a 2-core host, four pairs: 0.26–0.28× → 0.29–0.35×
   * of raw INSERTs; chains of all 8 writers 13 % → 58–64 %.
   *
   * An append of this process may chain (and announce) while the leader waits: the leader then
   * waits for that announcement too, since the writers it placed are the ones still hearing of it,
   * at most ANNOUNCED_ROUNDS announcements in all.
   */
  async #announced(project: string): Promise<void> {
    for (let round = 0; round < ANNOUNCED_ROUNDS; round++) {
      const sent = this.#announcing.get(project);
      if (!sent) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), ANNOUNCED_MS);
      });
      const how = await Promise.race([sent, late]).finally(() => clearTimeout(timer));
      // Still the last one after ANNOUNCED_MS: waited long enough.
      if (how === 'late' && this.#announcing.get(project) === sent) return;
    }
  }

  /**
   * Goes on chaining `project` after a chain of this process committed: appends of every process
   * park while a chain commits, and one writer taking them all is cheaper than every waiter racing
   * for the head. Stops when nothing is parked (and says so: rows parked after that look are then
   * chained by their own writers) or when another writer holds the head (a parked writer that took
   * it leads now; any other is waited out, WAIT_MS at most, by the parked writers).
   */
  #lead(project: string): void {
    if (this.#leading.has(project)) return;
    this.#leading.add(project);
    const go = async (): Promise<void> => {
      let idle = 0;
      for (;;) {
        await this.#announced(project);
        const row = await this.#chain(project, false);
        switch (row.state) {
          case 'chained':
            idle = 0;
            this.#chained(project, row, undefined);
            break;
          case 'checkpoint':
            await this.#chainHere(project, undefined);
            break;
          case 'idle':
            if (idle < LINGER.length) {
              const ms = LINGER[idle++]!;
              await new Promise((resolve) =>
                ms ? setTimeout(resolve, ms) : setImmediate(resolve),
              );
              break;
            }
            this.#announce(project, [], true);
            this.#stopped(project);
            return;
          default:
            return;
        }
      }
    };
    // Leading is a courtesy: on an error the waiters find their rows parked and chain them.
    go()
      .catch(() => undefined)
      .finally(() => this.#leading.delete(project));
  }

  /** Asks the database where row `id` is; still parked, tries (or with `wait`, waits) to chain. */
  async #resolve(project: string, id: string, from: number, wait: boolean): Promise<Outcome> {
    const [row] = await this.#ctx.store.all<{
      state: string;
      seq: string | number | null;
      prev_hash: string | null;
      hash: string | null;
    }>(RESOLVE, [project, id, from]);
    if (!row) return { state: 'lost' };
    if (row.state === 'placed') {
      return {
        state: 'placed',
        place: {
          seq: Number(row.seq),
          prev_hash: row.prev_hash as ContentHash,
          hash: row.hash as ContentHash,
        },
      };
    }
    return this.#chained(project, await this.#chain(project, wait), id);
  }

  /** One `canonry_chain` of `project`: taking the head only if free, or with `wait`, waiting. */
  async #chain(project: string, wait: boolean): Promise<ChainRow> {
    const [row] = await this.#ctx.store.all<ChainRow>(CHAIN, [
      project,
      wait ? 'true' : 'false',
      this.#every,
      ENTRY_FORMAT,
      MAX_CHAIN,
    ]);
    return row!;
  }

  /**
   * The chain the database stopped: its next entry is one a checkpoint is due at, and only this
   * process holds a signer. Takes the head and chains the parked rows here, signing that checkpoint.
   */
  #chainHere(project: string, ownId: string | undefined): Promise<Outcome> {
    const ctx = this.#ctx;
    let chained: { head: Head; places: Placed[]; full: boolean } | undefined;
    return ctx.store
      .transaction(async (tx): Promise<Outcome> => {
        chained = undefined;
        const from = await readHead(tx, project, true);
        if (from.seq === 0) return { state: 'no-head' };
        const rows = await tx.all<ParkedRow>(WAITING, [project]);
        chained = await placeRows(ctx, tx, from, rows);
        return { state: 'ask' };
      })
      .then((outcome) => {
        if (!chained) return outcome;
        const { head, places, full } = chained;
        const own = this.#took(project, head, places, ownId);
        if (own) return { state: 'placed', place: own };
        // Not among the first MAX_CHAIN: the next chain takes it. Otherwise chained before.
        return full ? { state: 'waiting' } : outcome;
      });
  }
}

/**
 * Chains `rows` after `from` in this transaction (entries with their parked ids, checkpoints, the
 * head) and unparks them; undefined when there is nothing to chain.
 */
async function placeRows(
  ctx: AppendContext,
  tx: Queryable,
  from: Head,
  rows: readonly ParkedRow[],
): Promise<{ head: Head; places: Placed[]; full: boolean } | undefined> {
  if (rows.length === 0) return undefined;
  const values: (string | number | null)[] = [];
  const places: Placed[] = [];
  let seq = from.seq;
  let prev = from.hash;
  for (const row of rows) {
    seq++;
    const stored: [...EntryRow] = [
      from.project,
      seq,
      ENTRY_FORMAT,
      row.at,
      row.kind,
      row.body,
      row.actor,
      row.authority,
      row.correlation_id,
      null,
      row.receipt,
      prev,
      '',
    ];
    const hash = rowHash(stored);
    stored[12] = hash;
    for (const value of stored) values.push(value);
    places.push({ id: String(row.id), seq, prev_hash: prev, hash });
    if (ctx.checkpointDue(seq))
      await storeCheckpoint(tx, ctx.signCheckpoint(from.project, seq, hash));
    prev = hash;
  }
  for (const { sql, params } of insertStatements(values)) await tx.run(sql, params);
  const ids = JSON.stringify(places.map(({ id, seq }) => ({ id, seq })));
  await tx.run(STAMP, [from.project, ids]);
  await tx.run(UNPARK_ALL, [ids]);
  await tx.run('UPDATE journal_heads SET seq = $2, hash = $3 WHERE project = $1', [
    from.project,
    seq,
    prev,
  ]);
  return {
    head: { project: from.project, seq, hash: prev },
    places,
    full: rows.length === MAX_CHAIN,
  };
}

/** The places of chain lines; a malformed line is skipped (its writer asks the database). */
function parsePlaces(lines: readonly string[]): Placed[] {
  const places: Placed[] = [];
  for (const line of lines) {
    const [id, seq, prev, hash] = line.split(' ');
    if (!id || !seq || !prev || !hash || !/^\d+$/.test(id) || !/^\d+$/.test(seq)) continue;
    places.push({
      id,
      seq: Number(seq),
      prev_hash: prev as ContentHash,
      hash: hash as ContentHash,
    });
  }
  return places;
}
