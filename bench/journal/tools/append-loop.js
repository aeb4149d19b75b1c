// @ts-check
/**
 * A profiling target: journal appends on SQLite for N seconds, nothing else, so a CPU profile shows
 * where an append's time goes. `node --cpu-prof --cpu-prof-dir=/tmp/prof
 * bench/journal/tools/append-loop.js [seconds] [producers]`, then
 * `node bench/tools/profile-top.js /tmp/prof`.
 */
import { join } from 'node:path';
import { Journal } from 'canonry/journal';
import { SqliteStore } from 'canonry/store';
import { migrateJournal, tempDir, verdictInputs } from '../../lib/journal-data.js';
import { progress } from '../../lib/measure.js';
import { INPUT_MASK as M } from '../../lib/refund.js';
import { concurrently } from '../../lib/windows.js';

const seconds = Number(process.argv[2] ?? 10);
const producers = Number(process.argv[3] ?? 32);
const tmp = tempDir('append-loop');
const { inputs, signer, remove } = await verdictInputs();
const store = new SqliteStore(join(tmp.dir, 'journal.db'));
await migrateJournal(store);
const journal = new Journal(store, { signer });
let k = 0;
const n = await concurrently(producers, performance.now() + seconds * 1000, () =>
  journal.append('bench', /** @type {any} */ (inputs[k++ & M])),
);
progress(
  'append-loop',
  `${n} appends in ${seconds} s with ${producers} producers: ${Math.round(n / seconds)}/s`,
);
await store.close();
remove();
tmp.remove();
