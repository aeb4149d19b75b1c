import { TurnPacer } from '../core/index.js';
import { keepDigest } from './cso-digest.js';
import { checkItem, LISTS, wasChecked } from './cso-schema.js';
import type { CognitiveStateObject, UnsealedCso } from './types.js';

/** Items between two looks at the turn's budget. */
const STRIDE = 64;

/**
 * The per-item half of sealing `unsealed`, done ahead in turns of the event loop: each item's
 * schema check and digest, which sealing keeps by identity and then does not do again. A prior
 * this process checked (it sealed it, or read it from outside and checked it) already holds them
 * for every carried item, and nothing is done; a prior read back from the projection's rows (after
 * a restart, or a session this process had not kept) holds none, and sealing the next state would
 * check and hash its ~6,500 items (1,000 facts, 500 decisions, 5,000 edges) in one block — tens
 * of milliseconds during which a server answers nothing else. Nothing is decided here: an item
 * that fails its schema is left for `sealCso` to refuse, naming it, as it would have.
 */
export async function sealAhead(
  prior: CognitiveStateObject | null,
  unsealed: UnsealedCso,
): Promise<void> {
  if (prior === null || wasChecked(prior)) return;
  const pacer = new TurnPacer();
  for (const list of LISTS) {
    const items = unsealed[list] as readonly unknown[];
    for (let i = 0; i < items.length; i++) {
      if (i % STRIDE === 0) await pacer.pace();
      const item = items[i];
      if (!checkItem(list, item)) return;
      keepDigest(item as object);
    }
  }
}
