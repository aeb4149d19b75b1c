import type { Command } from 'commander';
import {
  type BackupSummary,
  backupDatabase,
  type CopiedChain,
  KEYS_NOT_INCLUDED,
  type RestoreSummary,
  restoreDatabase,
} from '../../app/index.js';
import { emit } from '../io.js';
import { DB_FLAG, type RuntimeFlags } from '../runtime.js';

interface BackupFlags extends RuntimeFlags {
  out?: string;
  from?: string;
  force?: boolean;
  json?: boolean;
}

/** Each step on stderr, as it is done, whatever the output format (stdout stays the result). */
const progressTo = (command: string) => (line: string) =>
  process.stderr.write(`${command}: ${line}\n`);

function chainLines(projects: readonly CopiedChain[]): string[] {
  const width = Math.max(0, ...projects.map((p) => p.project.length));
  return projects.map(
    (p) =>
      `  ${p.project.padEnd(width)}  ${`${p.entries}`.padStart(7)} ${p.entries === 1 ? 'entry  ' : 'entries'}  head seq ${p.head.seq} ${p.head.hash}`,
  );
}

/** The exit status of a command a signal stopped: 128 + the signal's number, as a shell reports it. */
const INTERRUPTED_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Runs a backup that SIGINT (Ctrl-C) or SIGTERM stops: the signal aborts it, which removes its
 * temporary copy at once and writes no backup file; the command then says so and exits 130 (143).
 * Undefined when interrupted. A second signal ends the process as it would have.
 */
async function untilInterrupted(
  run: (signal: AbortSignal) => Promise<BackupSummary>,
): Promise<BackupSummary | undefined> {
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) => controller.abort(signal);
  const signals = Object.keys(INTERRUPTED_EXIT) as NodeJS.Signals[];
  for (const s of signals) process.once(s, stop);
  try {
    return await run(controller.signal);
  } catch (err) {
    if (!controller.signal.aborted) throw err;
    const signal = controller.signal.reason as NodeJS.Signals;
    process.stderr.write(
      `backup: interrupted by ${signal}: no backup written, its temporary copy removed\n`,
    );
    process.exitCode = INTERRUPTED_EXIT[signal];
    return undefined;
  } finally {
    for (const s of signals) process.off(s, stop);
  }
}

/**
 * `canonry backup` and `canonry restore`: a consistent, verified copy of a data directory's SQLite
 * database taken while `serve` runs, and its way back in while nothing runs (src/app/backup.ts,
 * src/app/restore.ts). The data directory is always named: a restore must never land in a default.
 */
export function backupCommand(program: Command): void {
  program
    .command('backup')
    .description(
      "copy the data directory's SQLite database, consistently while canonry serve writes, and verify the copy (keys/ is not copied: back it up separately; Ctrl-C stops it, leaving no file, exit 130)",
    )
    .requiredOption('--data <dir>', 'the data directory to back up')
    .requiredOption('--out <file>', 'the backup file to write (0600; its folder must exist)')
    .option('--force', 'replace --out if it exists')
    .option(...DB_FLAG)
    .option('--json', 'print the summary as JSON')
    .action(async (flags: BackupFlags) => {
      const summary = await untilInterrupted((signal) =>
        backupDatabase({
          dataDir: flags.data,
          db: flags.db,
          out: flags.out!,
          force: flags.force === true,
          progress: progressTo('backup'),
          signal,
        }),
      );
      if (summary === undefined) return;
      emit(flags.json === true, { ...summary, keys: KEYS_NOT_INCLUDED }, () => [
        `backup ${summary.file}: ${summary.bytes} bytes, ${summary.projects.length} project${summary.projects.length === 1 ? '' : 's'}, every chain verified (store ${summary.store_id})`,
        ...chainLines(summary.projects),
        KEYS_NOT_INCLUDED,
      ]);
    });

  program
    .command('restore')
    .description(
      "put a backup in place of the data directory's SQLite database (refused while a process has it open; the replaced database is kept)",
    )
    .requiredOption('--data <dir>', 'the data directory to restore into')
    .requiredOption('--from <file>', 'the backup file (from canonry backup)')
    .option(...DB_FLAG)
    .option('--json', 'print the summary as JSON')
    .action(async (flags: BackupFlags) => {
      const summary: RestoreSummary = await restoreDatabase({
        dataDir: flags.data,
        db: flags.db,
        from: flags.from!,
        progress: progressTo('restore'),
      });
      emit(flags.json === true, summary, () => [
        `restored ${summary.from} into ${summary.database} (store ${summary.store_id}), every chain verified`,
        ...chainLines(summary.projects),
        summary.replaced === null
          ? 'there was no database to replace'
          : `the replaced database is kept as ${summary.replaced}`,
      ]);
    });
}
