import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CanonryRuntime,
  kernelVerdictReplayer,
  type RelayReplayInputs,
  relayWindowOutcomeOf,
  relayWindowReplayer,
} from '../../src/app/index.js';
import type { Principal } from '../../src/canon/index.js';
import { contentHash, type JsonObject } from '../../src/core/index.js';
import {
  assembleQualifiedEvent,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcomeOf,
  type QualifiedEvent,
  RELAY_WINDOW_CLASS,
  type Replayer,
  replayEvent,
  signQualifiedEvent,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { RecordingModel, ScriptedModel } from '../../src/models/index.js';
import { oneFactAnswer } from '../helpers/model-answers.js';
import { freshRuntime, readRepoJson } from '../helpers/runtime.js';
import { asset, draft, userPrivate } from './assets.js';

let runtime: CanonryRuntime;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ runtime, close } = await freshRuntime());
});
afterAll(async () => {
  await close();
});

/** A signed event recording `outcome`, replayable as `executionClass`. */
function eventOf(outcome: JsonObject, executionClass: string | undefined): QualifiedEvent {
  const result = assembleQualifiedEvent(
    draft({
      outcome,
      ...(executionClass === undefined
        ? { replay: undefined }
        : { replay: { execution_class: executionClass } }),
    }),
    [asset('a:1', userPrivate('alice'))],
    { signer: runtime.keyring.signer() },
  );
  if (!result.ok) throw new Error(result.issues[0]!.message);
  return result.value;
}

/** `event` with its outcome changed and signed again: a doctored record that still verifies. */
function doctored(event: QualifiedEvent, outcome: JsonObject): QualifiedEvent {
  const { signature: _s, signing_identity: _i, signing_certificate: _c, ...claims } = event;
  return signQualifiedEvent({ ...claims, outcome }, runtime.keyring.signer());
}

describe('replaying a kernel verdict', () => {
  const artifacts = new Map<string, unknown>();
  const replayers = (): Replayer[] => [
    kernelVerdictReplayer({
      registry: runtime.kernel.registry,
      signer: () => runtime.keyring.signer(),
      artifact: (hash) => artifacts.get(hash),
    }),
  ];

  async function verdictEvent(amount: number) {
    const { protocol } = await runtime.kernel.registry.register(
      readRepoJson('examples/refund/protocol.json'),
    );
    const artifact = { amount };
    const evaluation = runtime.kernel.evaluate(artifact, protocol, EMPTY_METADATA_HASH);
    artifacts.set(contentHash(artifact), artifact);
    const outcome = kernelVerdictOutcomeOf(evaluation, EMPTY_METADATA_HASH);
    return { event: eventOf(outcome, KERNEL_VERDICT_CLASS), outcome };
  }

  it('matches: the same label and the same conformance event bytes', async () => {
    const { event, outcome } = await verdictEvent(20);
    expect(outcome.label).toBe('AUTO_APPROVE');
    expect(outcome.event_hash).toMatch(/^sha256:/);
    const report = await replayEvent(event, replayers());
    expect(report).toEqual({
      event_id: event.event_id,
      execution_class: KERNEL_VERDICT_CLASS,
      status: 'match',
      compared: [
        'artifact_hash',
        'protocol_hash',
        'generation_metadata_hash',
        'class',
        'label',
        'event_hash',
      ],
    });
  });

  it('a doctored event whose recorded label differs: the label is the first difference', async () => {
    const { event, outcome } = await verdictEvent(500);
    expect(outcome.label).toBe('MANAGER_REVIEW');
    const report = await replayEvent(
      doctored(event, { ...outcome, label: 'AUTO_APPROVE' }),
      replayers(),
    );
    expect(report.status).toBe('differ');
    expect(report.status === 'differ' && report.difference).toEqual({
      path: '/label',
      expected: 'AUTO_APPROVE',
      actual: 'MANAGER_REVIEW',
    });
  });

  it('a doctored event hash is found after the label agrees', async () => {
    const { event, outcome } = await verdictEvent(21);
    const forged = contentHash({ forged: true });
    const report = await replayEvent(
      doctored(event, { ...outcome, event_hash: forged }),
      replayers(),
    );
    expect(report.status === 'differ' && report.difference).toEqual({
      path: '/event_hash',
      expected: forged,
      actual: outcome.event_hash,
    });
  });

  it('missing inputs are typed errors: the artifact, the protocol', async () => {
    const { event, outcome } = await verdictEvent(22);
    artifacts.clear();
    await expect(replayEvent(event, replayers())).rejects.toMatchObject({
      code: 'REPLAY_INPUT_MISSING',
      details: { input: 'artifact' },
    });
    artifacts.set(outcome.artifact_hash, { amount: 22 });
    const unknown = doctored(event, { ...outcome, protocol_hash: contentHash({ none: 1 }) });
    await expect(replayEvent(unknown, replayers())).rejects.toMatchObject({
      code: 'REPLAY_INPUT_MISSING',
      details: { input: 'protocol' },
    });
  });

  it('an event without a replay contract, a class nobody replays, a malformed outcome: REPLAY_UNAVAILABLE', async () => {
    const { outcome } = await verdictEvent(23);
    await expect(replayEvent(eventOf(outcome, undefined), replayers())).rejects.toMatchObject({
      code: 'REPLAY_UNAVAILABLE',
      details: { path: 'replay.execution_class' },
    });
    await expect(replayEvent(eventOf(outcome, 'tool.call'), replayers())).rejects.toMatchObject({
      code: 'REPLAY_UNAVAILABLE',
    });
    const bad = eventOf({ ...outcome, artifact_hash: 'nope' }, KERNEL_VERDICT_CLASS);
    await expect(replayEvent(bad, replayers())).rejects.toMatchObject({
      code: 'REPLAY_UNAVAILABLE',
      details: { path: 'outcome.artifact_hash' },
    });
  });
});

