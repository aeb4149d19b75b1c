// `canonry verify` and `canonry journal verify --file` judge the issuer at the verifier's clock, or
// at `--at`: neither an event nor a checkpoint carries the time it was signed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportSegment, Journal } from '../../src/journal/index.js';
import { compileProtocol, EMPTY_METADATA_HASH, Kernel } from '../../src/kernel/index.js';
import { Keyring } from '../../src/trust/index.js';
import { runCli } from '../helpers/cli.js';
import { signerAt } from '../helpers/clock.js';
import { COUNTERS, count, createCounters } from '../helpers/journal.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';
import { ENGINES } from '../helpers/stores.js';

let dir: string;
const cleanups: (() => unknown)[] = [];
const paths: Record<'event' | 'root' | 'crl' | 'segment', string> = {
  event: '',
  root: '',
  crl: '',
  segment: '',
};

beforeAll(async () => {
  const made = tempDir();
  dir = made.dir;
  cleanups.push(made.cleanup);
  // Made in 2000: the issuer expired in 2010 and the root in 2020.
  const keyring = await Keyring.init(join(dir, 'keys'), { now: new Date('2000-01-01T00:00:00Z') });
  // What the issuer signed while it was valid: a keyring signs nothing outside that window.
  const signer = signerAt(keyring, new Date('2000-01-02T00:00:00Z'));
  const kernel = new Kernel({ signer });
  const { event } = kernel.evaluate(
    { amount: 20 },
    compileProtocol(refundProtocol()),
    EMPTY_METADATA_HASH,
  );
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  paths.event = write('event.json', JSON.stringify(event));
  paths.root = write('root.pem', keyring.rootCertificatePem);
  paths.crl = write('crl.pem', keyring.revocationListPem());
  const sqlite = ENGINES.find((e) => e.name === 'sqlite')!;
  const fresh = await sqlite.fresh();
  cleanups.push(fresh.cleanup, () => fresh.store.close());
  await createCounters(fresh.store);
  const journal = new Journal(fresh.store, {
    projections: [COUNTERS],
    signer: () => signer,
  });
  await journal.append('alpha', count('c', 1));
  let text = '';
  for await (const line of exportSegment(journal, 'alpha')) text += line;
  paths.segment = write('alpha.jsonl', text);
});
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const verify = (...extra: string[]) =>
  runCli([
    'verify',
    '--event',
    paths.event,
    '--root',
    paths.root,
    '--revocations',
    paths.crl,
    '--json',
    ...extra,
  ]);

describe('canonry verify', () => {
  it('refuses an event whose issuer has expired, and verifies it at an instant it vouches for', async () => {
    const now = await verify();
    expect(now.code).toBe(1);
    expect(JSON.parse(now.stdout).error.code).toBe('CHAIN_INVALID');
    const then = await verify('--at', '2004-02-29T12:00:00+01:00');
    expect(then.code).toBe(0);
    expect(JSON.parse(then.stdout)).toMatchObject({
      verified: true,
      checked: { validity_at: '2004-02-29T11:00:00.000Z' },
    });
    const after = await verify('--at', '2011-01-01T00:00:00Z');
    expect(JSON.parse(after.stdout).error.code).toBe('CHAIN_INVALID');
  });

  it('refuses an --at that is not an RFC 3339 date-time with an offset', async () => {
    for (const at of [
      '2004-02-30T00:00:00Z',
      '2004-01-01',
      '2004-01-01T00:00:00',
      'yesterday',
      '',
    ]) {
      const res = await verify('--at', at);
      expect(res.code, at).toBe(1);
      expect(JSON.parse(res.stderr || res.stdout).error.code, at).toBe('INVALID_ARGUMENT');
    }
  });
});

describe('canonry journal verify --file', () => {
  const journalVerify = (...extra: string[]) =>
    runCli([
      'journal',
      'verify',
      '--file',
      paths.segment,
      '--root',
      paths.root,
      '--no-revocation',
      '--json',
      ...extra,
    ]);

  it("refuses a segment whose checkpoint's issuer has expired, and verifies it at its time", async () => {
    const now = await journalVerify();
    expect(now.code).toBe(1);
    expect(JSON.parse(now.stderr || now.stdout).error.code).toBe('CHAIN_INVALID');
    const then = await journalVerify('--at', '2003-01-01T00:00:00Z');
    expect(then.code).toBe(0);
    expect(JSON.parse(then.stdout)).toMatchObject({ ok: true });
  });
});

describe('canonry journal verify --file on a broken segment', () => {
  it('prints what is true of the file: the line, not a stored row', async () => {
    const lines = readFileSync(paths.segment, 'utf8').trimEnd().split('\n');
    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, `${[lines[0], '{}', ...lines.slice(2)].join('\n')}\n`);
    const res = await runCli([
      'journal',
      'verify',
      '--file',
      broken,
      '--root',
      paths.root,
      '--no-revocation',
      '--at',
      '2003-01-01T00:00:00Z',
    ]);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe(
      'BROKEN alpha at seq 1: unreadable (line 2 of the segment is not a journal entry)\n',
    );
  });
});
