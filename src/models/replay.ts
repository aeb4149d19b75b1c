import { CanonryError, type ContentHash, contentHash, parseJsonText } from '../core/index.js';
import { modelError } from './errors.js';
import type { ModelPort, ModelRequest, ModelResponse } from './types.js';

/** One recorded call: the canonical request, its key and what the model returned. */
export interface ModelRecording {
  /** `contentHash({ messages, schema })` of the request. */
  readonly key: ContentHash;
  readonly request: Pick<ModelRequest, 'messages' | 'schema'>;
  readonly response: ModelResponse;
}

/** The replay key of a request: the content hash of its messages and schema (sampling ignored). */
export function requestKey(request: ModelRequest): ContentHash {
  return contentHash({ messages: request.messages, schema: request.schema });
}

/**
 * A model that answers only from recordings. Recordings of the same request are returned in order,
 * the last one repeating; an unrecorded request is `MODEL_UNAVAILABLE` naming its key.
 */
export class ReplayModel implements ModelPort {
  readonly route: string;
  readonly #byKey = new Map<string, ModelResponse[]>();
  readonly #served = new Map<string, number>();

  constructor(recordings: Iterable<ModelRecording>, route = 'replay') {
    this.route = route;
    for (const recording of recordings) {
      const list = this.#byKey.get(recording.key) ?? [];
      list.push(recording.response);
      this.#byKey.set(recording.key, list);
    }
  }

  /** A replay model from the JSONL a {@link RecordingModel} exported. */
  static fromJsonl(text: string, route?: string): ReplayModel {
    return new ReplayModel(parseRecordings(text), route);
  }

  /** Returns the next recorded response for this request. */
  async complete(request: ModelRequest): Promise<ModelResponse> {
    const key = requestKey(request);
    const list = this.#byKey.get(key);
    if (list === undefined) {
      throw modelError(
        'MODEL_UNAVAILABLE',
        `${this.route}: no recording for request ${key}`,
        this.route,
      );
    }
    const served = this.#served.get(key) ?? 0;
    this.#served.set(key, served + 1);
    return list[Math.min(served, list.length - 1)]!;
  }
}

/** Wraps a model and records every answer it gives, to be exported as JSONL and replayed. */
export class RecordingModel implements ModelPort {
  readonly route: string;
  readonly #inner: ModelPort;
  readonly #recordings: ModelRecording[] = [];

  constructor(inner: ModelPort) {
    this.#inner = inner;
    this.route = inner.route;
  }

  /** Calls the inner model and records its answer (failures are not recorded). */
  async complete(request: ModelRequest): Promise<ModelResponse> {
    const response = await this.#inner.complete(request);
    const recorded = { messages: request.messages, schema: request.schema };
    this.#recordings.push({ key: requestKey(request), request: recorded, response });
    return response;
  }

  /** The recordings so far, in call order. */
  recordings(): readonly ModelRecording[] {
    return [...this.#recordings];
  }

  /** The recordings as JSONL, one recording a line. */
  toJsonl(): string {
    return this.#recordings.map((r) => `${JSON.stringify(r)}\n`).join('');
  }
}

/**
 * Parses recordings from JSONL; each line's key must match its request. Throws MALFORMED_FILE naming
 * the first bad line.
 */
export function parseRecordings(text: string): ModelRecording[] {
  const out: ModelRecording[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = parseJsonText(line, 256);
    } catch (err) {
      const reason = err instanceof CanonryError ? err.message : 'not JSON';
      throw new CanonryError('MALFORMED_FILE', `recording line ${i + 1}: ${reason}`);
    }
    out.push(recordingOf(value, `recording line ${i + 1}`));
  }
  return out;
}

/**
 * One recording read from outside (a line of a JSONL file, an item of a replay bundle), checked as
 * {@link parseRecordings} checks its lines: MALFORMED_FILE naming `where` when it is not one.
 */
export function recordingOf(value: unknown, where: string): ModelRecording {
  const bad = (why: string) => new CanonryError('MALFORMED_FILE', `${where}: ${why}`);
  const r = value as Partial<ModelRecording> | null;
  if (r === null || typeof r !== 'object' || typeof r.key !== 'string') throw bad('no key');
  if (!Array.isArray(r.request?.messages)) throw bad('no request messages');
  if (typeof r.response?.text !== 'string' || typeof r.response.model !== 'string') {
    throw bad('no response text and model');
  }
  if (requestKey(r.request) !== r.key) throw bad('the key does not match the request');
  return r as ModelRecording;
}