describe('replaying a relay window with the replay model', () => {
  const AGENT: Principal = { id: 'agent-1', project: 'relay-replay', role: 'agent' };

  async function recordedSession() {
    const answers = [
      oneFactAnswer('Install', 'the package is canonry'),
      oneFactAnswer('Operate', 'the service listens on 8080'),
    ];
    let served = 0;
    const model = new RecordingModel(
      new ScriptedModel([{ match: () => true, respond: () => answers[served++]! }]),
    );
    const { session } = await runtime.relay.start(AGENT, {
      mode: 'DOCUMENT',
      objective: 'A runbook',
      remaining: ['Install', 'Operate'],
    });
    await runtime.relay.run(AGENT, session.session_id, model, { maxWindows: 2 });
    const windows = await runtime.relay.windows(AGENT, session.session_id);
    expect(windows).toHaveLength(2);
    const inputs: RelayReplayInputs = { session, recordings: model.recordings() };
    return { windows, inputs };
  }

  it('re-runs the session in a scratch runtime: the second window matches; a doctored digest is named', async () => {
    const { windows, inputs } = await recordedSession();
    const outcome = relayWindowOutcomeOf(windows[1]!);
    const event = eventOf(outcome, RELAY_WINDOW_CLASS);
    const replayers = [relayWindowReplayer(() => inputs)];
    const report = await replayEvent(event, replayers);
    expect(report).toMatchObject({ status: 'match', execution_class: RELAY_WINDOW_CLASS });

    const forged = contentHash({ forged: true });
    const differ = await replayEvent(
      doctored(event, { ...outcome, state_digest: forged }),
      replayers,
    );
    expect(differ.status === 'differ' && differ.difference).toEqual({
      path: '/state_digest',
      expected: forged,
      actual: outcome.state_digest,
    });
  });

  it('recordings that do not hold the replayed prompt: the model request is the first difference; none at all: REPLAY_INPUT_MISSING', async () => {
    const { windows, inputs } = await recordedSession();
    const event = eventOf(relayWindowOutcomeOf(windows[1]!), RELAY_WINDOW_CLASS);
    const short = { ...inputs, recordings: inputs.recordings!.slice(0, 1) };
    const report = await replayEvent(event, [relayWindowReplayer(() => short)]);
    expect(report.status === 'differ' && report.difference.path).toBe('/model_request');
    await expect(replayEvent(event, [relayWindowReplayer(() => undefined)])).rejects.toMatchObject({
      code: 'REPLAY_INPUT_MISSING',
      details: { input: 'recordings' },
    });
  });
});
