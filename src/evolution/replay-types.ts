import type { JsonValue } from '../core/index.js';
import type { QualifiedEvent } from './event-types.js';

/** The first place a replay's result departs from what the event recorded. */
export interface ReplayDifference {
  /** JSON Pointer into the recorded outcome (`/label`, `/state_digest`). */
  readonly path: string;
  /** What the event recorded there (null when the recorded side has nothing). */
  readonly expected: JsonValue | null;
  /** What the replay produced there (null when the replay has nothing). */
  readonly actual: JsonValue | null;
}

/** What a replayer found: the work reproduced exactly, or the first difference. */
export type ReplayResult =
  | {
      readonly status: 'match';
      /** What the replay compared, in order (`class`, `label`, `event_hash`). */
      readonly compared: readonly string[];
    }
  | {
      readonly status: 'differ';
      readonly compared: readonly string[];
      readonly difference: ReplayDifference;
    };

/** One event's replay: which event, which class of work, and what the replayer found. */
export type ReplayReport = ReplayResult & {
  readonly event_id: string;
  readonly execution_class: string;
};

/**
 * Re-executes the work one class of events records (`replay.execution_class`). Implementations live
 * where the work does (`app` plugs the kernel and the relay in); evolution only routes to them.
 * A missing input is REPLAY_INPUT_MISSING, a recorded outcome not of the class REPLAY_UNAVAILABLE:
 * both thrown as `CanonryError`, never a crash.
 */
export interface Replayer {
  /** The `replay.execution_class` it re-executes (`kernel.verdict`, `relay.window`). */
  readonly executionClass: string;
  replay(event: QualifiedEvent): Promise<ReplayResult>;
}
