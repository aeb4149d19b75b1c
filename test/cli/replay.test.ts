// `canonry replay EVENT_FILE` as the built CLI (child processes) on a real data directory: a signed
// verdict event replays to a match; a doctored one names its first difference and exits 1; an event
// the root did not sign, a missing artifact and an id with no event store are typed errors.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import type { JsonObject } from '../../src/core/index.js';
import {
  assembleQualifiedEvent,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcomeOf,
  type QualifiedEvent,
  signQualifiedEvent,
} from '../../src/evolution/index.js';
import { EMPTY_METADATA_HASH } from '../../src/kernel/index.js';
import { Keyring } from '../../src/trust/index.js';
import { asset, draft, userPrivate } from '../evolution/assets.js';
import { runCli } from '../helpers/cli.js';
import { readRepoJson, tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
let event: QualifiedEvent;
let foreign: QualifiedEvent;
const artifact = { amount: 500 };

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-replay-cli-'));
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  try {
    const { protocol } = await runtime.kernel.registry.register(
      readRepoJson('examples/refund/protocol.json'),
    );
    const evaluation = runtime.kernel.evaluate(artifact, protocol, EMPTY_METADATA_HASH);
    const made = assembleQualifiedEvent(
      draft({
        outcome: kernelVerdictOutcomeOf(evaluation, EMPTY_METADATA_HASH),
        replay: { execution_class: KERNEL_VERDICT_CLASS },
      }),
      [asset('a:1', userPrivate('alice'))],
      { signer: runtime.keyring.signer() },
    );
    if (!made.ok) throw new Error(made.issues[0]!.message);
    event = made.value;
  } finally {
    await runtime.close();
  }
  const other = tempDir();
  try {
    const { signature: _s, signing_identity: _i, signing_certificate: _c, ...claims } = event;
    foreign = signQualifiedEvent(claims, (await Keyring.init(other.dir)).signer());
  } finally {
    other.cleanup();
  }
});
afterAll(() => cleanup?.());

function file(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
}

const replay = (args: string[]) => runCli(['replay', ...args, '--data', dir, '--json']);

/** The event with its outcome changed, signed again by the data directory's own issuer. */
async function doctored(outcome: JsonObject): Promise<QualifiedEvent> {
  const { signature: _s, signing_identity: _i, signing_certificate: _c, ...claims } = event;
  return signQualifiedEvent({ ...claims, outcome }, (await Keyring.open(dir)).signer());
}

describe('canonry replay', () => {
  it('a signed verdict event with its artifact replays to a match', async () => {
    const run = await replay([file('bundle.json', { event, artifact })]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      status: 'match',
      execution_class: KERNEL_VERDICT_CLASS,
      event_id: event.event_id,
    });
    const plain = await replay([file('event.json', event), '--artifact', file('a.json', artifact)]);
    expect(plain.code, plain.stderr).toBe(0);
  });

  it('a doctored event whose recorded label differs names the label, exit 1', async () => {
    const forged = await doctored({ ...event.outcome, label: 'AUTO_APPROVE' });
    const run = await replay([file('doctored.json', { event: forged, artifact })]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).difference).toEqual({
      path: '/label',
      expected: 'AUTO_APPROVE',
      actual: 'MANAGER_REVIEW',
    });
  });

  it('another artifact than the one recorded: the artifact hash is the first difference, exit 1', async () => {
    const run = await replay([file('other.json', { event, artifact: { amount: 5 } })]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).difference.path).toBe('/artifact_hash');
  });

  it('refuses an event the pinned root did not sign, or one whose bytes were changed', async () => {
    const run = await replay([file('foreign.json', { event: foreign, artifact })]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error.code).toBe('CHAIN_INVALID');
    const tampered = { ...event, outcome: { ...event.outcome, label: 'AUTO_APPROVE' } };
    const changed = await replay([file('tampered.json', { event: tampered, artifact })]);
    expect(JSON.parse(changed.stdout).error.code).toBe('SIGNATURE_INVALID');
  });

  it('without its artifact, REPLAY_INPUT_MISSING; an id with no event store, INVALID_ARGUMENT', async () => {
    const bare = await replay([file('bare.json', event)]);
    expect(bare.code).toBe(1);
    expect(JSON.parse(bare.stdout).error.code).toBe('REPLAY_INPUT_MISSING');
    const id = await replay([event.event_id]);
    expect(JSON.parse(id.stdout).error.code).toBe('INVALID_ARGUMENT');
  });
});
