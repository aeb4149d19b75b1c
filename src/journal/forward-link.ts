import { createConnection, type Socket } from 'node:net';
import { connect } from 'node:tls';
import type { PreparedInput } from './entry-input.js';
import { pskOf, readAddress, writerTls } from './forward-tls.js';
import {
  type ForwardPlace,
  failure,
  helloLine,
  parseLine,
  readLines,
  readPlaces,
  requestLine,
  writeLine,
} from './forward-wire.js';

/**
 * A writer's connection to the process leading a project (forward-wire.ts; over TLS keyed by the
 * lease's token when the leader listens off loopback: forward-tls.ts): appends go out as lines,
 * answers come back by id. A request fails in one of two ways, and the caller must tell them
 * apart: {@link NotSent} (the leader never read it: nothing was appended — no connection, a failed
 * handshake, a refused token, or no greeting before the connection ended) or any other error (it
 * may have been appended: the caller settles it by its id).
 */

/** The leader cannot have read the request: no connection or handshake, or it refused the token. */
export class NotSent extends Error {}

interface Waiting {
  readonly count: number;
  readonly resolve: (places: ForwardPlace[]) => void;
  readonly reject: (err: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** Splits `host:port` or `[v6]:port`. */
function hostPort(address: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(address);
  if (!m) return undefined;
  const port = Number(m[3]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: (m[1] ?? m[2])!, port };
}

export class ForwardLink {
  readonly #socket: Socket | undefined;
  readonly #waiting = new Map<number, Waiting>();
  #next = 1;
  /** The leader greeted this connection: from here on, what it was sent may have been read. */
  #greeted = false;
  #closed = false;

  /** `published`: the leader's address as its lease has it (forward-tls.ts). */
  constructor(published: string, token: string) {
    const { address, tls } = readAddress(published);
    const to = hostPort(address);
    const psk = pskOf(token);
    if (!to || !psk) {
      this.#closed = true;
      return;
    }
    const socket = tls ? connect({ ...to, ...writerTls(psk) }) : createConnection(to);
    this.#socket = socket;
    socket.setNoDelay(true);
    // A request waiting for its answer keeps the process up (its timer); an idle link does not.
    socket.unref();
    socket.write(helloLine(token));
    readLines(socket, (line) => this.#answer(line));
    socket.on('error', () => undefined);
    socket.on('close', () => this.#end(this.#greeted));
  }

  /** Whether the link can take requests. */
  get open(): boolean {
    return !this.#closed;
  }

  /** Forwards one append of `inputs` (together); see the module comment for how it fails. */
  send(
    project: string,
    fids: readonly string[],
    inputs: readonly PreparedInput[],
    timeoutMs: number,
  ): Promise<ForwardPlace[]> {
    if (this.#closed || !this.#socket) return Promise.reject(new NotSent('no connection'));
    const id = this.#next++;
    return new Promise<ForwardPlace[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new Error('the leader did not answer in time'));
      }, timeoutMs);
      this.#waiting.set(id, { count: inputs.length, resolve, reject, timer });
      writeLine(this.#socket!, requestLine(id, project, fids, inputs));
    });
  }

  close(): void {
    this.#end(this.#greeted);
    this.#socket?.destroy();
  }

  #answer(line: string): void {
    const message = parseLine(line);
    if (!message) {
      this.#socket?.destroy();
      return;
    }
    if (!this.#greeted) {
      // Anything but the greeting first: none of the requests on this connection was read.
      if (message.hello === 'ok' && !('id' in message)) this.#greeted = true;
      else {
        this.#end(false);
        this.#socket?.destroy();
      }
      return;
    }
    const id = message.id;
    const waiting = typeof id === 'number' ? this.#waiting.get(id) : undefined;
    if (!waiting) return;
    this.#waiting.delete(id as number);
    clearTimeout(waiting.timer);
    const places = readPlaces(message, waiting.count);
    if (places) waiting.resolve(places);
    else waiting.reject(failure(message));
  }

  /** Fails every request still waiting: possibly read by the leader once it had greeted. */
  #end(greeted: boolean): void {
    this.#closed = true;
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(
        greeted ? new Error('the connection to the leader closed') : new NotSent('not read'),
      );
    }
    this.#waiting.clear();
  }
}
