// A journal exported as a segment, for the suites that hand a verifier the file's lines.
import { exportSegment, Journal } from '../../src/journal/index.js';
import type { Store } from '../../src/store/index.js';
import { Keyring } from '../../src/trust/index.js';
import { COUNTERS, count, createCounters } from './journal.js';
import { tempDir } from './runtime.js';
import { ENGINES } from './stores.js';

/** What {@link exportedCounters} made. */
export interface ExportedCounters {
  readonly keyring: Keyring;
  readonly store: Store;
  readonly journal: Journal;
  /** The segment of `alpha`, one line an entry. */
  readonly lines: string[];
}

/**
 * A fresh keyring and SQLite store whose journal `alpha` holds `entries` counter entries
 * (`c1`…), exported as a segment; `cleanups` gets what ends them.
 */
export async function exportedCounters(
  entries: number,
  cleanups: Array<() => unknown>,
): Promise<ExportedCounters> {
  const keys = tempDir();
  cleanups.push(keys.cleanup);
  const keyring = await Keyring.init(keys.dir);
  const fresh = await ENGINES.find((e) => e.name === 'sqlite')!.fresh();
  const store = fresh.store;
  cleanups.push(fresh.cleanup, () => store.close());
  await createCounters(store);
  const journal = new Journal(store, { projections: [COUNTERS], signer: () => keyring.signer() });
  for (let i = 1; i <= entries; i++) await journal.append('alpha', count(`c${i}`, i));
  let text = '';
  for await (const line of exportSegment(journal, 'alpha')) text += line;
  return { keyring, store, journal, lines: text.trimEnd().split('\n') };
}
