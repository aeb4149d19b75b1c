import type { Command } from 'commander';
import { refuseKeyringOverBoundStore, resolveConfig } from '../../app/index.js';
import { CanonryError } from '../../core/index.js';
import { Keyring } from '../../trust/index.js';
import { emit } from '../io.js';
import { hmacKeysCommand } from './keys-hmac.js';
import {
  checkOut,
  type KeysOptions,
  note,
  OUT_OPTIONS,
  printKeyring,
  readPemFile,
  writePem,
} from './keys-io.js';
import { offlineKeysCommand } from './keys-offline.js';

interface InitOptions extends KeysOptions {
  rootCert?: string;
  crl?: string;
}

const dataOption = ['--data <dir>', 'data directory (CANONRY_DATA, else ./.canonry)'] as const;
const jsonOption = ['--json', 'print JSON'] as const;

/**
 * `canonry keys …`: the project keyring. A development keyring (`init`) holds its root key and
 * rotates and revokes by itself; a production keyring (`init --root-cert --crl`) pins a root kept
 * offline and takes issuers (`csr`, `install-issuer`) and lists (`install-crl`) from the root
 * machine, where `keys offline …` runs.
 */
export function keysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .description('manage the keyring (root, issuers, revocations) and the HMAC keys');
  const dirOf = (opts: KeysOptions) => resolveConfig({ dataDir: opts.data }).dataDir;
  const open = (opts: KeysOptions) => Keyring.open(dirOf(opts));

  keys
    .command('init')
    .description('create a development keyring, or with --root-cert one pinned to an offline root')
    .option(
      '--root-cert <file>',
      'root certificate made by `keys offline init` (its key stays there)',
    )
    .option('--crl <file>', "that root's revocation list (with --root-cert)")
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (opts: InitOptions) => {
      if ((opts.rootCert === undefined) !== (opts.crl === undefined)) {
        throw new CanonryError('INVALID_ARGUMENT', '--root-cert and --crl go together');
      }
      const offlineRoot =
        opts.rootCert !== undefined && opts.crl !== undefined
          ? {
              certificatePem: readPemFile(opts.rootCert, '--root-cert'),
              revocationListPem: readPemFile(opts.crl, '--crl'),
            }
          : undefined;
      // A development root is new every time: beside a database whose keys are gone it could only
      // stand where the real keyring must be restored. A pinned offline root may be that root again.
      if (offlineRoot === undefined) await refuseKeyringOverBoundStore(dirOf(opts));
      const keyring = await Keyring.init(dirOf(opts), offlineRoot ? { offlineRoot } : {});
      printKeyring(keyring, opts, 'created keyring');
      if (!keyring.canSign && opts.json !== true) {
        note(['next: `canonry keys csr`, sign it offline, then `canonry keys install-issuer`']);
      }
    });

  keys
    .command('rotate')
    .description('issue a new active issuer; events from older issuers still verify')
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (opts: KeysOptions) => {
      const keyring = await open(opts);
      await keyring.rotate();
      printKeyring(keyring, opts, 'rotated');
    });

  keys
    .command('revoke <fingerprint>')
    .description('revoke an issuer: its events fail verification from now on')
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (fingerprint: string, opts: KeysOptions) => {
      const keyring = await open(opts);
      await keyring.revoke(fingerprint);
      printKeyring(keyring, opts, `revoked ${fingerprint}`);
    });

  keys
    .command('list')
    .description('list the root and issuers, and say whether the root is a development root')
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (opts: KeysOptions) => {
      printKeyring(await open(opts), opts, 'keyring');
    });

  keys
    .command('root')
    .description('print the root certificate (PEM) that relying parties pin')
    .option(...dataOption)
    .action(async (opts: KeysOptions) => {
      process.stdout.write((await open(opts)).rootCertificatePem);
    });

  keys
    .command('crl')
    .description('print the root-signed revocation list (PEM)')
    .option(...dataOption)
    .action(async (opts: KeysOptions) => {
      process.stdout.write((await open(opts)).revocationListPem());
    });

  keys
    .command('csr')
    .description('print the signing request for a new issuer key (offline root only)')
    .option('--new', 'discard the pending key and make a new one')
    .option(...OUT_OPTIONS.out('request'))
    .option(...OUT_OPTIONS.force)
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (opts: KeysOptions & { new?: boolean }) => {
      checkOut(opts);
      const keyring = await open(opts);
      const request = await keyring.requestIssuer({ fresh: opts.new === true });
      if (opts.json === true) {
        emit(true, { number: request.number, request: request.certificateRequestPem }, () => []);
        return;
      }
      writePem(request.certificateRequestPem, opts);
      note([
        `pending issuer ${request.number}: on the root machine run`,
        '  canonry keys offline sign CSR.pem --root-dir ROOT_DIR --out ISSUER.pem',
        'then here: canonry keys install-issuer ISSUER.pem',
      ]);
    });

  keys
    .command('install-issuer <file>')
    .description('install the issuer certificate the offline root signed for the pending key')
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (file: string, opts: KeysOptions) => {
      const keyring = await open(opts);
      const installed = await keyring.installIssuer(readPemFile(file, 'issuer certificate'));
      printKeyring(keyring, opts, `installed issuer ${installed.fingerprint}`);
    });

  keys
    .command('install-crl <file>')
    .description('install a newer revocation list signed by the offline root')
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (file: string, opts: KeysOptions) => {
      const keyring = await open(opts);
      const result = await keyring.installRevocationList(readPemFile(file, 'revocation list'));
      const revoked =
        result.revoked.map((i) => i.fingerprint).join(', ') || 'no issuer of this keyring';
      printKeyring(keyring, opts, `installed revocation list ${result.number}; revoked ${revoked}`);
    });

  offlineKeysCommand(keys);
  hmacKeysCommand(keys);
}
