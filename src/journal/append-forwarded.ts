import { randomUUID } from 'node:crypto';
import { type AddressInfo, createServer as plainServer, type Server, type Socket } from 'node:net';
import { createServer as tlsServer } from 'node:tls';
import { CanonryError, type ContentHash } from '../core/index.js';
import type { Store } from '../store/index.js';
import { appended } from './appended.js';
import { buildEntry } from './entry-hash.js';
import { checkInput, type PreparedInput, parseProject } from './entry-input.js';
import type { EntryKinds } from './entry-kind.js';
import { type EntryRow, rowToEntry, SELECT_ENTRIES } from './entry-row.js';
import { claimLease, LEASE_MS, type Lease, releaseLease } from './forward-lease.js';
import { ForwardLink, NotSent } from './forward-link.js';
import { isLoopback, leaderTls, publishedAddress } from './forward-tls.js';
import {
  failedLine,
  GREETING,
  HELLO_MS,
  MAX_FORWARDED_ENTRIES,
  MAX_HELLO_CHARS,
  MAX_LINE_CHARS,
  newForwardId,
  newToken,
  parseLine,
  placedLine,
  readForwardIds,
  readLines,
  tokenMatches,
  writeLine,
} from './forward-wire.js';
import type { AppendResult, Head } from './types.js';

/**
 * The inputs' entries at the places given, when those are consecutive and each place's hash is
 * the one the input's entry has there; undefined otherwise.
 */
function placedEntries(
  project: string,
  inputs: readonly PreparedInput[],
  places: readonly { seq: number; at: string; prev_hash: string; hash: string }[],
): AppendResult[] | undefined {
  if (places.length !== inputs.length) return undefined;
  const results: AppendResult[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const place = places[i]!;
    if (i > 0 && (place.seq !== places[i - 1]!.seq + 1 || place.prev_hash !== places[i - 1]!.hash))
      return undefined;
    const { entry } = buildEntry(
      project,
      place.seq,
      place.prev_hash as ContentHash,
      place.at,
      inputs[i]!,
    );
    if (entry.hash !== place.hash) return undefined;
    results.push(appended(entry, false));
  }
  return results;
}

/**
 * Forwarded appends: one process leads a contended project and the others send it their plain
 * appends over TCP, so a hot project's appends from many processes share one group commit again.
 * See "Forwarded appends" in the README for the design and its guarantees.
 */

/** Where a process takes appends forwarded to it, and how long its writers wait for a leader. */
export interface ForwardOptions {
  /** The interface to listen on (default `127.0.0.1`: processes of one host). */
  readonly host?: string;
  /** The port (default 0: any free one). */
  readonly port?: number;
  /** The `host:port` other processes reach this one at (default: as listened). */
  readonly advertise?: string;
  /**
   * Whether the wire is TLS keyed by the lease's token (forward-tls.ts). Default: TLS unless `host`
   * is a loopback address, whose peers are processes of this host.
   */
  readonly tls?: boolean;
  /** How long a writer waits for the leader's answer before it appends itself (default 2,000 ms). */
  readonly timeoutMs?: number;
}

/** What forwarding needs of the journal it serves. */
export interface ForwardHost {
  readonly store: Store;
  readonly kinds: EntryKinds | undefined;
  /**
   * Appends plain inputs together (all or none) in this process, each entry stamped with the id
   * at its place in `fids`.
   */
  appendStamped(
    project: string,
    inputs: readonly PreparedInput[],
    fids: readonly string[],
  ): Promise<AppendResult[]>;
  /** A head another process committed. */
  committed(head: Head): void;
  /** Where a failure to listen is reported (forwarding is then off for this process). */
  onError(err: unknown): void;
}

/** What became of an append offered for forwarding. */
export type Forwarded =
  /** Appended by the leader (or settled after it did not answer), in order. */
  | { readonly results: AppendResult[] }
  /** This process leads the project: append it here, in the ordinary way. */
  | 'lead'
  /** No leader to forward to now: the caller appends in its own way. */
  | undefined;

