import type { Command } from 'commander';
import { CanonryError } from '../../core/index.js';
import {
  exportSegment,
  parseProject,
  rebuildProject,
  requireJournal,
  segmentRevocationList,
  type VerifyReport,
  verifyProject,
  verifySegment,
  withProjectionCheck,
} from '../../journal/index.js';
import { parseInstantFlag } from '../instant-flag.js';
import { EXIT, emit, readPem, readText } from '../io.js';
import { DATA_FLAG, DB_FLAG, type RuntimeFlags, withRuntime } from '../runtime.js';
import { revocationListFor } from '../trust-anchor.js';

interface JournalFlags extends RuntimeFlags {
  project?: string;
  file?: string;
  root?: string;
  revocations?: string;
  revocation?: boolean;
  projections?: boolean;
  after?: string;
  limit?: string;
  at?: string;
  json?: boolean;
}

function count(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,15}$/.test(value))
    throw new CanonryError('INVALID_ARGUMENT', `${name} must be an integer ≥ 0`);
  return Number(value);
}

function requireProject(flags: JournalFlags): string {
  if (!flags.project) throw new CanonryError('INVALID_ARGUMENT', '--project is required');
  return flags.project;
}

/** `canonry journal export | verify | rebuild | read | checkpoint`. */
export function journalCommand(program: Command): void {
  const journal = program.command('journal').description('the hash-chained journal of a project');

  journal
    .command('export')
    .description('write a project as a signed JSONL segment to stdout')
    .requiredOption('--project <name>', 'project')
    .option('--after <seq>', 'start after this seq', '0')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .action(async (flags: JournalFlags) => {
      await withRuntime(
        flags,
        async ({ journal: j, keyring }) => {
          // The revocation list travels with the segment: the pinned root alone then verifies it.
          for await (const line of exportSegment(
            j,
            requireProject(flags),
            count(flags.after, '--after', 0),
            { revocationList: keyring.revocationListPem() },
          )) {
            if (!process.stdout.write(line))
              await new Promise((r) => process.stdout.once('drain', r));
          }
        },
        { create: false },
      );
    });

  journal
    .command('verify')
    .description('verify a segment offline (--file, --root) or a live project (--project)')
    .option('--file <segment>', 'an exported segment (JSONL)')
    .option('--root <pem>', 'the pinned root certificate (PEM)')
    .option('--revocations <pem>', 'the root-signed revocation list (PEM)')
    .option('--no-revocation', 'do not check revocation')
    .option(
      '--at <time>',
      "judge each checkpoint issuer's validity at this instant (RFC 3339); --file judges it now without it, --project not at all",
    )
    .option('--project <name>', 'verify this project in the live store')
    .option('--no-projections', 'skip comparing the projections with a replay (--project)')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print the report as JSON')
    .action(async (flags: JournalFlags) => {
      let report: Awaited<ReturnType<typeof verifySegment>>;
      if (flags.file !== undefined) {
        if (flags.root === undefined)
          throw new CanonryError('INVALID_ARGUMENT', '--file needs --root <pem>');
        // A checkpoint carries no signing time: its issuer is judged now, or at the instant given.
        const at = flags.at === undefined ? new Date() : parseInstantFlag(flags.at, '--at');
        // A segment may hold a project's whole history: up to 256 MiB, half of what a string can.
        // Read as strict UTF-8: a byte that is not would read as U+FFFD, and an altered file verify.
        const segment = readText(flags.file, '--file', 256 * 1024 * 1024);
        const root = readPem(flags.root, '--root');
        // A list given or found locally is at least as fresh as the one exported with the segment.
        const carried = segmentRevocationList(segment) !== undefined;
        const revocationList = await revocationListFor(flags, carried);
        report = await verifySegment(
          segment,
          { root, at, ...(revocationList ? { revocationList } : {}) },
          { useEmbeddedRevocationList: flags.revocation !== false && carried },
        );
      } else {
        // The store's own checkpoints, kept since they were signed: their issuers' windows are
        // judged only at an instant given.
        const at = flags.at === undefined ? undefined : parseInstantFlag(flags.at, '--at');
        report = await withRuntime(
          flags,
          async ({ journal: j, keyring }) => {
            const project = requireProject(flags);
            await requireJournal(j, project);
            const chain = await verifyProject(j, project, {
              root: keyring.rootCertificatePem,
              revocationList: keyring.revocationListPem(),
              ...(at ? { at } : {}),
            });
            return flags.projections === false ? chain : withProjectionCheck(j, chain);
          },
          { create: false },
        );
      }
      emit(flags.json === true, report, () => verifyLines(report));
      if (!report.ok) process.exitCode = EXIT.FAILED;
    });

  journal
    .command('rebuild')
    .description('rebuild every projection of a project from its journal')
    .requiredOption('--project <name>', 'project')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print the result as JSON')
    .action(async (flags: JournalFlags) => {
      const result = await withRuntime(
        flags,
        async ({ journal: j }) => {
          // A mistyped project has nothing to rebuild: UNKNOWN_PROJECT, never "rebuilt".
          const project = requireProject(flags);
          await requireJournal(j, parseProject(project));
          return rebuildProject(j, project, (seq) =>
            process.stderr.write(`rebuild: replayed through seq ${seq}\n`),
          );
        },
        { create: false },
      );
      emit(flags.json === true, result, () => [
        `rebuilt ${result.project}: ${result.entries} entries into ${result.projections.join(', ')}`,
      ]);
    });

  journal
    .command('read')
    .description('print entries of a project')
    .requiredOption('--project <name>', 'project')
    .option('--after <seq>', 'entries after this seq', '0')
    .option('--limit <n>', 'at most this many (1–1000)', '20')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print JSON')
    .action(async (flags: JournalFlags) => {
      const entries = await withRuntime(
        flags,
        ({ journal: j }) =>
          j.read(requireProject(flags), {
            after: count(flags.after, '--after', 0),
            limit: count(flags.limit, '--limit', 20),
          }),
        { create: false },
      );
      emit(flags.json === true, entries, () =>
        entries.map(
          (e) =>
            `${String(e.seq).padStart(6)} ${e.at} ${e.kind.padEnd(18)} ${e.actor.padEnd(12)} ${e.hash.slice(0, 19)}…`,
        ),
      );
    });

  journal
    .command('checkpoint')
    .description('sign a checkpoint at the current head')
    .requiredOption('--project <name>', 'project')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print JSON')
    .action(async (flags: JournalFlags) => {
      const checkpoint = await withRuntime(
        flags,
        ({ journal: j }) => j.checkpoint(requireProject(flags)),
        { create: false },
      );
      emit(flags.json === true, checkpoint, () => [
        `checkpoint ${checkpoint.project} seq ${checkpoint.seq} head ${checkpoint.head_hash} (issuer ${checkpoint.issuer.fingerprint})`,
      ]);
    });
}

