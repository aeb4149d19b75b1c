// The dependency graph through the built CLI (run `npm run build` first), on a real data directory:
// moving a fact prints every dependent the commit flagged, and the board, the object and provenance
// mark the note that needs revision, with its cause, and `canon graph` draws both with the edge.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/runtime.js';

let dir: string;
let cleanup: () => void;
let token = '';

beforeAll(() => {
  ({ dir, cleanup } = tempDir('canonry-cli-graph-'));
});
afterAll(() => cleanup?.());

const cli = (args: string[]) => runCli([...args, '--data', dir], { env: { CANONRY_TOKEN: '' } });
const propose = async (body: unknown, json = true) => {
  const file = join(dir, 'proposal.json');
  writeFileSync(file, JSON.stringify(body));
  const r = await cli([
    'canon',
    'propose',
    '--file',
    file,
    '--token',
    token,
    ...(json ? ['--json'] : []),
  ]);
  expect(r.code, r.stderr).toBe(0);
  return json ? JSON.parse(r.stdout) : r.stdout;
};

describe('canonry canon: the dependency graph', { timeout: 240_000 }, () => {
  it('a move prints what it flagged; board, object and provenance show it', async () => {
    const created = await cli([
      'tokens',
      'create',
      '--project',
      'g',
      '--principal',
      'olivia',
      '--role',
      'owner',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    token = JSON.parse(created.stdout).token;
    const root = await propose({
      object_id: 'storage.engine',
      intent: 'create',
      base_version: null,
      candidate: { object_type: 'fact', title: 'Storage', text: 'Storage is SQLite.' },
    });
    await propose({
      object_id: 'decision.db',
      intent: 'create',
      base_version: null,
      candidate: {
        object_type: 'decision',
        title: 'Database',
        text: 'We ship the embedded engine.',
        dependency_refs: [
          { object_id: 'storage.engine', version_hash: root.committed.version_hash },
        ],
      },
    });
    const moved = await propose(
      {
        object_id: 'storage.engine',
        intent: 'update',
        base_version: root.committed.version_hash,
        candidate: { object_type: 'fact', title: 'Storage', text: 'Storage is PostgreSQL.' },
      },
      false,
    );
    expect(moved).toContain('now version 2');
    expect(moved).toContain(
      'needs_revision note decision.db (depth 1): storage.engine moved v1 → v2',
    );
    const board = await cli(['canon', 'board', '--token', token]);
    expect(board.stdout).toMatch(
      /decision\.db .*\[NEEDS REVISION: storage\.engine moved v1 → v2\] We ship/,
    );
    expect(board.stdout).not.toMatch(/storage\.engine .*NEEDS REVISION/);
    const object = await cli(['canon', 'object', 'decision.db', '--token', token]);
    expect(object.stdout).toContain('[NEEDS REVISION: storage.engine moved v1 → v2]');
    const prov = await cli(['canon', 'provenance', 'decision.db', '--token', token]);
    expect(prov.stdout).toContain(
      'NEEDS REVISION (depth 1): storage.engine moved v1 → v2; path storage.engine → decision.db',
    );
    const graph = await cli(['canon', 'graph', 'storage.engine', '--token', token]);
    expect(graph.code, graph.stderr).toBe(0);
    expect(graph.stdout.trim().split('\n')).toEqual([
      '* storage.engine (fact, active)',
      'decision.db (decision, active, needs revision: storage.engine moved v1 → v2)',
      '  note:storage.engine → note:decision.db',
    ]);
    const cut = await cli([
      'canon',
      'graph',
      'storage.engine',
      '--limit',
      '1',
      '--json',
      '--token',
      token,
    ]);
    expect(cut.code, cut.stderr).toBe(0);
    expect(JSON.parse(cut.stdout)).toMatchObject({ limit: 1, omitted: 1, truncated: true });
    const bad = await cli([
      'canon',
      'graph',
      'storage.engine',
      '--limit',
      '0',
      '--json',
      '--token',
      token,
    ]);
    expect(bad.code).not.toBe(0);
    expect(JSON.parse(bad.stdout).error).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
