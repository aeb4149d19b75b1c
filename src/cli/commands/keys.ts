import type { Command } from 'commander';
import { resolveConfig } from '../../app/index.js';
import { Keyring } from '../../trust/index.js';
import { emit } from '../io.js';

interface KeysOptions {
  data?: string;
  json?: boolean;
}

const dataOption = ['--data <dir>', 'data directory (CANONRY_DATA, else ./.canonry)'] as const;

/** `canonry keys init|rotate|revoke|root|crl|list`: the project keyring. */
export function keysCommand(program: Command): void {
  const keys = program
    .command('keys')
    .description('manage the keyring (root, issuers, revocations)');
  const dirOf = (opts: KeysOptions) => resolveConfig({ dataDir: opts.data }).dataDir;

  keys
    .command('init')
    .description('create the root and a first issuer')
    .option(...dataOption)
    .option('--json', 'print JSON')
    .action(async (opts: KeysOptions) => {
      const keyring = await Keyring.init(dirOf(opts));
      printIssuers(keyring, opts, 'created keyring');
    });

  keys
    .command('rotate')
    .description('issue a new active issuer; events from older issuers still verify')
    .option(...dataOption)
    .option('--json', 'print JSON')
    .action(async (opts: KeysOptions) => {
      const keyring = await Keyring.open(dirOf(opts));
      await keyring.rotate();
      printIssuers(keyring, opts, 'rotated');
    });

  keys
    .command('revoke <fingerprint>')
    .description('revoke an issuer: its events fail verification from now on')
    .option(...dataOption)
    .option('--json', 'print JSON')
    .action(async (fingerprint: string, opts: KeysOptions) => {
      const keyring = await Keyring.open(dirOf(opts));
      await keyring.revoke(fingerprint);
      printIssuers(keyring, opts, `revoked ${fingerprint}`);
    });

  keys
    .command('list')
    .description('list issuers')
    .option(...dataOption)
    .option('--json', 'print JSON')
    .action(async (opts: KeysOptions) => {
      printIssuers(await Keyring.open(dirOf(opts)), opts, 'keyring');
    });

  keys
    .command('root')
    .description('print the root certificate (PEM) that relying parties pin')
    .option(...dataOption)
    .action(async (opts: KeysOptions) => {
      process.stdout.write((await Keyring.open(dirOf(opts))).rootCertificatePem);
    });

  keys
    .command('crl')
    .description('print the root-signed revocation list (PEM)')
    .option(...dataOption)
    .action(async (opts: KeysOptions) => {
      process.stdout.write((await Keyring.open(dirOf(opts))).revocationListPem());
    });
}

function printIssuers(keyring: Keyring, opts: KeysOptions, headline: string): void {
  const issuers = keyring.issuers().map(({ fingerprint, active, revoked, createdAt }) => ({
    fingerprint,
    active,
    revoked,
    created_at: createdAt,
  }));
  emit(opts.json === true, { root: keyring.rootFingerprint, issuers }, () => [
    `${headline}`,
    `root    ${keyring.rootFingerprint}`,
    ...issuers.map(
      (i) =>
        `issuer  ${i.fingerprint}${i.active ? ' (active)' : ''}${i.revoked ? ' (revoked)' : ''}`,
    ),
  ]);
}
