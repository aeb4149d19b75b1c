import { CanonryError, isCanonryError, TurnPacer } from '../core/index.js';
import type { AppendResult, EntryInput, Head } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import type { Canon } from './canon.js';
import { outcomesOf, type PlannedCommit, type ProposalOutcome, planCommit } from './committing.js';
import { COMMIT, PROPOSAL, RECOMPARE, REJECT } from './entry-kinds.js';
import type { GateLabel } from './gate.js';
import { refuseCycle } from './graph.js';
import { prepareProposal } from './prepare.js';
import { proposalBody, proposalEntry } from './propose.js';
import { withReadCache } from './read-cache.js';
import type { ProposalBody } from './records.js';
import { inRolledBackTransaction, inUndoneSavepoint, rehearse } from './rehearsal.js';
import { expectedOf, refuseMoved } from './staleness.js';
import type { Principal, ProposalInput, ProposalIntent } from './types.js';

/** The most proposals one batch may hold. */
export const MAX_BATCH = 2_000;
/** The most extra entries a batch may append after its proposals and commits. */
export const MAX_BATCH_ENTRIES = 100;
/** What a batch may ask: new notes and new versions, never a restore, retirement or dispute. */
export const BATCH_INTENTS: readonly ProposalIntent[] = ['create', 'update', 'supersede'];

/** Options of {@link proposeBatch}. */
export interface BatchOptions {
  /**
   * Appended in the same transaction after the batch's proposals and commits (a caller's record of
   * the batch). Never canon's governed kinds: those only come from the gate.
   */
  readonly entries?: readonly EntryInput[];
  /**
   * Runs inside the append transaction after canon's own checks, before anything is written; a
   * CanonryError it throws refuses the whole batch.
   */
  readonly precondition?: (tx: Queryable, head: Head) => Promise<void>;
  /**
   * false: the outcomes are not read back after the append (three statements and every proposal,
   * object and version record parsed), for a caller that keeps only `entries`; `outcomes` is then
   * empty. Default true.
   */
  readonly outcomes?: boolean;
}

/** What a batch came to. */
export interface BatchOutcome {
  /** One per input, in input order: every one committed (none with `outcomes: false`). */
  readonly outcomes: readonly ProposalOutcome[];
  /** The appends of `options.entries`, in order. */
  readonly entries: readonly AppendResult[];
}

/** An item the gate held back: the reason a batch is BATCH_HELD. */
export interface HeldItem {
  readonly index: number;
  readonly object_id: string;
  readonly label: GateLabel;
}

/** One input as the batch will journal it. */
interface PlannedItem {
  readonly input: ProposalInput;
  readonly proposal: ProposalBody;
  readonly commit: PlannedCommit;
  /** The proposal entry, then the commit entry. */
  readonly entries: readonly [EntryInput, EntryInput];
}

const GOVERNED_KINDS = [PROPOSAL.kind, COMMIT.kind, RECOMPARE.kind, REJECT.kind];

/** The error of input `index`, saying which it is (message and `details.index`, `details.object_id`). */
function atIndex(err: unknown, index: number, objectId: string): unknown {
  if (!isCanonryError(err) || err.details?.index !== undefined) return err;
  return new CanonryError(
    err.code,
    `inputs[${index}] (${objectId}): ${err.message}`,
    { ...err.details, index, object_id: objectId },
    { cause: err },
  );
}

/** The batch's shape, before anything is read: sizes, intents, distinct ids, extra entries. */
function checkShape(
  principal: Principal,
  inputs: readonly ProposalInput[],
  extra: readonly EntryInput[],
): void {
  if (principal.role === 'viewer') throw new CanonryError('FORBIDDEN', 'viewers cannot propose');
  if (!Array.isArray(inputs) || inputs.length < 1 || inputs.length > MAX_BATCH)
    throw new CanonryError(
      'INVALID_PROPOSAL',
      `a batch holds 1–${MAX_BATCH} proposals`,
      Array.isArray(inputs) ? { count: inputs.length, max: MAX_BATCH } : undefined,
    );
  const seen = new Map<string, number>();
  inputs.forEach((input, index) => {
    const objectId = String(input?.object_id);
    if (!BATCH_INTENTS.includes(input?.intent))
      throw new CanonryError(
        'INVALID_PROPOSAL',
        `inputs[${index}] (${objectId}): a batch proposes only ${BATCH_INTENTS.join(', ')}, not ${String(input?.intent)}`,
        { index, object_id: objectId, field: 'intent' },
      );
    const first = seen.get(objectId);
    if (first !== undefined)
      throw new CanonryError(
        'INVALID_PROPOSAL',
        `inputs[${index}] (${objectId}): inputs[${first}] already proposes ${objectId}; one proposal per object in a batch`,
        { index, object_id: objectId, first },
      );
    seen.set(objectId, index);
  });
  if (!Array.isArray(extra) || extra.length > MAX_BATCH_ENTRIES)
    throw new CanonryError(
      'INVALID_ENTRY',
      `a batch appends at most ${MAX_BATCH_ENTRIES} extra entries`,
      { max: MAX_BATCH_ENTRIES },
    );
  extra.forEach((entry, index) => {
    if (GOVERNED_KINDS.includes(entry?.kind))
      throw new CanonryError(
        'INVALID_ENTRY',
        `entries[${index}]: ${entry.kind} entries come only from the gate, never as extra entries`,
        { entry: index, kind: entry.kind },
      );
  });
}

