import { type Journal, rebuildProject } from '../journal/index.js';

/**
 * Fills the dependency graph of projects that held canon before it existed: the `canon-graph`
 * migration lists them, and each is rebuilt from its journal once (edges, states and every other
 * projection table, exactly as replay makes them). Projects whose chain does not verify are left
 * listed, and tried again at the next start. Returns the projects rebuilt.
 */
export async function backfillGraph(
  journal: Journal,
  skip: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const rows = await journal.store.all<{ project: string }>(
    'SELECT project FROM canon_graph_backfill ORDER BY project',
  );
  const done: string[] = [];
  for (const { project } of rows) {
    if (skip.has(project)) continue;
    await rebuildProject(journal, project);
    await journal.store.run('DELETE FROM canon_graph_backfill WHERE project = $1', [project]);
    done.push(project);
  }
  return done;
}
