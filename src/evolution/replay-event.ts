import { CanonryError } from '../core/index.js';
import type { QualifiedEvent } from './event-types.js';
import type { Replayer, ReplayReport } from './replay-types.js';

/**
 * Re-executes the work a qualified cognitive event records and reports `match` or the first
 * difference (GCS "Replay Contract"). The event's `replay.execution_class` picks the replayer;
 * an event with no replay contract, or a class nobody replays, is REPLAY_UNAVAILABLE. The event is
 * taken as given: verifying its signature and governance first is the caller's (a receiving side
 * verifies before use).
 */
export async function replayEvent(
  event: QualifiedEvent,
  replayers: Iterable<Replayer>,
): Promise<ReplayReport> {
  const executionClass = event.replay?.execution_class;
  if (executionClass === undefined) {
    throw new CanonryError(
      'REPLAY_UNAVAILABLE',
      `event ${event.event_id} carries no replay.execution_class: it cannot be replayed`,
      { path: 'replay.execution_class' },
    );
  }
  const replayer = [...replayers].find((r) => r.executionClass === executionClass);
  if (replayer === undefined) {
    throw new CanonryError(
      'REPLAY_UNAVAILABLE',
      `no replayer for execution class ${executionClass}`,
      { path: 'replay.execution_class', execution_class: executionClass },
    );
  }
  const result = await replayer.replay(event);
  return { event_id: event.event_id, execution_class: executionClass, ...result };
}
