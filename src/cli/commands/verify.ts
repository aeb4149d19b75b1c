import type { Command } from 'commander';
import { parseContentHash } from '../../core/index.js';
import { verifyConformanceEvent } from '../../kernel/index.js';
import { DEVELOPMENT_ROOT_WARNING } from '../../trust/index.js';
import { parseInstantFlag } from '../instant-flag.js';
import { EXIT, emit, readJson, readPem } from '../io.js';
import { revocationListFor } from '../trust-anchor.js';

interface VerifyOptions {
  event: string;
  root: string;
  revocations?: string;
  revocation?: boolean;
  data?: string;
  artifact?: string;
  protocol?: string;
  metadataHash?: string;
  requireProductionRoot?: boolean;
  at?: string;
  json?: boolean;
}

/**
 * `canonry verify --event E.json --root ROOT.pem`: offline verification from the pinned root alone.
 * Exit 0 only when the signature, the chain (valid now, or `--at`), revocation and every supplied
 * binding check. Reports
 * `development_root` (read from the pinned root's subject); `--require-production-root` fails on one.
 */
export function verifyCommand(program: Command): void {
  program
    .command('verify')
    .description('verify a conformance event offline against a pinned root')
    .requiredOption('--event <file>', 'conformance event (JSON)')
    .requiredOption('--root <file>', 'pinned root certificate (PEM, from `canonry keys root`)')
    .option('--revocations <file>', 'root-signed revocation list (PEM, from `canonry keys crl`)')
    .option(
      '--data <dir>',
      'take the revocation list from this data directory when --revocations is absent',
    )
    .option('--no-revocation', 'accept the event without checking revocation')
    .option('--artifact <file>', 'check the event binds this artifact (JSON)')
    .option('--protocol <file>', 'check the event binds this protocol (JSON)')
    .option('--metadata-hash <hash>', 'check the event binds this generation-metadata hash')
    .option(
      '--at <time>',
      "judge the issuer's validity at this instant (RFC 3339) instead of now: events carry no time",
    )
    .option(
      '--require-production-root',
      'fail (DEVELOPMENT_ROOT) when the pinned root is a development root',
    )
    .option('--json', 'print the result as JSON')
    .action(async (opts: VerifyOptions) => {
      // Events carry no signing time (the same inputs sign the same bytes): the relying party says
      // when the issuer must have been valid, now unless it vouches for another instant.
      const at = opts.at === undefined ? new Date() : parseInstantFlag(opts.at, '--at');
      const event = readJson(opts.event, '--event');
      const root = readPem(opts.root, '--root');
      const revocationList = await revocationListFor(opts);
      const result = verifyConformanceEvent(event, {
        root,
        at,
        ...(revocationList ? { revocationList } : {}),
        ...(opts.artifact ? { artifact: readJson(opts.artifact, '--artifact') } : {}),
        ...(opts.protocol ? { protocol: readJson(opts.protocol, '--protocol') } : {}),
        ...(opts.metadataHash
          ? { generationMetadataHash: parseContentHash(opts.metadataHash, '--metadata-hash') }
          : {}),
      });
      const checked = {
        signature: true,
        chain: true,
        revocation: revocationList !== undefined,
        artifact_hash: opts.artifact !== undefined,
        protocol_hash: opts.protocol !== undefined,
        generation_metadata_hash: opts.metadataHash !== undefined,
        validity_at: at.toISOString(),
      };
      if (!result.ok || (result.developmentRoot && opts.requireProductionRoot === true)) {
        const issue = result.ok
          ? { code: 'DEVELOPMENT_ROOT', message: 'the pinned root is a development root' }
          : result.issues[0]!;
        emit(opts.json === true, { verified: false, error: issue }, () => [
          `NOT VERIFIED ${issue.code}: ${issue.message}`,
        ]);
        process.exitCode = EXIT.FAILED;
        return;
      }
      const { label, issuer } = result.value;
      const development_root = result.developmentRoot;
      emit(opts.json === true, { verified: true, label, development_root, checked }, () => [
        `VERIFIED ${label} (issuer ${issuer.fingerprint})`,
        ...Object.entries(checked).map(([k, v]) =>
          k === 'validity_at' ? `  issuer valid at: ${v}` : `  ${k}: ${v ? 'ok' : 'not checked'}`,
        ),
        ...(development_root ? [`warning: ${DEVELOPMENT_ROOT_WARNING}`] : []),
      ]);
    });
}
