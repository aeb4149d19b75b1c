import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../canon/index.js';
import {
  CanonryError,
  type ContentHash,
  contentHash,
  isCanonryError,
  type JsonValue,
} from '../core/index.js';
import {
  firstDifference,
  type QualifiedEvent,
  RELAY_WINDOW_CLASS,
  type Replayer,
  type ReplayResult,
  relayWindowOutcome,
} from '../evolution/index.js';
import {
  type ModelPort,
  type ModelRecording,
  type ModelRequest,
  type ModelResponse,
  ReplayModel,
} from '../models/index.js';
import {
  type CognitiveStateObject,
  type Relay,
  type RelaySessionRecord,
  type RelayWindowEntry,
  type RelayWindowRecord,
  rawAnswer,
} from '../relay/index.js';

/** The answers one journaled window holds for a replay, restored to the model's raw texts. */
export interface JournaledWindowAnswers {
  readonly window_number: number;
  /** The hash of the prompt the window was asked with (null: not journaled). */
  readonly context_packet_hash: string | null;
  /** The model's raw answers, in the order it gave them (null: the window journaled none). */
  readonly answers: readonly string[] | null;
  /** The model route that wrote the window. */
  readonly model: string | null;
}

/**
 * What a relay window replay needs: the session as it was started and what stands in for the
 * model — model recordings (`recordings`, which win when given), or the answers the session's
 * windows journaled, window 1 up to the event's (`windows`).
 */
export interface RelayReplayInputs {
  readonly session: Pick<
    RelaySessionRecord,
    'mode' | 'objective' | 'remaining' | 'success_test' | 'max_revisions' | 'on_unverified' | 'air'
  >;
  readonly recordings?: readonly ModelRecording[];
  readonly windows?: readonly JournaledWindowAnswers[];
}

/** A journaled window's answers as the model gave them (`rawAnswer` undoes the journaled form). */
export function journaledWindowAnswers(entry: RelayWindowEntry): JournaledWindowAnswers {
  return {
    window_number: entry.window_number,
    context_packet_hash: entry.context_packet_hash ?? null,
    answers: entry.answers?.map((a) => rawAnswer(a, entry.output.text)) ?? null,
    model: entry.output.model,
  };
}

/**
 * The replay inputs of window `upTo` of a session from the journal: the session as started (its
 * projection row) and its windows' journaled answers up to and including that one, each read from
 * its journal entry. Undefined when the projection does not hold the session.
 */
export async function journalRelayInputs(
  relay: Pick<Relay, 'reader' | 'journaledWindows'>,
  project: string,
  sessionId: string,
  upTo: number,
): Promise<RelayReplayInputs | undefined> {
  const row = await relay.reader(project).session(sessionId);
  if (!row) return undefined;
  const entries = await relay.journaledWindows(project, sessionId, upTo);
  return { session: row.session, windows: entries.map(journaledWindowAnswers) };
}

/** A model that gives one window's journaled answers in order, then says it has no more. */
class JournaledAnswersModel implements ModelPort {
  readonly route = 'replay:journal';
  #window: JournaledWindowAnswers | undefined;
  #served = 0;

  serve(window: JournaledWindowAnswers): void {
    this.#window = window;
    this.#served = 0;
  }

