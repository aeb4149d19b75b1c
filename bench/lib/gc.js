// @ts-check
/**
 * The engine's collector, for benches that must start a case from a known heap. Exposed here once
 * (`--expose-gc` set at run time, the function taken from a fresh context) so no bench needs a
 * node flag on its command line.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');

/** A full collection, or a minor one with `{ type: 'minor' }`. */
export const collect = /** @type {(options?: { type: 'major' | 'minor' }) => void} */ (
  runInNewContext('gc')
);
