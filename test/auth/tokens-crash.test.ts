// Issue 11, item 4: issuing or revoking a token and journaling it are one transaction. A child
// process issues and revokes tokens continuously (test/fixtures/token-loop.mjs) and is killed with
// SIGKILL at random moments; afterwards every token row has its journal entry and every entry its
// row, on SQLite and PostgreSQL. Before the fix one run left 16 (SQLite) and 47 (PostgreSQL) live
// tokens that no `auth.token.issued` entry recorded.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createCanonry } from '../../src/app/index.js';
import { requireBuilt } from '../fixtures/writers.js';
import { ROOT, tempDir } from '../helpers/runtime.js';
import { ENGINES, freshPostgresSchema } from '../helpers/stores.js';

const KILLS = 10;
const PROJECT = 'tokens';

/** Starts the token loop and resolves once it runs; `operations` counts acknowledged ones. */
function startLoop(dataDir: string, db: string) {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'test/fixtures/token-loop.mjs'), dataDir, db, PROJECT],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let operations = 0;
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      if (text.includes('ready')) resolve();
      operations += (text.match(/^(issued|revoked) /gm) ?? []).length;
    });
    child.on('exit', (code) => reject(new Error(`token loop exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, ready, exited, operations: () => operations };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`token issuance under SIGKILL: ${engine.name}`, () => {
    it(`leaves no token without its journal entry after ${KILLS} kills`, {
      timeout: 300_000,
    }, async () => {
      requireBuilt();
      const { dir, cleanup } = tempDir();
      const pg = engine.name === 'postgres' ? await freshPostgresSchema() : undefined;
      const db = pg?.url ?? '-';
      try {
        let operations = 0;
        for (let kill = 0; kill < KILLS; kill++) {
          const loop = startLoop(dir, db);
          await loop.ready;
          await sleep(150 + Math.floor(Math.random() * 350));
          loop.child.kill('SIGKILL');
          await loop.exited;
          operations += loop.operations();
        }
        expect(operations).toBeGreaterThan(KILLS * 4);
        const runtime = await createCanonry(
          { dataDir: dir, db: pg?.url, logLevel: 'silent' },
          { create: false },
        );
        try {
          const rows = await runtime.store.all<{ token_id: string; revoked_at: string | null }>(
            'SELECT token_id, revoked_at FROM auth_tokens WHERE project = $1',
            [PROJECT],
          );
          const issued = new Set<string>();
          const revoked = new Set<string>();
          for (let after = 0; ; ) {
            const page = await runtime.journal.read(PROJECT, { after, limit: 1000 });
            for (const entry of page) {
              const id = (entry.body as { token_id: string }).token_id;
              if (entry.kind === 'auth.token.issued') issued.add(id);
              if (entry.kind === 'auth.token.revoked') revoked.add(id);
              expect(JSON.stringify(entry.body)).not.toMatch(/cnr_/);
            }
            if (page.length < 1000) break;
            after = page.at(-1)!.seq;
          }
          expect(rows.length).toBeGreaterThan(0);
          expect(new Set(rows.map((r) => r.token_id))).toEqual(issued);
          expect(new Set(rows.filter((r) => r.revoked_at !== null).map((r) => r.token_id))).toEqual(
            revoked,
          );
          expect((await runtime.journal.read(PROJECT, { limit: 1 })).length).toBe(1);
        } finally {
          await runtime.close();
        }
      } finally {
        await pg?.drop();
        cleanup();
      }
    });
  });
}
