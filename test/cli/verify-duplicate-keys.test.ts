// An event file that names a member twice in one object means one thing to a parser that keeps the
// last and another to one that keeps the first: `canonry verify` refuses it, never reports VERIFIED.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProtocol, EMPTY_METADATA_HASH, Kernel } from '../../src/kernel/index.js';
import { Keyring } from '../../src/trust/index.js';
import { runCli } from '../helpers/cli.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
let eventText: string;
let root: string;

const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const keyring = await Keyring.init(join(dir, 'keys'));
  const kernel = new Kernel({ signer: keyring.signer() });
  const { event } = kernel.evaluate(
    { amount: 20 },
    compileProtocol(refundProtocol()),
    EMPTY_METADATA_HASH,
  );
  eventText = JSON.stringify(event);
  root = write('root.pem', keyring.rootCertificatePem);
});
afterAll(() => cleanup());

const verify = (event: string, ...extra: string[]) =>
  runCli(['verify', '--event', event, '--root', root, '--no-revocation', '--json', ...extra]);

describe('canonry verify on duplicate member names', () => {
  it('verifies the event as signed, and refuses it with a label given twice', async () => {
    expect((await verify(write('event.json', eventText))).code).toBe(0);
    // A reader keeping the first `label` sees BLOCK; JSON.parse keeps the signed AUTO_APPROVE.
    const doubled = write('doubled.json', `{"label":"BLOCK",${eventText.slice(1)}`);
    const res = await verify(doubled);
    expect(res.code).toBe(1);
    const error = JSON.parse(res.stderr || res.stdout).error;
    expect(error.code).toBe('MALFORMED_FILE');
    expect(error.message).toContain('"label" twice');
  });

  it('refuses an artifact given to bind with a member named twice', async () => {
    const artifact = write('artifact.json', '{"amount":5000,"amount":20}');
    const res = await verify(write('event2.json', eventText), '--artifact', artifact);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stderr || res.stdout).error.code).toBe('MALFORMED_FILE');
  });
});
