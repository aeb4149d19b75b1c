// `canonry replay` verifies the event before replaying its work, and an event carries no signing
// time: its issuer is judged now, or at `--at`. An event signed by an issuer that has expired since,
// or by one dated ahead (a clock set wrong), is refused at now and replays to a match at an
// instant inside its issuer's window; an `--at` that is no RFC 3339 instant is INVALID_ARGUMENT.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import {
  assembleQualifiedEvent,
  KERNEL_VERDICT_CLASS,
  kernelVerdictOutcomeOf,
  type QualifiedEvent,
} from '../../src/evolution/index.js';
import { compileProtocol, EMPTY_METADATA_HASH, Kernel } from '../../src/kernel/index.js';
import { Keyring, type Signer } from '../../src/trust/index.js';
import { asset, draft, userPrivate } from '../evolution/assets.js';
import { runCli } from '../helpers/cli.js';
import { signerAt } from '../helpers/clock.js';
import { readRepoJson, tempDir } from '../helpers/runtime.js';

const DAY = 24 * 3600 * 1000;
// Issuers live 10 years: one made 10 years and 30 days ago expired a month ago.
const MADE = new Date(Date.now() - (10 * 365 + 2 + 30) * DAY);
// One dated a month ahead: valid from then on.
const AHEAD = new Date(Date.now() + 30 * DAY);
const artifact = { amount: 500 };

let dir: string;
let cleanup: () => void;
const events: { expired?: QualifiedEvent; early?: QualifiedEvent } = {};

/** A kernel verdict event on `artifact`, the verdict and the event signed by `signer`. */
function verdictEvent(signer: Signer): QualifiedEvent {
  const evaluation = new Kernel({ signer }).evaluate(
    artifact,
    compileProtocol(readRepoJson('examples/refund/protocol.json')),
    EMPTY_METADATA_HASH,
  );
  const made = assembleQualifiedEvent(
    draft({
      outcome: kernelVerdictOutcomeOf(evaluation, EMPTY_METADATA_HASH),
      replay: { execution_class: KERNEL_VERDICT_CLASS },
    }),
    [asset('a:1', userPrivate('alice'))],
    { signer },
  );
  if (!made.ok) throw new Error(made.issues[0]!.message);
  return made.value;
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir('canonry-replay-at-'));
  const keyring = await Keyring.init(dir, { now: MADE });
  events.expired = verdictEvent(signerAt(keyring, new Date(MADE.getTime() + DAY)));
  await keyring.rotate({ now: AHEAD });
  events.early = verdictEvent(signerAt(keyring, new Date(AHEAD.getTime() + DAY)));
  // Today's issuer, so the data directory serves (and holds the protocol the events name).
  await keyring.rotate();
  const runtime = await createCanonry({ dataDir: dir, logLevel: 'silent' });
  try {
    await runtime.kernel.registry.register(readRepoJson('examples/refund/protocol.json'));
  } finally {
    await runtime.close();
  }
});
afterAll(() => cleanup?.());

const replay = (event: QualifiedEvent, ...extra: string[]) => {
  const path = join(dir, `${event.signing_identity.slice(7, 19)}.json`);
  writeFileSync(path, JSON.stringify({ event, artifact }));
  return runCli(['replay', path, '--data', dir, '--json', ...extra]);
};
const iso = (ms: number) => new Date(ms).toISOString();
const errorOf = (run: { stdout: string; stderr: string }) =>
  JSON.parse(run.stderr || run.stdout).error;

describe('canonry replay --at', () => {
  it('refuses at now an event whose issuer has expired or is not yet valid, and replays it inside the window', async () => {
    for (const [event, made] of [
      [events.expired!, MADE],
      [events.early!, AHEAD],
    ] as const) {
      const now = await replay(event);
      expect(now.code).toBe(1);
      expect(errorOf(now).code).toBe('CHAIN_INVALID');
      const within = await replay(event, '--at', iso(made.getTime() + 2 * DAY));
      expect(within.code, within.stderr).toBe(0);
      expect(JSON.parse(within.stdout)).toMatchObject({
        status: 'match',
        execution_class: KERNEL_VERDICT_CLASS,
        event_id: event.event_id,
      });
      const before = await replay(event, '--at', iso(made.getTime() - DAY));
      expect(errorOf(before).code).toBe('CHAIN_INVALID');
    }
  });

  it('refuses an --at that is no RFC 3339 instant, naming the flag', async () => {
    for (const at of ['yesterday', '2030-02-30T00:00:00Z', '2030-01-31T00:00:00']) {
      const run = await replay(events.expired!, '--at', at);
      expect(run.code, at).not.toBe(0);
      const error = errorOf(run);
      expect(error.code, at).toBe('INVALID_ARGUMENT');
      expect(error.message, at).toContain('--at');
    }
  });
});
