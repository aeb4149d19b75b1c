import type { Command } from 'commander';
import { type OpenedTokens, openTokens } from '../../app/index.js';
import { checkTokenGrant, type TokenInfo, tokenIdArg } from '../../auth/index.js';
import { CanonryError } from '../../core/index.js';
import { parseProject } from '../../journal/index.js';
import { PAGE, tokenListQuery } from '../../operations/index.js';
import { emit } from '../io.js';
import { DATA_FLAG, DB_FLAG, type RuntimeFlags } from '../runtime.js';

interface TokenFlags extends RuntimeFlags {
  project: string;
  principal?: string;
  role?: string;
  id?: string;
  json?: boolean;
}

/**
 * Opens only the token store (not the runtime: no kernel, canon or other chains) for one command,
 * and always closes it. Commands that append first check the project's chain.
 */
async function withTokens<T>(
  flags: RuntimeFlags,
  work: (opened: OpenedTokens) => Promise<T>,
  create = false,
): Promise<T> {
  const opened = await openTokens(
    { dataDir: flags.data, db: flags.db, logLevel: 'silent' },
    { create },
  );
  try {
    return await work(opened);
  } finally {
    await opened.close();
  }
}

function line(t: TokenInfo): string {
  return `${t.token_id}  ${t.role.padEnd(6)}  ${t.principal.padEnd(20)}  created ${t.created_at}${t.revoked_at ? `  REVOKED ${t.revoked_at}` : ''}`;
}

/**
 * `canonry tokens create | list | revoke`: local bootstrap of a project's bearer tokens. Whoever can
 * read the data directory is the operator, so these act without a token; the secret is printed once.
 */
export function tokensCommand(program: Command): void {
  const tokens = program
    .command('tokens')
    .description('issue, list and revoke the bearer tokens of a project (local operator)');

  tokens
    .command('create')
    .description(
      'issue a token for a principal and role: the token alone on stdout (printed once), details on stderr',
    )
    .requiredOption('--project <name>', 'project')
    .requiredOption('--principal <name>', 'who the token stands for')
    .requiredOption('--role <role>', 'owner | editor | agent | tool | viewer')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print JSON')
    .action(async (flags: TokenFlags) => {
      const project = parseProject(flags.project);
      checkTokenGrant(project, flags.principal!, flags.role!);
      const { token, info } = await withTokens(
        flags,
        async (opened) => {
          await opened.verifyProject(project);
          return opened.tokens.create(project, flags.principal!, flags.role!);
        },
        true,
      );
      // stdout is the token alone (`TOKEN=$(canonry tokens create …)`); what it is goes to stderr.
      emit(flags.json === true, { token, info }, () => [token]);
      if (flags.json !== true) {
        process.stderr.write(
          `canonry: ${info.token_id}: ${info.principal} is ${info.role} of ${info.project}\n` +
            'canonry: keep this token now; only its hash is stored and it is not shown again\n',
        );
      }
    });

  tokens
    .command('list')
    .description(
      'list the tokens of a project (never their secrets) in creation order, a page at a time',
    )
    .requiredOption('--project <name>', 'project')
    .option('--after <token_id>', 'only those made after this token (the next page)')
    .option('--limit <n>', `at most this many (1–${PAGE.max}, default ${PAGE.default})`)
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print JSON')
    .action(async (flags: TokenFlags & { after?: string; limit?: string }) => {
      const project = parseProject(flags.project);
      const q = tokenListQuery({
        ...(flags.after === undefined ? {} : { after: flags.after }),
        ...(flags.limit === undefined ? {} : { limit: flags.limit }),
      });
      const list = await withTokens(flags, (opened) => opened.tokens.page(project, q));
      emit(flags.json === true, { tokens: list }, () =>
        list.length > 0 ? list.map(line) : [`no tokens in ${flags.project}`],
      );
      const last = list.at(-1);
      if (flags.json !== true && last !== undefined && list.length === q.limit) {
        process.stderr.write(
          `canonry: ${list.length} shown, a full page: the next with --after ${last.token_id}\n`,
        );
      }
    });

  tokens
    .command('revoke')
    .description('revoke a token of a project')
    .requiredOption('--project <name>', 'project')
    .requiredOption('--id <token_id>', 'the token id (tok_…), from `tokens list`')
    .option(...DATA_FLAG)
    .option(...DB_FLAG)
    .option('--json', 'print JSON')
    .action(async (flags: TokenFlags) => {
      const project = parseProject(flags.project);
      const id = tokenIdArg(flags.id);
      const revoked = await withTokens(flags, async (opened) => {
        await opened.verifyProject(project);
        return opened.tokens.revoke(project, id);
      });
      if (!revoked) {
        throw new CanonryError('NOT_FOUND', `no live token ${id} in ${project}`, { token_id: id });
      }
      emit(flags.json === true, { token_id: id, revoked: true }, () => [`revoked ${id}`]);
    });
}