/** Requests one connection may have in flight before the leader stops reading it. */
const MAX_IN_FLIGHT = 1_024;

/**
 * Connections a leader holds at once. A writer process keeps one to it, so this is room for 256
 * processes; a flood of connections that never say their hello (each lives 5 s at most) is turned
 * away here instead of taking the process's file descriptors, which its HTTP server needs too. A
 * writer turned away was not read: it parks.
 */
const MAX_PEERS = 256;

/** How long a writer trusts the lease it read before it reads it again. */
const LEASE_READ_MS = 1_000;

/** Links to leaders kept open at most (one per lease this process forwards under). */
const MAX_LINKS = 16;

/** A leader renews its lease once less than this is left. */
const RENEW_BELOW_MS = (2 * LEASE_MS) / 3;

interface KnownLease {
  readonly lease: Lease;
  /** When the lease ends (ms, this process's clock). */
  readonly ends: number;
  /** When to read it again (non-holders). */
  readonly stale: number;
}

export class ForwardedAppends {
  readonly #host: ForwardHost;
  readonly #options: ForwardOptions;
  readonly #holder = randomUUID();
  readonly #token = newToken();
  #server: Server | undefined;
  #address: Promise<string | undefined> | undefined;
  readonly #sockets = new Set<Socket>();
  readonly #leases = new Map<string, KnownLease>();
  readonly #reading = new Map<string, Promise<KnownLease | undefined>>();
  readonly #renewing = new Set<string>();
  readonly #links = new Map<string, ForwardLink>();
  /** Leaders this process could not reach, until when it stops trying them. */
  readonly #unreachable = new Map<string, number>();
  #closed = false;
  /** Appends this process forwarded, and appends forwarded to it that it appended. */
  forwarded = 0;
  received = 0;
  /**
   * Connections this process turned away as a leader, by why: a failed TLS handshake (a plain or
   * older peer, another key), a wrong token, no room (more than {@link MAX_PEERS} at once).
   */
  readonly refused = { handshake: 0, token: 0, capacity: 0 };

  constructor(host: ForwardHost, options: ForwardOptions = {}) {
    this.#host = host;
    this.#options = options;
  }

