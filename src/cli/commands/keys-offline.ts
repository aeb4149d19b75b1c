import { join } from 'node:path';
import type { Command } from 'commander';
import { OfflineRoot } from '../../trust/index.js';
import { emit } from '../io.js';
import { checkOut, type KeysOptions, note, OUT_OPTIONS, readPemFile, writePem } from './keys-io.js';

interface OfflineOptions extends KeysOptions {
  rootDir: string;
}

const rootDirOption = [
  '--root-dir <dir>',
  'the root directory on the offline machine (created 0700 by `init`)',
] as const;
const jsonOption = ['--json', 'print JSON'] as const;
const outOption = OUT_OPTIONS.out('PEM');

/**
 * `canonry keys offline init|sign|revoke|list --root-dir DIR`: the root's half of a production
 * keyring, run on a machine that no server can reach. The root key never leaves DIR.
 */
export function offlineKeysCommand(keys: Command): void {
  const offline = keys
    .command('offline')
    .description('the root on an offline machine: create it, sign issuer requests, revoke');

  offline
    .command('init')
    .description('create a root, its key and its first revocation list in a directory of its own')
    .requiredOption(...rootDirOption)
    .option(...jsonOption)
    .action(async (opts: OfflineOptions) => {
      const root = await OfflineRoot.create(opts.rootDir);
      const certificate = join(opts.rootDir, 'root.cert.pem');
      const list = join(opts.rootDir, 'revocation.crl.pem');
      emit(
        opts.json === true,
        { root: root.fingerprint, certificate, revocation_list: list },
        () => [
          `created offline root ${root.fingerprint} in ${opts.rootDir}`,
          'copy the certificate and the list (never the key) to each server and run there:',
          `  canonry keys init --root-cert root.cert.pem --crl revocation.crl.pem`,
        ],
      );
    });

  offline
    .command('sign <csr>')
    .description('sign an issuer request from `canonry keys csr` into an issuer certificate')
    .requiredOption(...rootDirOption)
    .option(...outOption)
    .option(...OUT_OPTIONS.force)
    .option(...jsonOption)
    .action(async (csr: string, opts: OfflineOptions) => {
      checkOut(opts);
      const root = await OfflineRoot.open(opts.rootDir);
      const signed = await root.signRequest(readPemFile(csr, 'certificate request'));
      if (opts.json === true) {
        const { fingerprint, certificatePem, alreadyIssued } = signed;
        emit(
          true,
          { fingerprint, certificate: certificatePem, already_issued: alreadyIssued },
          () => [],
        );
        return;
      }
      writePem(signed.certificatePem, opts);
      note([
        `${signed.alreadyIssued ? 'already issued' : 'issued'} ${signed.fingerprint}`,
        'on the server: canonry keys install-issuer ISSUER.pem',
      ]);
    });

  offline
    .command('revoke <fingerprint>')
    .description('revoke an issuer this root signed: a new revocation list for every server')
    .requiredOption(...rootDirOption)
    .option(...outOption)
    .option(...OUT_OPTIONS.force)
    .option(...jsonOption)
    .action(async (fingerprint: string, opts: OfflineOptions) => {
      checkOut(opts);
      const root = await OfflineRoot.open(opts.rootDir);
      const result = await root.revoke(fingerprint);
      if (opts.json === true) {
        const value = {
          number: result.number.toString(),
          revocation_list: result.revocationListPem,
        };
        emit(true, value, () => []);
        return;
      }
      writePem(result.revocationListPem, opts);
      note([
        `revocation list ${result.number}`,
        'on every server: canonry keys install-crl CRL.pem',
      ]);
    });

  offline
    .command('list')
    .description('the root and every issuer certificate it signed')
    .requiredOption(...rootDirOption)
    .option(...jsonOption)
    .action(async (opts: OfflineOptions) => {
      const root = await OfflineRoot.open(opts.rootDir);
      const issued = root.issued().map((i) => ({
        fingerprint: i.fingerprint,
        common_name: i.commonName,
        issued_at: i.issuedAt,
        revoked: i.revoked,
      }));
      emit(opts.json === true, { root: root.fingerprint, issued }, () => [
        `offline root ${root.fingerprint}`,
        ...issued.map(
          (i) => `issued  ${i.fingerprint} ${i.common_name}${i.revoked ? ' (revoked)' : ''}`,
        ),
      ]);
    });
}
