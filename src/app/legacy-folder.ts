import { renameSync } from 'node:fs';
import { fileFailure } from '../trust/index.js';
import type { RuntimeLogger } from './logger.js';

/**
 * Renames an imported legacy folder so it is not read again. A data directory canonry may not write
 * (read-only, another owner's, full) does not stop the start: what the folder held is in the
 * database now, importing it again changes nothing, and the warning says why it stays.
 */
export function retire(dir: string, to: string, logger: RuntimeLogger): void {
  try {
    renameSync(dir, to);
  } catch (error) {
    const failure = fileFailure(error, 'write', to);
    if (failure === error) throw error;
    logger.warn(
      { err: failure, dir },
      'an imported folder could not be renamed; it is read (and its files found imported) again at the next start',
    );
  }
}
