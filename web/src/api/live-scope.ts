/**
 * Which shown reads an entry of the journal can have changed, by its kind (the feed's `event:`
 * name), so a burst of relay windows does not refetch the board's history and a canon commit does
 * not refetch the evolution view. Query keys start with their family (`keys` in queries.ts and the
 * views' own): what a kind can move is named here; a kind not named (or a redacted entry, whose
 * kind is not told) may move anything.
 */

type QueryKey = readonly unknown[];

/** Reads no entry changes: the receipt of an appended entry is fixed. */
const FIXED = new Set(['receipt']);

/** The families of canon's reads (the board, review, notes and artifacts). */
const CANON = [
  'board',
  'objects',
  'proposals',
  'proposal',
  'provenance',
  'graph',
  'object',
  'versions',
  'artifacts',
];

/** What each kind's module can move, by the kind's prefix (its module). */
const MOVES: ReadonlyMap<string, readonly string[]> = new Map([
  ['canon', CANON],
  // A window commits its facts and decisions to canon in the same batch (canon.commit follows).
  ['relay', ['relay']],
  ['evolution', ['evolution']],
]);

/**
 * A predicate over query keys: true for the reads the given kinds can have changed. The journal's
 * own pages always move (the head did).
 */
export function staleReads(kinds: Iterable<string>): (key: QueryKey) => boolean {
  const families = new Set<string>(['journal']);
  let anything = false;
  for (const kind of kinds) {
    const dot = kind.indexOf('.');
    const moves = dot > 0 ? MOVES.get(kind.slice(0, dot)) : undefined;
    if (moves === undefined) anything = true;
    else for (const family of moves) families.add(family);
  }
  return (key) => {
    const family = typeof key[0] === 'string' ? key[0] : '';
    return anything ? !FIXED.has(family) : families.has(family);
  };
}