  async complete(_request: ModelRequest): Promise<ModelResponse> {
    const w = this.#window;
    const text = w?.answers?.[this.#served];
    if (w === undefined || text === undefined) {
      throw new CanonryError(
        'MODEL_UNAVAILABLE',
        `window ${w?.window_number ?? '?'} journals ${w?.answers?.length ?? 0} answers; the replay asked for another`,
        { route: this.route },
      );
    }
    this.#served++;
    return { text, model: w.model ?? this.route };
  }
}

/**
 * The digest of a window's state that a replay can reproduce: the CSO without what the project's
 * HMAC key and the session's id make (`cso_hmac`, `prior_cso_hash`, `cso_id`), without `verified`
 * (the verdict, compared on its own), and with an escalation's proposal id reduced to the fact of
 * the escalation (canon mints the id).
 */
export function relayStateDigest(cso: CognitiveStateObject): ContentHash {
  const { cso_hmac: _h, prior_cso_hash: _p, cso_id: _c, verified: _v, ...state } = cso;
  return contentHash({
    ...state,
    decisions: state.decisions.map((d) =>
      d.escalated === undefined ? d : { ...d, escalated: 'escalated' },
    ),
  });
}

/** The outcome a `relay.window` event records for one window (what its replay compares). */
export function relayWindowOutcomeOf(window: RelayWindowRecord) {
  return {
    session_id: window.session_id,
    window_number: window.window_number,
    state_digest: relayStateDigest(window.cso),
    verified: window.verification.verified,
    preservation: window.verification.preservation,
  };
}

const PROJECT = 'replay';
const AGENT: Principal = { id: 'replay', project: PROJECT, role: 'agent' };

type Differ = Extract<ReplayResult, { status: 'differ' }>;

function differ(compared: string[], path: string, expected: JsonValue, actual: JsonValue): Differ {
  return { status: 'differ', compared, difference: { path, expected, actual } };
}

/**
 * What stands in for the model: the recordings when given (keyed by request), else the windows'
 * journaled answers — every window up to the event's must have journaled its answers.
 */
function modelOf(inputs: RelayReplayInputs, sessionId: string, upTo: number) {
  if (inputs.recordings !== undefined) {
    return { recorded: new ReplayModel(inputs.recordings, 'replay'), journaled: null };
  }
  const windows = inputs.windows ?? [];
  for (let k = 1; k <= upTo; k++) {
    const w = windows[k - 1];
    if (w?.window_number !== k || w.answers === null || w.answers.length === 0) {
      throw new CanonryError(
        'REPLAY_INPUT_MISSING',
        `window ${k} of ${sessionId} journals no model answer: give the recordings`,
        { input: 'recordings', session_id: sessionId, window_number: k },
      );
    }
  }
  return { recorded: null, journaled: new JournaledAnswersModel() };
}

/**
 * Replays `relay.window` events: a scratch runtime (a temporary data directory, its own keys and
 * SQLite file, removed afterwards) starts the session as recorded and runs it window by window up
 * to the event's, the model stood in for by the recordings or by each window's journaled answers.
 * Before each window its prompt is compared with the context packet it was asked with — the
 * event's `replay.context_packet_hash` for its own window (`/context_packet_hash`), the journaled
 * one for the windows before (`/windows/<k>/context_packet_hash`) — so a changed prompt is told
 * from a changed answer. A prompt the recordings do not hold is the first difference at
 * `/model_request`; a window the journaled answers no longer make (one does not parse, or the
 * replay asks for more) at `/windows/<k>/answers`. Then that window's state digest, verification
 * and preservation must come out as recorded.
 */
export function relayWindowReplayer(
  inputsOf: (
    event: QualifiedEvent,
  ) => Promise<RelayReplayInputs | undefined> | RelayReplayInputs | undefined,
): Replayer {
  return {
    executionClass: RELAY_WINDOW_CLASS,
    async replay(event: QualifiedEvent) {
      const recorded = relayWindowOutcome(event);
      const n = recorded.window_number;
      const inputs = await inputsOf(event);
      if (inputs === undefined) {
        throw new CanonryError(
          'REPLAY_INPUT_MISSING',
          `the session and model recordings of ${recorded.session_id} are not at hand`,
          { input: 'recordings', session_id: recorded.session_id },
        );
      }
      const { recorded: recordedModel, journaled } = modelOf(inputs, recorded.session_id, n);
      const eventHash = event.replay?.context_packet_hash ?? null;
      const compared = [
        ...(eventHash === null ? [] : ['context_packet_hash']),
        'window_number',
        'state_digest',
        'verified',
        'preservation',
      ];
      const expected = {
        window_number: recorded.window_number,
        state_digest: recorded.state_digest,
        verified: recorded.verified,
        preservation: recorded.preservation,
      };
      const dir = mkdtempSync(join(tmpdir(), 'canonry-replay-'));
      try {
        const { createCanonry } = await import('./create-canonry.js');
        const scratch = await createCanonry({ dataDir: dir, logLevel: 'silent' });
        try {
          // Given from outside (a file), so untrusted: the start checks every field but `air`.
          const session = inputs.session as Partial<RelayReplayInputs['session']> | null;
          if (typeof session !== 'object' || session === null) {
            throw new CanonryError(
              'INVALID_ARGUMENT',
              'the relay session as started is an object',
              {
                input: 'session',
              },
            );
          }
          const started = await scratch.relay.start(AGENT, {
            mode: session.mode,
            objective: session.objective,
            remaining: session.remaining,
            success_test: session.success_test,
            max_revisions: session.max_revisions,
            on_unverified: session.on_unverified,
            air_mode: session.air?.mode,
            air_iap_budget: session.air?.iap_budget,
          });
          const id = started.session.session_id;
          for (let k = 1; k <= n; k++) {
            const state = await scratch.relay.state(AGENT, id);
            if (state.status !== 'active') break;
            const w = inputs.windows?.[k - 1];
            const want = k === n ? eventHash : (w?.context_packet_hash ?? null);
            if (want !== null) {
              const asked = (await scratch.relay.prepareWindow(AGENT, id)).context_packet_hash;
              if (asked !== want) {
                const path = k === n ? '/context_packet_hash' : `/windows/${k}/context_packet_hash`;
                return differ(compared, path, want, asked);
              }
            }
            if (journaled && w) journaled.serve(w);
            const model = journaled ?? recordedModel!;
            try {
              await scratch.relay.run(AGENT, id, model, {
                maxWindows: 1,
                ...(journaled && w?.answers ? { attempts: Math.max(w.answers.length, 1) } : {}),
              });
            } catch (err) {
              if (isCanonryError(err, 'MODEL_UNAVAILABLE') && !journaled) {
                return differ(
                  ['model_request'],
                  '/model_request',
                  'a recorded request',
                  err.message,
                );
              }
              if (
                journaled &&
                (isCanonryError(err, 'MODEL_UNAVAILABLE') ||
                  isCanonryError(err, 'MODEL_OUTPUT_INVALID'))
              ) {
                return differ(compared, `/windows/${k}/answers`, 'the window relayed', err.message);
              }
              throw err;
            }
          }
          const window = (await scratch.relay.windows(AGENT, id))[n - 1];
          const actual = {
            window_number: window?.window_number ?? null,
            state_digest: window ? relayStateDigest(window.cso) : null,
            verified: window?.verification.verified ?? null,
            preservation: window?.verification.preservation ?? null,
          };
          const difference = firstDifference(expected, actual);
          return difference === null
            ? { status: 'match', compared }
            : { status: 'differ', compared, difference };
        } finally {
          await scratch.close();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
