import { parentPort } from 'node:worker_threads';
import { CanonryError, type ContentHash, LruCache, parseContentHash } from '../../core/index.js';
import {
  boundedDetail,
  COMPILE_CACHE_SIZE,
  type CompiledProtocol,
  compileProtocol,
  decideRequest,
} from '../../kernel/index.js';
import { parseJsonBytes } from '../json-body.js';
import type { FromWorker, ToWorker } from './messages.js';
import { fromWire, toWire } from './wire-error.js';

/**
 * An evaluation thread: decides `POST /v1/validate` bodies (bounded parse, request shape, protocol,
 * verdict) and answers with the decision; the server's thread signs and audits it. It holds no key.
 */
const port = parentPort;
if (port === null) throw new Error('the evaluation worker runs only as a worker thread');

/** Protocols registered under a hash, as the server's registry gave them; compiled here once. */
const registered = new LruCache<ContentHash, CompiledProtocol>(COMPILE_CACHE_SIZE);
/** Requests waiting for the server to send a registered bundle, by hash (one question per hash). */
const waiting = new Map<
  ContentHash,
  { resolve: (p: CompiledProtocol) => void; reject: (e: unknown) => void }[]
>();

const send = (message: FromWorker) => port.postMessage(message);

/** A registered protocol by hash, as `ProtocolRegistry.get` gives it in process. */
function registeredProtocol(ref: unknown): Promise<CompiledProtocol> {
  const hash = parseContentHash(ref, 'agentic_protocol');
  const known = registered.get(hash);
  if (known !== undefined) return Promise.resolve(known);
  return new Promise((resolve, reject) => {
    const list = waiting.get(hash);
    if (list !== undefined) return void list.push({ resolve, reject });
    waiting.set(hash, [{ resolve, reject }]);
    send({ type: 'source', hash });
  });
}

function sourceArrived(message: Extract<ToWorker, { type: 'source' }>): void {
  const list = waiting.get(message.hash) ?? [];
  waiting.delete(message.hash);
  try {
    if ('error' in message) throw fromWire(message.error);
    const protocol = compileProtocol(message.bundle);
    if (protocol.hash !== message.hash) {
      throw new CanonryError(
        'STORE_CORRUPT',
        `stored protocol ${message.hash} does not match its hash`,
      );
    }
    registered.set(message.hash, protocol);
    for (const w of list) w.resolve(protocol);
  } catch (err) {
    for (const w of list) w.reject(err);
  }
}

async function decideBody(id: number, bytes: ArrayBuffer): Promise<void> {
  try {
    const decision = await decideRequest(parseJsonBytes(new Uint8Array(bytes)), (ref) =>
      typeof ref === 'string' ? registeredProtocol(ref) : Promise.resolve(compileProtocol(ref)),
    );
    // Bounded here, so what crosses back is a few KiB whatever the engines reported.
    const verdict = { ...decision.verdict, detail: boundedDetail(decision.verdict.detail) };
    send({ type: 'decided', id, decision: { ...decision, verdict } });
  } catch (err) {
    send({ type: 'refused', id, error: toWire(err) });
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'decide') void decideBody(message.id, message.bytes);
  else sourceArrived(message);
});
send({ type: 'ready' });