/**
 * Prepares every input in order against `tx`, each seeing canon as the earlier ones leave it (their
 * entries rehearsed by canon's projection), and plans its commit. A REJECT or any check that fails
 * stops there, naming the input; items the gate holds back are planned as if committed, so every
 * held item is found and later items are judged as they would be once those are approved.
 */
async function planBatch(
  canon: Canon,
  principal: Principal,
  inputs: readonly ProposalInput[],
  tx: Queryable,
  firstSeq: number,
): Promise<{ planned: PlannedItem[]; held: HeldItem[] }> {
  const { project } = principal;
  const at = canon.now().toISOString();
  const planned: PlannedItem[] = [];
  const held: HeldItem[] = [];
  // Every target at once (a round trip apiece on PostgreSQL otherwise). A row read here holds for
  // its input unless an earlier input changed it: a rehearsal writes the object rows of its own
  // note — one proposal per object, so never another input's target — and of the notes it
  // supersedes, which are read again.
  const targets = await canon.reader(project, tx).objectsById(inputs.map((i) => i.object_id));
  const superseded = new Set<string>();
  // A batch is up to 2,000 items of synchronous work on SQLite: held to turns of a few milliseconds.
  const pacer = new TurnPacer();
  for (const [index, input] of inputs.entries()) {
    await pacer.pace();
    try {
      const known = superseded.has(input.object_id)
        ? undefined
        : (targets.get(input.object_id) ?? null);
      const prepared = await prepareProposal(canon, principal, input, false, tx, known);
      for (const id of input.supersedes ?? []) superseded.add(id);
      const { label } = prepared.gate;
      if (label === 'REJECT')
        throw new CanonryError('GATE_REFUSED', 'the stakes gate refused the mutation', { label });
      if (label !== 'AUTO_COMMIT') held.push({ index, object_id: input.object_id, label });
      const proposal = proposalBody(principal, input, prepared, {});
      const commit = await planCommit(
        canon,
        project,
        proposal,
        prepared.current,
        null,
        prepared.stale,
        tx,
      );
      const entries = [proposalEntry(principal, proposal), commit.entry] as const;
      await rehearse(tx, project, firstSeq + 2 * index, at, entries);
      planned.push({ input, proposal, commit, entries });
    } catch (err) {
      throw atIndex(err, index, input.object_id);
    }
  }
  return { planned, held };
}

/**
 * Proposes many notes as one journal transaction (CRP-030: one commit per window). Each input is
 * prepared as {@link Canon.propose} prepares it, against canon as the earlier inputs leave it: a
 * dependency (or a note replaced by `supersedes`) may be an object the batch created or updated
 * earlier, pinned to that planned version; planes, cycles, comparisons, cascades and receipts are
 * what the same proposals made one by one would give.
 *
 * All or nothing: every input must be AUTO_COMMIT (else BATCH_HELD, `details.held`), a REJECT is
 * GATE_REFUSED, any other refusal names its input (`details.index`); then nothing is journaled. The
 * proposals and commits (in input order) and `options.entries` are one append, whose transaction
 * re-checks each item against canon as the earlier items leave it (the target and what it replaces
 * unmoved, no cycle, the same cascade): a concurrent change is CONFLICT, with nothing journaled.
 */
export async function proposeBatch(
  canon: Canon,
  principal: Principal,
  inputs: readonly ProposalInput[],
  options: BatchOptions = {},
): Promise<BatchOutcome> {
  const extra = options.entries ?? [];
  checkShape(principal, inputs, extra);
  const { project } = principal;
  const firstSeq = (await canon.journal.head(project)).seq + 1;
  const { planned, held } = await inRolledBackTransaction(canon.journal.store, (tx) =>
    planBatch(canon, principal, inputs, withReadCache(tx), firstSeq),
  );
  if (held.length > 0)
    throw new CanonryError(
      'BATCH_HELD',
      `the stakes gate held back ${held.length} of ${inputs.length} proposals (${held
        .slice(0, 5)
        .map((h) => `inputs[${h.index}] ${h.object_id}: ${h.label}`)
        .join('; ')}${held.length > 5 ? '; …' : ''}); nothing was committed`,
      { held },
    );
  const at = canon.now().toISOString();
  const results = await canon.journal.appendAll(
    project,
    [...planned.flatMap((p) => p.entries), ...extra],
    {
      precondition: async (tx, head) => {
        // Canon is a projection of this project's journal: when nothing was appended to it since
        // the batch was planned (at head firstSeq − 1), every check holds as planned. Otherwise
        // each item is checked again against canon as it now stands.
        if (head.seq !== firstSeq - 1) {
          await inUndoneSavepoint(tx, async () => {
            for (const [index, p] of planned.entries()) {
              try {
                await refuseMoved(canon.reader(project, tx), expectedOf(p.input));
                await refuseCycle(tx, project, p.input.object_id, p.proposal.candidate);
                await p.commit.check(tx);
              } catch (err) {
                throw atIndex(err, index, p.input.object_id);
              }
              await rehearse(tx, project, firstSeq + 2 * index, at, p.entries);
            }
          });
        }
        await options.precondition?.(tx, head);
      },
    },
  );
  const outcomes =
    options.outcomes === false
      ? []
      : await outcomesOf(
          canon,
          project,
          planned.map((p, index) => ({
            proposalId: p.proposal.proposal_id,
            last: results[2 * index + 1]!,
          })),
        );
  return { outcomes, entries: results.slice(2 * planned.length) };
}
