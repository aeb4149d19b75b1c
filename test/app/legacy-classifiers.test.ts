// The classifier files of earlier versions (`<data>/classifiers/<project>.json`) are imported once
// into the journal at start, on SQLite files and PostgreSQL: a valid file becomes its project's
// `canon.classifier` entry (unless the project already has one), a bad one is logged and left behind
// (the folder stays until every file imports), and once all are in the folder is renamed
// `classifiers.imported/` and never read again.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CanonryRuntime, createCanonry, type RuntimeLogger } from '../../src/app/index.js';
import { classifierSettings, putSubjects } from '../../src/canon/index.js';
import { tempDir } from '../helpers/runtime.js';
import { freshPostgresSchema, postgresAvailable } from '../helpers/stores.js';

const SUBJECTS = {
  subjects: {
    'ui.colour': { title: 'Interface colour', object_type: 'preference', keywords: ['red'] },
  },
};

const ENGINES = [
  { name: 'sqlite', available: true, db: async () => ({ url: undefined, drop: async () => {} }) },
  {
    name: 'postgres',
    available: postgresAvailable,
    db: async () => {
      const { url, drop } = await freshPostgresSchema();
      return { url: url as string | undefined, drop };
    },
  },
] as const;

function logger(): RuntimeLogger & { warned: string[] } {
  const warned: string[] = [];
  return {
    warned,
    info: () => undefined,
    warn: (details, message) => warned.push(`${message} ${(details as { file?: string }).file}`),
    error: () => undefined,
  };
}

async function entries(runtime: CanonryRuntime, project: string, kind: string) {
  return (await runtime.journal.read(project, { after: 0, limit: 1000 })).filter(
    (e) => e.kind === kind,
  );
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`classifier files imported once (${engine.name})`, () => {
    it('imports valid files, leaves bad ones, renames the folder once all are in', async () => {
      const { dir, cleanup } = tempDir('canonry-legacy-classifiers-');
      const { url: db, drop } = await engine.db();
      const folder = join(dir, 'classifiers');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'alpha.json'), JSON.stringify(SUBJECTS));
      writeFileSync(join(folder, 'beta.json'), '{ "subjects": { "x": { "title": 1 } } }');
      const open = async () => {
        const log = logger();
        const runtime = await createCanonry(
          { dataDir: dir, db, logLevel: 'silent' },
          { logger: log },
        );
        return { runtime, log };
      };
      try {
        const first = await open();
        expect(await classifierSettings(first.runtime.canon, 'alpha')).toMatchObject({
          source: 'file',
          by: null,
          config: SUBJECTS,
        });
        expect((await classifierSettings(first.runtime.canon, 'beta')).source).toBe('default');
        expect(first.log.warned).toEqual([
          `a classifier configuration file could not be imported ${join(folder, 'beta.json')}`,
        ]);
        expect(existsSync(folder)).toBe(true);
        // beta gets a configuration over the API before its file is fixed: the file does not win.
        await putSubjects(
          first.runtime.canon,
          { id: 'bea', project: 'beta', role: 'owner' },
          {
            subjects: {
              'api.limit': { title: 'API limit', object_type: 'fact', keywords: ['limit'] },
            },
          },
        );
        await first.runtime.close();

        writeFileSync(join(folder, 'beta.json'), JSON.stringify(SUBJECTS));
        const second = await open();
        expect(second.log.warned).toEqual([]);
        expect(existsSync(folder)).toBe(false);
        expect(existsSync(join(dir, 'classifiers.imported', 'alpha.json'))).toBe(true);
        const beta = await classifierSettings(second.runtime.canon, 'beta');
        expect([beta.source, Object.keys(beta.config.subjects)]).toEqual(['api', ['api.limit']]);
        // One import entry for alpha, however many starts.
        expect(await entries(second.runtime, 'alpha', 'canon.classifier')).toHaveLength(1);
        await second.runtime.close();
        const third = await open();
        expect(await entries(third.runtime, 'alpha', 'canon.classifier')).toHaveLength(1);
        expect(await entries(third.runtime, 'beta', 'canon.classifier')).toHaveLength(1);
        await third.runtime.close();
      } finally {
        cleanup();
        await drop();
      }
    });
  });
}
