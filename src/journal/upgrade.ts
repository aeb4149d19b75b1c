import { isCanonryError } from '../core/index.js';
import type { Journal } from './journal.js';
import { rebuildProject } from './rebuild.js';

/** What {@link upgradeProjections} did. */
export interface ProjectionUpgrade {
  /** The projections whose tables an older version (or none) wrote: `name` from → to. */
  readonly changed: readonly {
    readonly name: string;
    readonly from: number | null;
    readonly to: number;
  }[];
  /** Projects rebuilt from their journal. */
  readonly rebuilt: number;
  /** Projects that could not be rebuilt (a chain that does not verify): left as they were. */
  readonly failed: readonly { readonly project: string; readonly reason: string }[];
}

/**
 * Brings the projection tables up to the code that reads them: when a projection's `version`
 * differs from the one recorded for the store, every project is rebuilt from its journal and the new
 * versions recorded. A project that cannot be rebuilt (its chain is quarantined or breaks) is left as
 * it was, and the versions stay unrecorded so the next open tries again. A fresh store (no entries)
 * only records them. Rebuilding holds each project's head lock, so processes sharing a database
 * may run it at once.
 */
export async function upgradeProjections(
  journal: Journal,
  onProject?: (project: string, index: number, total: number) => void,
): Promise<ProjectionUpgrade> {
  const rows = await journal.store.all<{ name: string; version: number | string }>(
    'SELECT name, version FROM journal_projection_versions',
  );
  const recorded = new Map(rows.map((r) => [r.name, Number(r.version)]));
  const changed = journal.projections
    .filter((p) => p.version !== undefined && recorded.get(p.name) !== p.version)
    .map((p) => ({ name: p.name, from: recorded.get(p.name) ?? null, to: p.version! }));
  if (changed.length === 0) return { changed, rebuilt: 0, failed: [] };
  const projects = await journal.projects();
  const failed: { project: string; reason: string }[] = [];
  let rebuilt = 0;
  for (const [i, { project }] of projects.entries()) {
    onProject?.(project, i, projects.length);
    const broken = journal.brokenChain(project);
    if (broken) {
      failed.push({ project, reason: `chain does not verify at ${broken.seq} (${broken.reason})` });
      continue;
    }
    try {
      await rebuildProject(journal, project);
      rebuilt++;
    } catch (err) {
      if (!isCanonryError(err)) throw err;
      failed.push({ project, reason: `${err.code}: ${err.message}` });
    }
  }
  if (failed.length === 0) {
    await journal.store.transaction(async (tx) => {
      for (const { name, to } of changed) {
        await tx.run(
          `INSERT INTO journal_projection_versions (name, version) VALUES ($1, $2)
           ON CONFLICT (name) DO UPDATE SET version = $2`,
          [name, to],
        );
      }
    });
  }
  return { changed, rebuilt, failed };
}
