import type { Command } from 'commander';
import { refuseKeyringOverBoundStore, resolveConfig } from '../../app/index.js';
import { type HmacKeyInfo, HmacKeyring } from '../../trust/index.js';
import { emit } from '../io.js';
import type { KeysOptions } from './keys-io.js';

interface HmacOptions extends KeysOptions {
  project: string;
}

const projectOption = ['--project <name>', 'the project whose HMAC keys these are'] as const;
const dataOption = ['--data <dir>', 'data directory (CANONRY_DATA, else ./.canonry)'] as const;
const jsonOption = ['--json', 'print JSON'] as const;

function printKeys(project: string, keys: HmacKeyInfo[], opts: HmacOptions, headline: string) {
  const value = {
    project,
    keys: keys.map((k) => ({ key_id: k.keyId, status: k.status, created_at: k.createdAt })),
  };
  emit(opts.json === true, value, () => [
    headline,
    ...keys.map(
      (k) => `${k.keyId.padEnd(12)} ${k.status.padEnd(8)} ${k.createdAt ?? '(environment)'}`,
    ),
  ]);
}

/**
 * `canonry keys hmac rotate|list --project P`: the per-project HMAC keys that chain CSOs. Only
 * ids and dates are printed, never a key. With `CANONRY_HMAC_KEY` set, rotation is refused: the
 * key is changed where it is managed.
 */
export function hmacKeysCommand(keys: Command): void {
  const hmac = keys.command('hmac').description('per-project HMAC keys (CSO chaining)');
  const open = (opts: HmacOptions) =>
    HmacKeyring.open(resolveConfig({ dataDir: opts.data }).dataDir);

  hmac
    .command('rotate')
    .description('make a new current key for a project; older keys still verify what they sealed')
    .requiredOption(...projectOption)
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (opts: HmacOptions) => {
      const keyring = open(opts);
      // A new key beside a database whose keys are gone would take the id of a key in their backup.
      await refuseKeyringOverBoundStore(resolveConfig({ dataDir: opts.data }).dataDir);
      const made = await keyring.rotate(opts.project);
      printKeys(opts.project, await keyring.keys(opts.project), opts, `rotated: ${made.keyId}`);
    });

  hmac
    .command('list')
    .description("list a project's HMAC key ids (the current one last)")
    .requiredOption(...projectOption)
    .option(...dataOption)
    .option(...jsonOption)
    .action(async (opts: HmacOptions) => {
      const keys = await open(opts).keys(opts.project);
      printKeys(opts.project, keys, opts, `HMAC keys of ${opts.project}`);
    });
}