  /**
   * Offers plain inputs, to be appended together, to the project's leader. When this process leads
   * (or becomes the leader now), says so; when there is no leader it can reach, says nothing.
   */
  async append(project: string, inputs: readonly PreparedInput[]): Promise<Forwarded> {
    if (this.#closed || inputs.length > MAX_FORWARDED_ENTRIES) return undefined;
    const address = await this.#listen();
    if (address === undefined) return undefined;
    const known = await this.#lease(project, address);
    if (!known) return undefined;
    const { lease } = known;
    if (lease.holder === this.#holder) {
      this.#renew(project);
      return 'lead';
    }
    if ((this.#unreachable.get(lease.address) ?? 0) > Date.now()) return undefined;
    const fids = inputs.map(() => newForwardId());
    try {
      const places = await this.#link(lease).send(
        project,
        fids,
        inputs,
        this.#options.timeoutMs ?? 2_000,
      );
      const results = placedEntries(project, inputs, places);
      // An answer that is not these inputs' entries is no answer: find out what the chain holds.
      if (!results) return { results: await this.#settle(project, inputs, fids) };
      this.forwarded += inputs.length;
      const last = results.at(-1)!.entry;
      this.#host.committed({ project, seq: last.seq, hash: last.hash });
      return { results };
    } catch (err) {
      if (err instanceof NotSent) {
        const now = Date.now();
        for (const [address, until] of this.#unreachable) {
          if (until <= now) this.#unreachable.delete(address);
        }
        this.#unreachable.set(lease.address, now + Math.max(known.ends - now, 100));
        this.#leases.delete(project);
        return undefined;
      }
      return { results: await this.#settle(project, inputs, fids) };
    }
  }

  /**
   * An append the leader may or may not have made: this process appends it under the same ids.
   * Each id is unique per project, so exactly one of the two lands (the leader's appends its
   * entries together, all or none); if the leader's did, its entries are found by their ids and
   * checked against the inputs.
   */
  async #settle(
    project: string,
    inputs: readonly PreparedInput[],
    fids: readonly string[],
  ): Promise<AppendResult[]> {
    try {
      return await this.#host.appendStamped(project, inputs, fids);
    } catch (err) {
      const rows = await this.#host.store.values<EntryRow>(
        `${SELECT_ENTRIES} WHERE project = $1 AND parked_id = ANY($2::bigint[]) ORDER BY seq`,
        [project, `{${fids.join(',')}}`],
      );
      if (rows.length === 0) throw err;
      const found = rows.map(rowToEntry);
      const results = placedEntries(project, inputs, found);
      if (!results) {
        throw new CanonryError(
          'STORE_CORRUPT',
          `entries ${found[0]!.seq}… of ${project} carry a forwarded append's ids but not its content`,
        );
      }
      return results;
    }
  }

  /** The project's lease: the one read less than a second ago, else claimed or read now. */
  async #lease(project: string, address: string): Promise<KnownLease | undefined> {
    const now = Date.now();
    const known = this.#leases.get(project);
    if (known) {
      const mine = known.lease.holder === this.#holder;
      if (mine ? known.ends - now > 250 : known.stale > now && known.ends > now) return known;
    }
    let reading = this.#reading.get(project);
    if (!reading) {
      reading = this.#claim(project, address).finally(() => this.#reading.delete(project));
      this.#reading.set(project, reading);
    }
    return reading;
  }

  async #claim(project: string, address: string): Promise<KnownLease | undefined> {
    const start = Date.now();
    let lease: Lease | undefined;
    try {
      lease = await claimLease(this.#host.store, project, this.#holder, address, this.#token);
    } catch {
      return undefined;
    }
    if (!lease || this.#closed) return undefined;
    const known = { lease, ends: start + lease.ms, stale: start + LEASE_READ_MS };
    this.#leases.set(project, known);
    return known;
  }

  /** Renews this process's lease of `project` in the background once it runs low. */
  #renew(project: string): void {
    const known = this.#leases.get(project);
    if (!known || known.lease.holder !== this.#holder || this.#renewing.has(project)) return;
    if (known.ends - Date.now() > RENEW_BELOW_MS) return;
    this.#renewing.add(project);
    void this.#address
      ?.then((address) => (address === undefined ? undefined : this.#claim(project, address)))
      .finally(() => this.#renewing.delete(project));
  }

  #link(lease: Lease): ForwardLink {
    const key = `${lease.address}\n${lease.token}`;
    let link = this.#links.get(key);
    if (!link?.open) {
      // Links to leaders of earlier leases are let go once they failed, or the oldest past a few.
      for (const [k, l] of this.#links) if (!l.open) this.#links.delete(k);
      for (const [k, l] of this.#links) {
        if (this.#links.size < MAX_LINKS) break;
        l.close();
        this.#links.delete(k);
      }
      link = new ForwardLink(lease.address, lease.token);
      this.#links.set(key, link);
    }
    return link;
  }

  /** Starts listening for forwarded appends (once); the address others reach it at. */
  #listen(): Promise<string | undefined> {
    this.#address ??= new Promise((resolve) => {
      const host = this.#options.host ?? '127.0.0.1';
      const tls = this.#options.tls ?? !isLoopback(host);
      const serve = (socket: Socket) => this.#serve(socket);
      const server = tls ? tlsServer(leaderTls(this.#token), serve) : plainServer(serve);
      // A handshake that fails (a plain TCP peer, another key) ends that connection only.
      if (tls)
        server.on('tlsClientError', () => {
          this.refused.handshake++;
        });
      server.maxConnections = MAX_PEERS;
      server.on('drop', () => {
        this.refused.capacity++;
      });
      this.#server = server;
      server.on('error', (err: NodeJS.ErrnoException) => {
        const at = `${host}:${this.#options.port ?? 0}`;
        this.#host.onError(
          new Error(
            `forwarded appends: cannot listen on ${at} (${err.code ?? err.message}); contended appends park instead`,
          ),
        );
        resolve(undefined);
      });
      server.listen(this.#options.port ?? 0, host, () => {
        const { address, port } = server.address() as AddressInfo;
        const listened = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
        resolve(publishedAddress(this.#options.advertise ?? listened, tls));
      });
      server.unref();
    });
    return this.#address;
  }

  /** One writer's connection: its token first, then appends, each answered by id. */
  #serve(socket: Socket): void {
    if (this.#closed) {
      socket.destroy();
      return;
    }
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.setNoDelay(true);
    socket.unref();
    let greeted = false;
    // Refused: nothing after the refusal is read, not even the rest of the chunk it came in.
    let refused = false;
    let inFlight = 0;
    socket.setTimeout(HELLO_MS, () => socket.destroy());
    readLines(
      socket,
      (line) => {
        if (refused) return;
        const message = parseLine(line);
        if (!greeted) {
          if (!message || !tokenMatches(message.hello, this.#token)) {
            refused = true;
            this.refused.token++;
            socket.end('{"refused":"token"}\n');
            socket.pause();
            return;
          }
          greeted = true;
          socket.setTimeout(0);
          socket.write(GREETING);
          return;
        }
        if (!message || !Number.isSafeInteger(message.id)) {
          socket.destroy();
          return;
        }
        const id = message.id as number;
        if (++inFlight >= MAX_IN_FLIGHT) socket.pause();
        void this.#receive(id, message).then((answer) => {
          if (--inFlight === MAX_IN_FLIGHT / 2) socket.resume();
          if (!socket.destroyed) writeLine(socket, answer);
        });
      },
      () => (greeted ? MAX_LINE_CHARS : MAX_HELLO_CHARS),
    );
  }

  /** Appends one forwarded request here; the line that answers it. */
  async #receive(id: number, message: Record<string, unknown>): Promise<string> {
    try {
      const project = parseProject(message.project);
      const given = message.inputs;
      if (!Array.isArray(given) || given.length === 0 || given.length > MAX_FORWARDED_ENTRIES) {
        throw new CanonryError(
          'INVALID_ENTRY',
          `inputs must be 1–${MAX_FORWARDED_ENTRIES} entries`,
        );
      }
      const fids = readForwardIds(message.fids, given.length);
      if (!fids) throw new CanonryError('INVALID_ENTRY', 'fids must be a forwarded id an entry');
      const inputs = given.map((input) => checkInput(input, this.#host.kinds));
      if (inputs.some((input) => input.idempotency_key !== null)) {
        throw new CanonryError('INVALID_ENTRY', 'a forwarded append has no idempotency key');
      }
      const results = await this.#host.appendStamped(project, inputs, fids);
      this.received += inputs.length;
      this.#renew(project);
      return placedLine(
        id,
        results.map((r) => r.entry),
      );
    } catch (err) {
      return failedLine(id, err);
    }
  }

  /** Stops taking and forwarding appends, and gives up the leases this process holds. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const link of this.#links.values()) link.close();
    this.#links.clear();
    for (const socket of this.#sockets) socket.destroy();
    this.#server?.close();
    const held = [...this.#leases].filter(([, k]) => k.lease.holder === this.#holder);
    this.#leases.clear();
    for (const [project] of held) {
      await releaseLease(this.#host.store, project, this.#holder).catch(() => undefined);
    }
  }
}
