import type { Command } from 'commander';
import { parseContentHash } from '../../core/index.js';
import { compileProtocol, EMPTY_METADATA_HASH } from '../../kernel/index.js';
import { EXIT, emit, readJson } from '../io.js';
import { DATA_FLAG, DB_FLAG, withRuntime } from '../runtime.js';

interface ValidateOptions {
  protocol: string;
  artifact: string;
  metadataHash?: string;
  data?: string;
  db?: string;
  json?: boolean;
}

/**
 * `canonry validate --protocol P.json --artifact A.json`: one verdict, exit 0 conformant, 2 invalid,
 * 3 drift. Conformant verdicts are signed with the data directory's issuer.
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
    .option(...DB_FLAG)
    .option('--json', 'print the §6 envelope as JSON')
    .action(async (opts: ValidateOptions) => {
      const protocol = compileProtocol(readJson(opts.protocol, '--protocol'));
      const artifact = readJson(opts.artifact, '--artifact');
      const metadataHash = opts.metadataHash
        ? parseContentHash(opts.metadataHash, '--metadata-hash')
        : EMPTY_METADATA_HASH;
      await withRuntime(opts, async (runtime) => {
        const { verdict, envelope } = runtime.kernel.evaluate(artifact, protocol, metadataHash);
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
    });
}
