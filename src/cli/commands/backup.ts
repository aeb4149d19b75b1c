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

/**
 * `canonry backup` and `canonry restore`: a consistent, verified copy of a data directory's SQLite
 * database taken while `serve` runs, and its way back in while nothing runs (src/app/backup.ts,
 * src/app/restore.ts). The data directory is always named: a restore must never land in a default.
 */
export function backupCommand(program: Command): void {
  program
    .command('backup')
    .description(
      "copy the data directory's SQLite database, consistently while canonry serve writes, and verify the copy (keys/ is not copied: back it up separately)",
    )
    .requiredOption('--data <dir>', 'the data directory to back up')
    .requiredOption('--out <file>', 'the backup file to write (0600; its folder must exist)')
    .option('--force', 'replace --out if it exists')
    .option(...DB_FLAG)
    .option('--json', 'print the summary as JSON')
    .action(async (flags: BackupFlags) => {
      const summary: BackupSummary = await backupDatabase({
        dataDir: flags.data,
        db: flags.db,
        out: flags.out!,
        force: flags.force === true,
        progress: progressTo('backup'),
      });
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
