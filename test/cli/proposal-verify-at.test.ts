// `canonry canon proposal <id> --at` checks the signed gate verdict at the instant given, as the HTTP
// route does with `at`: a proposal whose gate was signed a day into an issuer that expired a month
// ago shows, without --at, that it does not verify now because that issuer expired after it was
// recorded, and the --at to ask with; with that --at, it verifies. A bad --at is a typed error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT } from '../helpers/canon.js';
import { issueTokens, runCli } from '../helpers/cli.js';
import { dataDirWithExpiredGate, type ExpiredGate } from '../helpers/past-issuers.js';
import { tempDir } from '../helpers/runtime.js';

const DAY = 24 * 3600 * 1000;
const temp = tempDir('canonry-cli-proposal-at-');
let gate: ExpiredGate;
let token: string;

beforeAll(async () => {
  gate = await dataDirWithExpiredGate(temp.dir);
  token = (await issueTokens(temp.dir, PROJECT, [['val', 'viewer']])).val!;
}, 60_000);
afterAll(temp.cleanup);

const proposal = (...flags: string[]) =>
  runCli(['canon', 'proposal', gate.proposal_id, '--token', token, '--data', temp.dir, ...flags], {
    env: { CANONRY_TOKEN: '' },
  });

describe('canonry canon proposal --at', { timeout: 60_000 }, () => {
  it('says the issuer expired after it was recorded, and verifies at the --at it names', async () => {
    const plain = await proposal();
    expect(plain.code, plain.stderr).toBe(0);
    const hint = /does not verify now \(ISSUER_EXPIRED: .* it verifies with --at (\S+)\)/.exec(
      plain.stdout,
    );
    expect(hint, plain.stdout).not.toBeNull();
    expect(new Date(hint![1]!).getTime()).toBe(gate.recorded.getTime());

    const at = await proposal('--at', hint![1]!, '--json');
    expect(at.code, at.stderr).toBe(0);
    expect(JSON.parse(at.stdout).gate).toMatchObject({
      label: gate.label,
      verification: { ok: true, issue: null },
    });
    const human = await proposal('--at', new Date(gate.made.getTime() + 2 * DAY).toISOString());
    expect(human.stdout).toContain('signed verdict verifies');
  });

  it('an --at outside the window is CHAIN_INVALID; one that is no instant is INVALID_ARGUMENT', async () => {
    const now = await proposal('--at', new Date().toISOString(), '--json');
    expect(now.code, now.stderr).toBe(0);
    expect(JSON.parse(now.stdout).gate.verification).toEqual({ ok: false, issue: 'CHAIN_INVALID' });
    const bad = await proposal('--at', 'yesterday');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/INVALID_ARGUMENT.*\bat\b/);
  });
});
