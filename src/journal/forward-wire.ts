import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import { isCanonryError } from '../core/index.js';
import type { PreparedInput } from './entry-input.js';

/**
 * The wire between a writer and the process leading a contended project (append-forwarded.ts):
 * newline-delimited JSON over TCP, in TLS keyed by the lease's token off loopback (forward-tls.ts).
 * The writer's first line is `{"hello":<token>}`, the token the leader published with its lease;
 * the leader answers `{"hello":"ok"}` before it reads anything else (or `{"refused":"token"}` and
 * closes). After that each line is one append and each answer names it. A writer that never heard
 * the greeting knows none of its appends was read.
 *
 * - append: `{"id":n,"project":p,"fids":["-…",…],"inputs":[{kind, actor, correlation_id, body,
 *   authority, receipt},…]}` — one or more entries, appended together (all or none), each with the
 *   id its writer drew for it; the body, authority and receipt as the writer's canonical JSON;
 * - placed: `{"id":n,"places":[{"seq":s,"at":t,"prev_hash":h,"hash":h},…]}`;
 * - failed: `{"id":n,"error":code,"message":m}`.
 */

/** The longest line either side takes: a body is at most 1 MiB of canonical JSON (entry-input.ts). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

/** The longest line a leader takes before the hello: a token is 64 characters. */
export const MAX_HELLO_CHARS = 1_024;

/** How long a leader waits for a connection's hello. */
export const HELLO_MS = 5_000;

/** The leader's answer to a hello with its token. */
export const GREETING = '{"hello":"ok"}\n';

/** Entries one forwarded append may hold (the commit queue's largest batch). */
export const MAX_FORWARDED_ENTRIES = 256;

/** Where the leader put an append. */
export interface ForwardPlace {
  readonly seq: number;
  readonly at: string;
  readonly prev_hash: string;
  readonly hash: string;
}

/** A forwarded entry's id: negative (parked rows' ids are positive), a PostgreSQL BIGINT. */
const FID = /^-[1-9][0-9]{0,18}$/;
const MIN_BIGINT = -(2n ** 63n);

/** A fresh forwarded entry id: 63 random bits, negative. */
export function newForwardId(): string {
  return (-1n - (randomBytes(8).readBigUInt64BE() >> 1n)).toString();
}

export function isForwardId(value: unknown): value is string {
  return typeof value === 'string' && FID.test(value) && BigInt(value) >= MIN_BIGINT;
}

/** A token for a lease: 32 random bytes, hex. */
export function newToken(): string {
  return randomBytes(32).toString('hex');
}

/** Compares a token sent by a peer with the lease's, in constant time. */
export function tokenMatches(sent: unknown, token: string): boolean {
  if (typeof sent !== 'string' || sent.length > 256) return false;
  const a = createHash('sha256').update(sent).digest();
  const b = createHash('sha256').update(token).digest();
  return timingSafeEqual(a, b);
}

/** The hello line a writer opens a connection with. */
export function helloLine(token: string): string {
  return `{"hello":${JSON.stringify(token)}}\n`;
}

/** One input as a request carries it (its canonical texts spliced in as they are). */
const inputJson = (input: PreparedInput): string =>
  `{"kind":${JSON.stringify(input.kind)},"actor":${JSON.stringify(input.actor)},"correlation_id":${JSON.stringify(input.correlation_id)},"body":${input.bodyText},"authority":${input.authorityText},"receipt":${input.receiptText}}`;

/** The line that forwards `inputs`, appended together, with the ids drawn for them. */
export function requestLine(
  id: number,
  project: string,
  fids: readonly string[],
  inputs: readonly PreparedInput[],
): string {
  return `{"id":${id},"project":${JSON.stringify(project)},"fids":${JSON.stringify(fids)},"inputs":[${inputs.map(inputJson).join(',')}]}\n`;
}

/** The line that answers request `id` with where its entries went. */
export function placedLine(id: number, places: readonly ForwardPlace[]): string {
  const each = places.map(
    (p) =>
      `{"seq":${p.seq},"at":${JSON.stringify(p.at)},"prev_hash":${JSON.stringify(p.prev_hash)},"hash":${JSON.stringify(p.hash)}}`,
  );
  return `{"id":${id},"places":[${each.join(',')}]}\n`;
}

/** The line that says request `id` failed; only the error's code and message cross. */
export function failedLine(id: number, err: unknown): string {
  const code = isCanonryError(err) ? err.code : 'INTERNAL';
  const message = isCanonryError(err) ? err.message : 'the leader could not append it';
  return `${JSON.stringify({ id, error: code, message })}\n`;
}

/** Reads a placed answer for `count` entries; undefined when the line is not one. */
export function readPlaces(
  message: Record<string, unknown>,
  count: number,
): ForwardPlace[] | undefined {
  const { places } = message;
  if (!Array.isArray(places) || places.length !== count) return undefined;
  const out: ForwardPlace[] = [];
  for (const place of places as unknown[]) {
    if (typeof place !== 'object' || place === null) return undefined;
    const { seq, at, prev_hash, hash } = place as Record<string, unknown>;
    if (
      !Number.isSafeInteger(seq) ||
      (seq as number) < 1 ||
      typeof at !== 'string' ||
      typeof prev_hash !== 'string' ||
      typeof hash !== 'string'
    ) {
      return undefined;
    }
    out.push({ seq: seq as number, at, prev_hash, hash });
  }
  return out;
}

/** The ids of a forwarded append: one per entry, each a forwarded id, none twice. */
export function readForwardIds(value: unknown, count: number): string[] | undefined {
  if (!Array.isArray(value) || value.length !== count || !value.every(isForwardId))
    return undefined;
  return new Set(value).size === count ? (value as string[]) : undefined;
}

/** A failed answer as an error (the writer appends it itself then: never shown to its caller). */
export function failure(message: Record<string, unknown>): Error {
  const code = typeof message.error === 'string' ? message.error.slice(0, 64) : 'unknown';
  return new Error(`the project's leader did not append it (${code})`);
}

/**
 * Calls `onLine` with each line that arrives on `socket` (UTF-8); a line longer than `limit()`
 * ({@link MAX_LINE_CHARS} by default) destroys the socket.
 */
export function readLines(
  socket: Socket,
  onLine: (line: string) => void,
  limit: () => number = () => MAX_LINE_CHARS,
): void {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl !== -1) {
      const line = pending.length > 0 ? pending + chunk.slice(start, nl) : chunk.slice(start, nl);
      pending = '';
      onLine(line);
      if (socket.destroyed) return;
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    pending += start === 0 ? chunk : chunk.slice(start);
    if (pending.length > limit()) socket.destroy();
  });
}

/**
 * Writes `line` to `socket`, gathering the lines written in the same tick into one write: over
 * TLS each write is a record to seal, and a group commit answers many requests at once.
 */
export function writeLine(socket: Socket, line: string): void {
  if (socket.writableCorked === 0) {
    socket.cork();
    process.nextTick(() => socket.uncork());
  }
  socket.write(line);
}

/** A line as a JSON object, or undefined. */
export function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
