import type { Journal, JournalEntry } from '../journal/index.js';
import { PROMOTION_ENTRY } from './promotion-entry-kind.js';
import { foldSteps } from './promotion-machine.js';
import type { PromotionState } from './promotion-types.js';

/** How far a project's journal is folded, and its live promotions. */
export interface View {
  cursor: number;
  readonly states: Map<string, PromotionState>;
}

const PAGE = 1_000;

/**
 * The promotion runner's cache of live promotions: per project, the fold of its journal from a
 * cursor (one catch-up at a time per project). Finished promotions are written to
 * `evolution_finished_promotions` and dropped from memory, and read back from there.
 */
export class LivePromotions {
  readonly #journal: Journal;
  /** Per project: how far its journal is folded, and its live promotions (finished are stored). */
  readonly #views = new Map<string, View>();
  /** One catch-up at a time per project: two folding the same page would apply its steps twice. */
  readonly #reading = new Map<string, Promise<unknown>>();

  constructor(journal: Journal) {
    this.#journal = journal;
  }

  /**
   * The project's promotions, in the order they were proposed: those proposed after the journal
   * seq `after`, at most `limit` of them.
   */
  async list(
    project: string,
    page: { readonly after?: number; readonly limit?: number } = {},
  ): Promise<PromotionState[]> {
    const { after = 0, limit = Number.MAX_SAFE_INTEGER } = page;
    const live = [...(await this.view(project)).states.values()].filter(
      (s) => proposedSeq(s) > after,
    );
    const rows = await this.#journal.store.all<{ state: string }>(
      `SELECT state FROM evolution_finished_promotions
       WHERE project = $1 AND proposed_seq > $2 ORDER BY proposed_seq LIMIT $3`,
      [project, after, limit],
    );
    const finished = rows.map((r) => JSON.parse(r.state) as PromotionState);
    return [...live, ...finished].sort((a, b) => proposedSeq(a) - proposedSeq(b)).slice(0, limit);
  }

  /** How many promotion states are held in memory: the live ones of the projects read. */
  held(): number {
    let n = 0;
    for (const view of this.#views.values()) n += view.states.size;
    return n;
  }

  /** Forgets the project's view: the next read folds its journal again from the start. */
  forget(project: string): void {
    this.#views.delete(project);
  }

  /** A promotion's state as of the view: live from memory, finished from the store, else null. */
  async state(project: string, id: string, view: View): Promise<PromotionState | null> {
    const live = view.states.get(id);
    if (live !== undefined) return live;
    const [row] = await this.#journal.store.all<{ state: string }>(
      'SELECT state FROM evolution_finished_promotions WHERE project = $1 AND promotion_id = $2',
      [project, id],
    );
    return row === undefined ? null : (JSON.parse(row.state) as PromotionState);
  }

  /** The project's live promotions, caught up with its journal from the last cursor. */
  view(project: string): Promise<View> {
    const before = this.#reading.get(project) ?? Promise.resolve();
    const run = before.then(
      () => this.#catchUp(project),
      () => this.#catchUp(project),
    );
    this.#reading.set(project, run);
    return run;
  }

  /**
   * Folds the project's new entries. A promotion that ends (rejected, rolled back: no step may
   * follow) is written to `evolution_finished_promotions` and dropped from memory, so what the
   * runner holds is its live promotions, however many have finished. A fold that fails part way
   * forgets the view: the next read folds the journal again from the start.
   */
  async #catchUp(project: string): Promise<View> {
    let view = this.#views.get(project);
    if (view === undefined) {
      view = { cursor: 0, states: new Map<string, PromotionState>() };
      this.#views.set(project, view);
    }
    try {
      for (;;) {
        const entries = await this.#journal.read(project, { after: view.cursor, limit: PAGE });
        const steps = stepsOf(entries);
        foldSteps(steps, view.states);
        const ended = [...new Set(steps.map((s) => s.promotion_id))]
          .map((id) => view.states.get(id))
          .filter((s): s is PromotionState => s !== undefined && FINAL.has(s.stage));
        if (ended.length > 0) {
          await this.#journal.store.transaction(async (tx) => {
            for (const state of ended) {
              await tx.run(
                `INSERT INTO evolution_finished_promotions (project, promotion_id, proposed_seq, state)
                 VALUES ($1, $2, $3, $4) ON CONFLICT (project, promotion_id) DO NOTHING`,
                [project, state.promotion_id, proposedSeq(state), JSON.stringify(state)],
              );
            }
          });
          for (const state of ended) view.states.delete(state.promotion_id);
        }
        if (entries.length > 0) view.cursor = entries[entries.length - 1]!.seq;
        if (entries.length < PAGE) return view;
      }
    } catch (err) {
      this.#views.delete(project);
      throw err;
    }
  }
}

/**
 * Every promotion of a project folded from its journal alone (no cached or stored state).
 */
export async function foldJournal(
  journal: Journal,
  project: string,
): Promise<Map<string, PromotionState>> {
  const states = new Map<string, PromotionState>();
  for (let after = 0; ; ) {
    const entries = await journal.read(project, { after, limit: PAGE });
    foldSteps(stepsOf(entries), states);
    if (entries.length > 0) after = entries[entries.length - 1]!.seq;
    if (entries.length < PAGE) return states;
  }
}

/** Stages no step leaves: a promotion there is finished. */
export const FINAL: ReadonlySet<PromotionState['stage']> = new Set(['rejected', 'rolled_back']);

/** The journal seq of a promotion's proposal: its list order. */
function proposedSeq(state: PromotionState): number {
  return state.history[0]?.seq ?? 0;
}

/** The promotion steps among journal entries, with their seqs. */
function stepsOf(entries: readonly JournalEntry[]) {
  return entries
    .filter((e) => PROMOTION_ENTRY.is(e))
    .map((e) => ({ ...PROMOTION_ENTRY.body(e), seq: e.seq }));
}
