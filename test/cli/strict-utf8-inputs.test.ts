// Every text file the CLI reads (roots, revocation lists, certificates, recordings) is strict UTF-8:
// a byte that is not is MALFORMED_FILE naming the file, never read as U+FFFD.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileProtocol, EMPTY_METADATA_HASH, Kernel } from '../../src/kernel/index.js';
import { requestKey } from '../../src/models/index.js';
import { Keyring, OfflineRoot } from '../../src/trust/index.js';
import { runCli } from '../helpers/cli.js';
import { refundProtocol, tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
let keyring: Keyring;
let event: string;

const write = (name: string, bytes: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};
/** `text` with one byte that is no UTF-8 anywhere (0xff) after its last newline. */
const damaged = (text: string) => Buffer.concat([Buffer.from(text), Buffer.from([0xff])]);

const errorOf = (res: { stdout: string; stderr: string }) =>
  JSON.parse(res.stderr || res.stdout).error as { code: string; message: string };

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  keyring = await Keyring.init(join(dir, 'keys'));
  const kernel = new Kernel({ signer: keyring.signer() });
  const signed = kernel.evaluate(
    { amount: 20 },
    compileProtocol(refundProtocol()),
    EMPTY_METADATA_HASH,
  );
  event = write('event.json', JSON.stringify(signed.event));
});
afterAll(() => cleanup());

describe('PEM inputs', () => {
  it('canonry verify: a root or revocation list with a byte that is not UTF-8', async () => {
    const root = write('root.pem', keyring.rootCertificatePem);
    const crl = write('crl.pem', keyring.revocationListPem());
    const badRoot = write('bad-root.pem', damaged(keyring.rootCertificatePem));
    const badCrl = write('bad-crl.pem', damaged(keyring.revocationListPem()));
    const verify = (...args: string[]) => runCli(['verify', '--event', event, '--json', ...args]);
    expect((await verify('--root', root, '--revocations', crl)).code).toBe(0);
    const r = await verify('--root', badRoot, '--revocations', crl);
    expect(r.code).toBe(1);
    expect(errorOf(r)).toMatchObject({ code: 'MALFORMED_FILE' });
    expect(errorOf(r).message).toContain('--root');
    const c = await verify('--root', root, '--revocations', badCrl);
    expect(c.code).toBe(1);
    expect(errorOf(c)).toMatchObject({ code: 'MALFORMED_FILE' });
    expect(errorOf(c).message).toContain('--revocations');
  });

  it('canonry keys init --root-cert --crl: files with a byte that is not UTF-8', async () => {
    const offline = await OfflineRoot.create(join(dir, 'offline'));
    const cert = write('offline-root.pem', damaged(offline.certificatePem));
    const crl = write('offline-crl.pem', offline.revocationListPem());
    const res = await runCli([
      'keys',
      'init',
      '--root-cert',
      cert,
      '--crl',
      crl,
      '--data',
      join(dir, 'data'),
      '--json',
    ]);
    expect(res.code).toBe(1);
    expect(errorOf(res)).toMatchObject({ code: 'MALFORMED_FILE' });
  });
});

describe('recordings', () => {
  it('relay run --model replay:FILE refuses a recording whose bytes are not UTF-8', async () => {
    const request = { messages: [{ role: 'user', content: 'hello' }] };
    const line = JSON.stringify({
      key: requestKey(request as never),
      request,
      response: { text: 'caf@', model: 'm' },
    });
    const bytes = Buffer.from(`${line}\n`);
    bytes[bytes.indexOf('@')] = 0xff;
    const file = write('recorded.jsonl', bytes);
    const res = await runCli(
      [
        'relay',
        'run',
        '--mode',
        'DOCUMENT',
        '--objective',
        'x',
        '--sections',
        'a',
        '--model',
        `replay:${file}`,
        '--data',
        join(dir, 'relay-data'),
      ],
      { env: { CANONRY_TOKEN: '', CANONRY_PROJECT: '' } },
    );
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('canonry: MALFORMED_FILE:');
  });
});
