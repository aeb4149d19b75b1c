import type { Principal } from '../canon/index.js';
import { CanonryError } from '../core/index.js';
import type { ModelPort } from '../models/index.js';
import type { CompletedWindow } from './complete.js';
import { parseContribution } from './contribution.js';
import { CONTRIBUTION_SCHEMA, CONTRIBUTION_SCHEMA_NAME } from './contribution-schema.js';
import type { Relay } from './relay.js';
import type { SessionStatus } from './session-types.js';

/** How a relay run goes. */
export interface RunOptions {
  /** Stop after this many windows (default 64). */
  readonly maxWindows?: number;
  /** Tries per window when the model's output is malformed or its state does not verify (default 2). */
  readonly attempts?: number;
  /** The prompt's token budget. */
  readonly maxTokens?: number;
  /** The most tokens the model may answer a window with (sent as `max_tokens`; default 4,096). */
  readonly completionTokens?: number;
  /** Called after each window (progress lines, charts). */
  readonly onWindow?: (window: CompletedWindow) => void;
}

/** What a run came to. */
export interface RelayRun {
  readonly session_id: string;
  readonly status: SessionStatus;
  readonly windows: readonly CompletedWindow[];
}

/**
 * Drives a session through a model port: each window is prepared, sent with the contribution schema
 * (structured output), and completed with the model's answer, which is validated as untrusted input.
 * A malformed answer or a state that does not verify is asked for again, up to `attempts`; then the
 * error stands (nothing journaled) or, for a state that cannot be repaired, the session halts.
 */
export async function runSession(
  relay: Relay,
  principal: Principal,
  sessionId: string,
  model: ModelPort,
  options: RunOptions,
): Promise<RelayRun> {
  const maxWindows = options.maxWindows ?? 64;
  const attempts = options.attempts ?? 2;
  if (!Number.isSafeInteger(maxWindows) || maxWindows < 1)
    throw new CanonryError('INVALID_ARGUMENT', 'maxWindows must be a positive integer');
  if (!Number.isSafeInteger(attempts) || attempts < 1)
    throw new CanonryError('INVALID_ARGUMENT', 'attempts must be a positive integer');
  const windows: CompletedWindow[] = [];
  let state = await relay.state(principal, sessionId);
  while (state.status === 'active' && windows.length < maxWindows) {
    const prepared = await relay.prepareWindow(principal, sessionId, {
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
    });
    let done: CompletedWindow | null = null;
    // Every answer the model gave for this window, journaled with it (a replay stands in for it).
    const answers: string[] = [];
    for (let attempt = 1; attempt <= attempts && done === null; attempt++) {
      const response = await model.complete({
        messages: prepared.messages,
        schema: { name: CONTRIBUTION_SCHEMA_NAME, schema: CONTRIBUTION_SCHEMA as never },
        temperature: 0,
        maxTokens: options.completionTokens ?? 4_096,
      });
      answers.push(response.text);
      let parsed: ReturnType<typeof parseContribution>;
      try {
        parsed = parseContribution(response.text);
      } catch (err) {
        if (attempt < attempts) continue;
        throw err;
      }
      const result = await relay.completeWindow(
        principal,
        sessionId,
        parsed.output,
        parsed.contribution,
        {
          window: prepared.window_number,
          model: response.model || model.route,
          contextPacketHash: prepared.context_packet_hash,
          answers: [...answers],
        },
      );
      if (result.status === 'regenerate' && attempt < attempts) continue;
      done = result;
    }
    if (!done) break;
    if (done.status === 'regenerate') {
      done = await relay.halt(
        principal,
        sessionId,
        done,
        'the state did not verify after every attempt',
      );
    }
    windows.push(done);
    options.onWindow?.(done);
    state = await relay.state(principal, sessionId);
  }
  return { session_id: sessionId, status: state.status, windows };
}
