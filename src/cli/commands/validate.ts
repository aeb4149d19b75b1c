import type { Command } from 'commander';
import { resolveConfig } from '../../app/index.js';
import { CanonryError, isCanonryError, parseContentHash } from '../../core/index.js';
import { compileProtocol, EMPTY_METADATA_HASH, Kernel } from '../../kernel/index.js';
import { Keyring } from '../../trust/index.js';
import { checkOutputFile, EXIT, emit, readJson, writeOutputFile } from '../io.js';
import { DATA_FLAG } from '../runtime.js';

interface ValidateOptions {
  protocol: string;
  artifact: string;
  metadataHash?: string;
  data?: string;
  eventOut?: string;
  force?: boolean;
  json?: boolean;
}

/**
 * The keyring of a data directory, opened for signing; a check never creates one (KEYRING_MISSING
 * says how to).
 */
async function existingKeyring(dataDir: string): Promise<Keyring> {
  try {
    return await Keyring.open(dataDir);
  } catch (err) {
    if (!isCanonryError(err, 'KEYRING_MISSING')) throw err;
    throw new CanonryError(
      'KEYRING_MISSING',
      `no keyring in ${dataDir}: validate signs with an existing one and never creates keys; run \`canonry keys init --data ${dataDir}\` (or start \`canonry serve\` once), or pass --data <dir> of a data directory that has one`,
    );
  }
}

/**
 * `canonry validate --protocol P.json --artifact A.json [--data DIR] [--event-out E.json]`: one
 * verdict, exit 0 conformant, 2 invalid, 3 drift. Conformant verdicts are signed with the data
 * directory's issuer; `--event-out` writes that signed event (nothing when not conformant).
 * An offline check: no database is opened and no audit is written.
 */
export function validateCommand(program: Command): void {
  program
    .command('validate')
    .description(
      'resolve an artifact against an agentic protocol (exit 0 conformant, 2 invalid, 3 drift)',
    )
    .requiredOption('--protocol <file>', 'agentic protocol bundle (JSON)')
    .requiredOption('--artifact <file>', 'artifact (JSON)')
    .option('--metadata-hash <hash>', 'generation-metadata hash (sha256:…); default: hash of {}')
    .option(...DATA_FLAG)
    .option(
      '--event-out <file>',
      'write the signed conformance event (the attestation) to this file, for `canonry verify`',
    )
    .option('--force', 'replace --event-out if it exists (a regular file only)')
    .option('--json', 'print the §6 envelope as JSON')
    .action(async (opts: ValidateOptions) => {
      const eventOut = { flag: '--event-out', force: opts.force };
      if (opts.eventOut !== undefined) checkOutputFile(opts.eventOut, eventOut);
      const protocol = compileProtocol(readJson(opts.protocol, '--protocol'));
      const artifact = readJson(opts.artifact, '--artifact');
      const metadataHash = opts.metadataHash
        ? parseContentHash(opts.metadataHash, '--metadata-hash')
        : EMPTY_METADATA_HASH;
      const keyring = await existingKeyring(resolveConfig({ dataDir: opts.data }).dataDir);
      const kernel = new Kernel({ signer: keyring.signer() });
      const { verdict, envelope, event } = kernel.evaluate(artifact, protocol, metadataHash);
      if (opts.eventOut !== undefined && event !== null) {
        writeOutputFile(opts.eventOut, `${JSON.stringify(event, null, 2)}\n`, eventOut);
      }
      emit(opts.json === true, envelope, () =>
        verdict.class === 'CONFORMANT'
          ? [
              `CONFORMANT ${verdict.label}`,
              `protocol ${protocol.hash}`,
              `artifact ${verdict.artifactHash}`,
            ]
          : [`${verdict.class}: ${envelope.error?.message}`],
      );
      process.exitCode = EXIT[verdict.class === 'CONFORMANT' ? 'OK' : verdict.class];
    });
}
