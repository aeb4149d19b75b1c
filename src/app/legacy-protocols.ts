import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProtocolRegistry } from '../kernel/index.js';
import { retire } from './legacy-folder.js';
import type { RuntimeLogger } from './logger.js';

/**
 * Earlier versions kept registered protocols as files in `<data>/protocols/`; the registry now lives
 * in the database, shared by every server on it. Each file is registered once (as the system's, in
 * the `registry` project) and the folder is renamed `protocols.imported/` so it is not read again.
 * A file that is not a valid protocol is reported and left behind.
 */
export async function importLegacyProtocols(
  dataDir: string,
  registry: ProtocolRegistry,
  logger: RuntimeLogger,
): Promise<number> {
  const dir = join(dataDir, 'protocols');
  if (!existsSync(dir)) return 0;
  let imported = 0;
  let failed = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    try {
      await registry.register(JSON.parse(readFileSync(join(dir, name), 'utf8')), null);
      imported++;
    } catch (err) {
      failed++;
      logger.warn({ err, file: join(dir, name) }, 'a stored protocol file could not be imported');
    }
  }
  if (failed === 0) retire(dir, join(dataDir, 'protocols.imported'), logger);
  if (imported > 0) logger.info({ imported }, 'imported protocol files into the registry');
  return imported;
}
