import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../canon/index.js';
import { CanonryError, type ContentHash, contentHash, isCanonryError } from '../core/index.js';
import {
  firstDifference,
  type QualifiedEvent,
  RELAY_WINDOW_CLASS,
  type Replayer,
  relayWindowOutcome,
} from '../evolution/index.js';
import { type ModelRecording, ReplayModel } from '../models/index.js';
import type {
  CognitiveStateObject,
  RelaySessionRecord,
  RelayWindowRecord,
} from '../relay/index.js';

/** What a relay window replay needs: the session as it was started and the model's recorded answers. */
export interface RelayReplayInputs {
  readonly session: Pick<
    RelaySessionRecord,
    'mode' | 'objective' | 'remaining' | 'success_test' | 'max_revisions' | 'on_unverified' | 'air'
  >;
  readonly recordings: readonly ModelRecording[];
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

/**
 * Replays `relay.window` events: a scratch runtime (a temporary data directory, its own keys and
 * SQLite file, removed afterwards) starts the session as recorded and runs it with a replay model
 * over the recorded answers up to the event's window; that window's state digest, verification and
 * preservation must come out as recorded. A prompt the recordings do not hold (the replay asked
 * something else) is the first difference, at `/model_request`.
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
      const inputs = await inputsOf(event);
      if (inputs === undefined) {
        throw new CanonryError(
          'REPLAY_INPUT_MISSING',
          `the session and model recordings of ${recorded.session_id} are not at hand`,
          { input: 'recordings', session_id: recorded.session_id },
        );
      }
      const compared = ['window_number', 'state_digest', 'verified', 'preservation'];
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
          const { session } = inputs;
          const started = await scratch.relay.start(AGENT, {
            mode: session.mode,
            objective: session.objective,
            remaining: session.remaining,
            success_test: session.success_test,
            max_revisions: session.max_revisions,
            on_unverified: session.on_unverified,
            air_mode: session.air.mode,
            air_iap_budget: session.air.iap_budget,
          });
          const id = started.session.session_id;
          const model = new ReplayModel(inputs.recordings, 'replay');
          try {
            await scratch.relay.run(AGENT, id, model, { maxWindows: recorded.window_number });
          } catch (err) {
            if (!isCanonryError(err, 'MODEL_UNAVAILABLE')) throw err;
            const difference = {
              path: '/model_request',
              expected: 'a recorded request' as string | null,
              actual: err.message,
            };
            return { status: 'differ', compared: ['model_request'], difference };
          }
          const windows = await scratch.relay.windows(AGENT, id);
          const window = windows[recorded.window_number - 1];
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