/** The human report of a verification: the verdict, then what is not yet covered by a signature. */
function verifyLines(report: VerifyReport): string[] {
  if (!report.ok) {
    return [
      `BROKEN ${report.project} at seq ${report.broken!.seq}: ${report.broken!.reason} (${report.broken!.detail})`,
    ];
  }
  const lines = [
    `VERIFIED ${report.project}: ${report.checked} entries, head seq ${report.head.seq}, ${report.checkpoints} signed checkpoint(s)`,
  ];
  if (report.base !== undefined) lines.push(`  pruned through seq ${report.base} (signed anchor)`);
  // A segment exported after a seq verifies as the chain's suffix it is: say where it starts.
  const first = report.head.seq - report.checked + 1;
  if (report.base === undefined && report.checked > 0 && first > 1) {
    lines.push(`  starts at seq ${first}: the entries before it are not in what was verified`);
  }
  if (report.projections && report.projections.checked.length > 0) {
    lines.push(`  projections match a replay: ${report.projections.checked.join(', ')}`);
  }
  if (report.unsigned && report.unsigned.entries > 0) {
    lines.push(
      `  ${report.unsigned.entries} entr${report.unsigned.entries === 1 ? 'y' : 'ies'} after the last signed checkpoint (since ${report.unsigned.since}); a running server signs them within its checkpoint interval`,
    );
  }
  return lines;
}
