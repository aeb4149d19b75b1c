import type { FastifyInstance } from 'fastify';
import type { CanonryRuntime } from '../../app/index.js';
import { mayReadEntry, readableEntries } from '../../canon/index.js';
import { CanonryError } from '../../core/index.js';
import {
  type JournalEntry,
  parseProject,
  receiptFor,
  requireJournal,
  verifyProject,
  withProjectionCheck,
} from '../../journal/index.js';
import { instantInput, intQuery, onlyQuery } from '../../operations/index.js';
import { principalOf } from '../auth.js';
import { feedEvent } from '../event-summary.js';

interface ProjectParams {
  project: string;
}

/** Reads `true` / `false` from the query; absent is false, anything else INVALID_ARGUMENT. */
function flag(value: unknown, name: string): boolean {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw new CanonryError('INVALID_ARGUMENT', `${name} must be true or false`, { field: name });
}

/** Entries as the live feed tells them to `viewer`: summarised, or redacted (§14). */
async function summaries(
  runtime: CanonryRuntime,
  viewer: ReturnType<typeof principalOf>,
  entries: readonly JournalEntry[],
) {
  const out = [];
  for (const e of entries)
    out.push(await feedEvent(runtime.canon, runtime.journal.kinds, viewer, e));
  return out;
}

/**
 * The journal of a project: paged entries, chain verification, receipts. Entries follow canon's planes
 * (LCSM §14): one about another principal's personal note or message is redacted to its place in the
 * chain, and its receipt is not found. Verification runs over the whole stored chain.
 */
export function journalRoutes(app: FastifyInstance, runtime: CanonryRuntime): void {
  const { journal } = runtime;

  app.get<{ Params: ProjectParams }>('/v1/projects/:project/journal', async (request) => {
    const project = parseProject(request.params.project);
    const q = onlyQuery(request.query, ['after', 'limit', 'summary']);
    const after = intQuery(q.after, 'after', 0, Number.MAX_SAFE_INTEGER, 0);
    const limit = intQuery(q.limit, 'limit', 1, 1_000, 100);
    const summary = flag(q.summary, 'summary');
    const [head, entries] = await Promise.all([
      journal.head(project),
      journal.read(project, { after, limit }),
    ]);
    const last = entries.at(-1)?.seq;
    const viewer = principalOf(request);
    return {
      project,
      head,
      // summary=true: each entry as the live feed tells it (its kind's policy-safe summary, no body).
      entries: summary
        ? await summaries(runtime, viewer, entries)
        : await readableEntries(runtime.canon, viewer, entries),
      next_after: last !== undefined && last < head.seq ? last : null,
    };
  });

  app.get<{ Params: ProjectParams }>('/v1/projects/:project/journal/verify', async (request) => {
    const project = parseProject(request.params.project);
    const q = onlyQuery(request.query, ['projections', 'at']);
    const projections = flag(q.projections, 'projections');
    // A checkpoint carries no signing time: without `at` its issuer's window is not judged (the
    // store's own checkpoints, kept since they were signed); with it, judged at that instant.
    const at = instantInput(q.at, 'at', 'INVALID_ARGUMENT');
    await requireJournal(journal, project);
    const keyring = runtime.keyring;
    const chain = await verifyProject(journal, project, {
      root: keyring.rootCertificatePem,
      revocationList: keyring.revocationListPem(),
      ...(at ? { at } : {}),
    });
    if (!projections || !chain.ok) return chain;
    // Replaying holds the project's write lock for as long as it takes: owners only.
    if (request.principal?.role !== 'owner') {
      throw new CanonryError(
        'FORBIDDEN',
        'comparing projections with a replay needs the owner role',
        {
          required_role: 'owner',
        },
      );
    }
    return withProjectionCheck(journal, chain);
  });

  app.get<{ Params: ProjectParams & { seq: string } }>(
    '/v1/projects/:project/journal/:seq/receipt',
    async (request) => {
      const project = parseProject(request.params.project);
      const seq = intQuery(request.params.seq, 'seq', 0, Number.MAX_SAFE_INTEGER, 0);
      const [entry] = seq > 0 ? await journal.read(project, { after: seq - 1, limit: 1 }) : [];
      const readable =
        entry?.seq === seq && (await mayReadEntry(runtime.canon, principalOf(request), entry));
      const receipt = readable ? receiptFor(entry) : null;
      if (!receipt) throw new CanonryError('NOT_FOUND', `no entry ${seq} in ${project}`);
      return receipt;
    },
  );
}
