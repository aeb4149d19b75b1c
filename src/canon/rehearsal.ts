import { CanonryError, type ContentHash, canonicalize } from '../core/index.js';
import type { EntryInput, JournalEntry } from '../journal/index.js';
import { isUniqueViolation, type Queryable, type Store } from '../store/index.js';
import { rehearsed, rehearseEntry } from './projection.js';

// A batch's later items must be checked against canon as its earlier items leave it. Rather than a
// second model of canon that every check would have to consult, canon's own projection applies the
// earlier items' entries to a transaction (or savepoint) that is then rolled back: every check reads
// exactly the rows the journal's projection will write, so a batch is judged as the same proposals
// made one by one would be. (All but the dependency states a commit's cascade records: no check of a
// proposal reads them, and working them out is most of a commit's projection.)

/** No entry stands behind a rehearsed row: its chain hashes are zeros. */
const NO_HASH = `sha256:${'0'.repeat(64)}` as ContentHash;

/**
 * Applies canon's projection of `inputs` to `tx` as the journal would apply them at `firstSeq`,
 * `firstSeq + 1`, … Only inside a transaction or savepoint that is rolled back: these rows have no
 * entries behind them.
 */
export async function rehearse(
  tx: Queryable,
  project: string,
  firstSeq: number,
  at: string,
  inputs: readonly EntryInput[],
): Promise<void> {
  let seq = firstSeq - 1;
  for (const input of inputs) {
    seq++;
    if (!rehearsed(input.kind)) continue;
    const entry: JournalEntry = {
      project,
      seq,
      format: 1,
      at,
      kind: input.kind,
      // As the journal hands it to projections: the canonical JSON of the body, parsed.
      body: JSON.parse(canonicalize(input.body)),
      actor: input.actor,
      authority: input.authority ?? null,
      correlation_id: input.correlation_id ?? null,
      idempotency_key: input.idempotency_key ?? null,
      receipt: input.receipt ?? null,
      prev_hash: NO_HASH,
      hash: NO_HASH,
    };
    try {
      await rehearseEntry(tx, entry);
    } catch (err) {
      // Outside the append's head lock, a concurrent commit can write the version (or create the
      // object) this rehearsal is writing: canon moved under the batch.
      if (!isUniqueViolation(err)) throw err;
      throw new CanonryError(
        'CONFLICT',
        `canon moved while the batch was checked (seq ${seq}, ${input.kind}): read it again and retry`,
      );
    }
  }
}

/** Thrown to roll a rehearsal's transaction back, carrying what the work returned. */
class RolledBack<T> extends Error {
  constructor(readonly value: T) {
    super('rehearsal rolled back');
  }
}

/** Runs `work` in a transaction of its own that is always rolled back; returns what it returned. */
export async function inRolledBackTransaction<T>(
  store: Store,
  work: (tx: Queryable) => Promise<T>,
): Promise<T> {
  try {
    await store.transaction(async (tx) => {
      throw new RolledBack(await work(tx));
    });
  } catch (err) {
    if (err instanceof RolledBack) return err.value as T;
    throw err;
  }
  throw new Error('unreachable: a rehearsal transaction committed');
}

/**
 * Runs `work` inside a savepoint of `tx` and undoes everything it wrote, whether it resolves or
 * throws: the append transaction is left exactly as it was.
 */
export async function inUndoneSavepoint<T>(tx: Queryable, work: () => Promise<T>): Promise<T> {
  await tx.exec('SAVEPOINT canon_rehearsal');
  try {
    return await work();
  } finally {
    await tx.exec('ROLLBACK TO SAVEPOINT canon_rehearsal');
    await tx.exec('RELEASE SAVEPOINT canon_rehearsal');
  }
}
