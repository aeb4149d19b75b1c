// `canonry journal verify --project … --at` judges each stored checkpoint's issuer at the instant
// given, as the HTTP route does with `at`: one signed by an issuer that expired a month ago verifies
// at an instant inside its window and breaks the chain at its seq at now; one dated a month ahead,
// the other way round. Without --at no issuer window is judged. A bad --at is a typed usage error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { type CheckpointIssuers, dataDirWithPastCheckpoints } from '../helpers/past-issuers.js';
import { tempDir } from '../helpers/runtime.js';

const DAY = 24 * 3600 * 1000;
const temp = tempDir('canonry-cli-journal-at-');
let issuers: CheckpointIssuers;

beforeAll(async () => {
  issuers = await dataDirWithPastCheckpoints(temp.dir);
});
afterAll(temp.cleanup);

const verify = async (project: string, at?: string) => {
  const r = await runCli([
    'journal',
    'verify',
    '--project',
    project,
    '--data',
    temp.dir,
    '--no-projections',
    '--json',
    ...(at === undefined ? [] : ['--at', at]),
  ]);
  return { ...r, report: r.code <= 1 && r.stdout ? JSON.parse(r.stdout) : undefined };
};

describe('canonry journal verify --project --at', { timeout: 60_000 }, () => {
  it('judges each checkpoint issuer at --at, and none without it', async () => {
    for (const [project, start] of [
      ['old', issuers.made],
      ['early', issuers.ahead],
    ] as const) {
      const plain = await verify(project);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.report).toMatchObject({ ok: true, checked: 3, checkpoints: 1 });

      const within = await verify(project, new Date(start.getTime() + 2 * DAY).toISOString());
      expect(within.code, within.stderr).toBe(0);
      expect(within.report).toMatchObject({ ok: true, checked: 3, checkpoints: 1 });

      const now = await verify(project, new Date().toISOString());
      expect(now.code, now.stderr).toBe(1);
      expect(now.report).toMatchObject({
        ok: false,
        broken: { seq: 3, reason: 'checkpoint-mismatch' },
      });
    }
  });

  it('refuses an --at that is no RFC 3339 instant', async () => {
    const bad = await runCli([
      'journal',
      'verify',
      '--project',
      'old',
      '--data',
      temp.dir,
      '--at',
      '2030-01-31',
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/INVALID_ARGUMENT.*--at/);
  });
});
