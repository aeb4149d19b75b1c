// A data directory where the evolution coordinator made the events a replay or a promotion reads:
// a relay window event per window of one session, and the kernel verdict event of the refund
// protocol judging one artifact. For the CLI suites that then run the built CLI over it.
import { type CanonryRuntime, createCanonry } from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import {
  EventStore,
  KERNEL_VERDICT_CLASS,
  RELAY_WINDOW_CLASS,
  type StoredEvent,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { type ModelRecording, RecordingModel, ScriptedModel } from '../../src/models/index.js';
import { oneFactAnswer } from './model-answers.js';
import { readRepoJson } from './runtime.js';

/** What {@link madeReplayEvents} made. */
export interface ReplayEvents {
  /** The refund protocol as the repository holds it (examples/refund/protocol.json). */
  readonly protocol: Record<string, unknown>;
  readonly refundHash: string;
  /** The session's model calls, recorded. */
  readonly recordings: readonly ModelRecording[];
  /** The relay window events of `project`. */
  readonly windows: readonly StoredEvent[];
  /** The kernel verdict events of the refund protocol (in the `evolution` project). */
  readonly verdicts: readonly StoredEvent[];
}

/** A runtime with the coordinator on over `dataDir`. */
export function evolutionOn(dataDir: string): Promise<CanonryRuntime> {
  return createCanonry({ dataDir, evolution: 'on', logLevel: 'silent' });
}

/** Every stored event of `project`, whole. */
export async function storedEvents(rt: CanonryRuntime, project: string): Promise<StoredEvent[]> {
  const store = new EventStore(rt.store);
  const rows = await store.list(project, { limit: 500 });
  return Promise.all(rows.map((r) => store.get(project, r.event_id)));
}

/**
 * In `dataDir`: registers the refund protocol and judges `artifact` against it, then runs a
 * DOCUMENT session of `agent` with one window per section, the model answering each with its one
 * fact (the last answer again past the end). The coordinator makes the events in a second runtime:
 * closing the first commits the audit's last batch, and it is taken up from its cursor next time.
 */
export async function madeReplayEvents(
  dataDir: string,
  agent: Principal,
  artifact: unknown,
  sections: readonly (readonly [title: string, fact: string])[],
): Promise<ReplayEvents> {
  const protocol = readRepoJson('examples/refund/protocol.json') as Record<string, unknown>;
  let refundHash: string;
  let recordings: readonly ModelRecording[];
  let rt = await evolutionOn(dataDir);
  try {
    const registered = await rt.kernel.registry.register(protocol);
    refundHash = registered.protocol.hash;
    rt.kernel.evaluate(artifact, registered.protocol, EMPTY_METADATA_HASH);
    const answers = sections.map(([title, fact]) => oneFactAnswer(title, fact));
    let served = 0;
    const model = new RecordingModel(
      new ScriptedModel([
        { match: () => true, respond: () => answers[Math.min(served++, answers.length - 1)]! },
      ]),
    );
    const { session } = await rt.relay.start(agent, {
      mode: 'DOCUMENT',
      objective: 'A runbook',
      remaining: sections.map(([title]) => title),
    });
    await rt.relay.run(agent, session.session_id, model, { maxWindows: sections.length });
    recordings = model.recordings();
  } finally {
    await rt.close();
  }
  rt = await evolutionOn(dataDir);
  try {
    await rt.evolution!.idle();
    const windows = (await storedEvents(rt, agent.project)).filter(
      (e) => e.event.replay?.execution_class === RELAY_WINDOW_CLASS,
    );
    // The relay's gate judges too; only the refund protocol's verdicts are kept.
    const verdicts = (await storedEvents(rt, 'evolution')).filter(
      (e) =>
        e.event.replay?.execution_class === KERNEL_VERDICT_CLASS &&
        e.event.outcome.protocol_hash === refundHash,
    );
    return { protocol, refundHash, recordings, windows, verdicts };
  } finally {
    await rt.close();
  }
}
