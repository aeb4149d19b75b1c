import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Canon, importClassifierConfig } from '../canon/index.js';
import { parseJsonText } from '../core/index.js';
import { retire } from './legacy-folder.js';
import type { RuntimeLogger } from './logger.js';

/**
 * Earlier versions read a project's scripted-classifier subjects from `<data>/classifiers/<project>.json`;
 * they are now journaled (`canon.classifier`) and managed over the API. Each file is imported once,
 * as its project's configuration unless the project already has one, and the folder is renamed
 * `classifiers.imported/` so it is not read again. A file that is not a valid configuration (or whose
 * project's chain refuses appends) is reported and left behind.
 */
export async function importLegacyClassifiers(
  dataDir: string,
  canon: Canon,
  logger: RuntimeLogger,
): Promise<number> {
  const dir = join(dataDir, 'classifiers');
  if (!existsSync(dir)) return 0;
  let imported = 0;
  let failed = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    const file = join(dir, name);
    try {
      const config = parseJsonText(readFileSync(file, 'utf8'), 32);
      if (await importClassifierConfig(canon, name.slice(0, -'.json'.length), config)) imported++;
    } catch (err) {
      failed++;
      logger.warn({ err, file }, 'a classifier configuration file could not be imported');
    }
  }
  if (failed === 0) retire(dir, join(dataDir, 'classifiers.imported'), logger);
  if (imported > 0) logger.info({ imported }, 'imported classifier files into the journal');
  return imported;
}
