import { join } from 'node:path';

/** Where each part lives inside the data directory (the keyring's layout is trust's, the database file's is store's). */
export function dataPaths(dataDir: string) {
  return {
    protocols: join(dataDir, 'protocols'),
  };
}
