import { CanonryError, type JsonValue, ok } from '../core/index.js';
import type { Journal } from '../journal/index.js';
import type { Signer, TrustAnchor } from '../trust/index.js';
import {
  type Admission,
  type AdmissionPageQuery,
  admissionPage,
  admissionsOf,
} from './admission.js';
import { authorize, type PromotionActor, RUNTIME_ACTOR } from './promotion-actor.js';
import { admitPromotions, requireAdmitted } from './promotion-admissions.js';
import { inCanary } from './promotion-canary.js';
import { parseCandidate } from './promotion-candidate.js';
import type { PolicyCheck } from './promotion-checks.js';
import { applyOrRefuse, type Planned, takeSteps } from './promotion-journal.js';
import { FINAL, foldJournal, LivePromotions } from './promotion-live.js';
import { applyStep, canaryDecision } from './promotion-machine.js';
import { checkStep, onwardSteps, validationStep } from './promotion-planning.js';
import { publishCandidate, verifyPublication } from './promotion-publication.js';
import type {
  PromotionCandidate,
  PromotionState,
  PromotionStep,
  ValidationFailure,
} from './promotion-types.js';

/**
 * What the caller of a validating step hands the replay beside the events the candidate names:
 * inputs the record names only by hash (a `kernel.verdict` event's artifact: the kernel's audit
 * keeps its hash, never the artifact). Used for this validation alone, never journaled.
 */
export interface PromotionReplayInputs {
  readonly artifacts?: readonly JsonValue[];
}

/**
 * Replay validation: re-executes the events a candidate names (with the candidate in place where
 * it applies) and reports what did not match. The runtime provides it (replayers live in app).
 */
export type PromotionValidator = (
  candidate: PromotionCandidate,
  project: string,
  inputs?: PromotionReplayInputs,
) => Promise<{ readonly replayed: number; readonly failures: readonly ValidationFailure[] }>;

export interface PromotionRunnerOptions {
  /** The node's issuer, which signs publications. */
  readonly signer: () => Signer;
  /** The pinned root (and list) publications are verified against. */
  readonly anchor: () => TrustAnchor;
  readonly validator: PromotionValidator;
  /** Checks beyond {@link BUILT_IN_CHECKS} (the runtime's: AIR settings, gate labels). */
  readonly checks?: readonly PolicyCheck[];
}

/**
 * The promotion pipeline over the journal: every step is an `evolution.promotion` entry, accepted
 * by the state machine ({@link applyStep}) against the state the project's journal gives, and
 * appended only if no other entry came in between (`expectedSeq`; on a conflict the state is read
 * again and the step decided again). State is the fold of those entries: kept per project from a
 * cursor, so a restart or another process's steps are read, never assumed.
 */
export class PromotionRunner {
  readonly #journal: Journal;
  readonly #options: PromotionRunnerOptions;
  /** Per project, the live promotions folded from its journal (finished ones are stored). */
  readonly #live: LivePromotions;
  /** Promotions an `advance` of this runner is taking on now (project and id). */
  readonly #advancing = new Set<string>();

  constructor(journal: Journal, options: PromotionRunnerOptions) {
    this.#journal = journal;
    this.#options = options;
    this.#live = new LivePromotions(journal);
  }

  /**
   * The project's promotions, in the order they were proposed: those proposed after the journal
   * seq `after`, at most `limit` of them.
   */
  list(
    project: string,
    page: { readonly after?: number; readonly limit?: number } = {},
  ): Promise<PromotionState[]> {
    return this.#live.list(project, page);
  }

  /** One promotion; UNKNOWN_PROMOTION when the project has none of that id. */
  async get(project: string, promotionId: string): Promise<PromotionState> {
    const state = await this.#live.state(project, promotionId, await this.#live.view(project));
    if (state === null) {
      throw new CanonryError('UNKNOWN_PROMOTION', `no promotion ${promotionId} in ${project}`, {
        promotion_id: promotionId,
      });
    }
    return state;
  }

  /**
   * Every promotion of a project folded from its journal alone (no cached or stored state); the
   * runner's own view of the project is read again from the journal at its next use.
   */
  async rebuild(project: string): Promise<Map<string, PromotionState>> {
    this.#live.forget(project);
    return foldJournal(this.#journal, project);
  }

  /** How many promotion states this runner holds in memory: the live ones of the projects read. */
  held(): number {
    return this.#live.held();
  }

  /**
   * Proposes a candidate: the promotion's first entry. A gate policy is its project owner's
   * (FORBIDDEN otherwise); a canary naming another project needs that project's admission of this
   * one (FORBIDDEN naming the projects that have not admitted it) — nothing is journaled then.
   */
  async propose(project: string, who: PromotionActor, input: unknown): Promise<PromotionState> {
    const candidate = parseCandidate(input);
    authorize(who, candidate);
    await this.#admitted(project, candidate);
    return this.#take(project, who, candidate.promotion_id, () => ({ step: 'propose', candidate }));
  }

  /**
   * Starts a candidate (the `startPromotion` operation): proposed and, unless `advance` is false,
   * taken through validation, checks, publication and into its canary — stopping where it is
   * rejected — all in one journal transaction. Either every step is journaled or none: another
   * writer moving first (CONFLICT after the retries) leaves no half-made promotion, and the same
   * call can simply be made again.
   */
  async start(
    project: string,
    who: PromotionActor,
    input: unknown,
    options: { readonly advance?: boolean; readonly replay?: PromotionReplayInputs } = {},
  ): Promise<PromotionState> {
    const candidate = parseCandidate(input);
    authorize(who, candidate);
    await this.#admitted(project, candidate);
    const id = candidate.promotion_id;
    const propose: PromotionStep = { step: 'propose', candidate };
    if (options.advance === false) return this.#take(project, who, id, () => propose);
    // A taken id is refused before any replay runs.
    const before = await this.#live.state(project, id, await this.#live.view(project));
    const proposed = applyOrRefuse(before, propose);
    const onward = await this.#onward(project, proposed, options.replay);
    return this.#takeAll(project, id, () => [
      { step: propose, who },
      ...onward('candidate').map((step) => ({ step, who })),
    ]);
  }

  /**
   * The admissions `project` has given or withdrawn (whose promotions may reach it), as its
   * journal says.
   */
  async admissions(project: string): Promise<Admission[]> {
    return admissionsOf(this.#journal.store, project);
  }

  /** One page of {@link PromotionRunner.admissions} ({@link AdmissionPageQuery}). */
  async admissionPage(project: string, q: AdmissionPageQuery): Promise<Admission[]> {
    return admissionPage(this.#journal.store, project, q);
  }

  /**
   * Admits promotions of `from` into `project` (or, `admitted: false`, withdraws that): an
   * `evolution.admission` entry in `project`'s journal, its owner's alone (FORBIDDEN otherwise).
   * Nothing is appended when it already stands as asked.
   */
  admit(project: string, who: PromotionActor, from: string, admitted: boolean): Promise<Admission> {
    return admitPromotions(this.#journal, project, who, from, admitted);
  }

  /**
   * Replay validation: the validator re-executes the candidate's events; any failure, or nothing
   * to replay, rejects the promotion here.
   */
  async validate(
    project: string,
    who: PromotionActor,
    id: string,
    replay?: PromotionReplayInputs,
  ): Promise<PromotionState> {
    const state = await this.#expect(project, id, 'validate', who);
    const step = await validationStep(this.#options, project, state.candidate, replay);
    return this.#take(project, who, id, () => step);
  }

  /** Policy and safety checks (built in, then the runtime's); any reason rejects the promotion. */
  async check(project: string, who: PromotionActor, id: string): Promise<PromotionState> {
    const state = await this.#expect(project, id, 'check', who);
    const step = checkStep(this.#options, state.candidate);
    return this.#take(project, who, id, () => step);
  }

  /**
   * Publishes the candidate: signed by the node's issuer, or the publication given (made
   * elsewhere), which must verify from the pinned root and address this artifact —
   * PUBLICATION_INVALID otherwise, nothing journaled.
   */
  async publish(
    project: string,
    who: PromotionActor,
    id: string,
    given?: unknown,
  ): Promise<PromotionState> {
    const state = await this.#expect(project, id, 'publish', who);
    const publication = given ?? publishCandidate(state.candidate, this.#options.signer());
    const verified = verifyPublication(publication, state.candidate, this.#options.anchor());
    if (!verified.ok) {
      throw new CanonryError('PUBLICATION_INVALID', verified.issues[0]!.message, {
        promotion_id: id,
      });
    }
    return this.#take(project, who, id, () => ({
      step: 'publish',
      publication: publication as never,
    }));
  }

  /**
   * Opens the canary: from here sessions in its scope get the candidate. The projects it names
   * must still admit this one (an admission withdrawn since the proposal: FORBIDDEN).
   */
  async startCanary(project: string, who: PromotionActor, id: string): Promise<PromotionState> {
    const state = await this.get(project, id);
    authorize(who, state.candidate);
    await this.#admitted(project, state.candidate);
    return this.#take(project, who, id, () => ({ step: 'canary' }));
  }

  /**
   * Takes a candidate as far as it goes on its own: validation, checks, publication, canary —
   * stopping where it is rejected.
   */
  async advance(
    project: string,
    who: PromotionActor,
    id: string,
    replay?: PromotionReplayInputs,
  ): Promise<PromotionState> {
    const key = `${project}\u0000${id}`;
    if (this.#advancing.has(key)) throw advancedElsewhere(id, null);
    this.#advancing.add(key);
    try {
      const state = await this.get(project, id);
      authorize(who, state.candidate);
      if (FINAL.has(state.stage)) {
        throw new CanonryError(
          'PROMOTION_FINISHED',
          `promotion ${id} is ${state.stage}: no step leaves that stage`,
          { promotion_id: id, stage: state.stage },
        );
      }
      if (!ADVANCING.has(state.stage)) {
        throw new CanonryError(
          'PROMOTION_ILLEGAL_TRANSITION',
          `a promotion at ${state.stage} has nothing to advance: its canary decides, or an owner`,
          { stage: state.stage, step: 'advance' },
        );
      }
      const onward = await this.#onward(project, state, replay);
      // Planned again after a conflict: if another call (here or in another process) moved the
      // promotion meanwhile, it advanced it, and this call answers CONFLICT rather than a state
      // it did not make.
      return await this.#takeAll(project, id, (current) => {
        if (current!.stage !== state.stage) throw advancedElsewhere(id, current!.stage);
        return onward(current!.stage).map((step) => ({ step, who }));
      });
    } finally {
      this.#advancing.delete(key);
    }
  }

  /**
   * Records a canary observation (the metric's mean over `samples` sessions of one arm); when the
   * canary then has its minimum sample, its decision — roll back or promote — is appended at once,
   * as {@link CANARY_ACTOR}. With an idempotency key (the canary collector's, one per window) an
   * observation already journaled under it is not counted again.
   */
  async observe(
    project: string,
    who: PromotionActor,
    id: string,
    observation: { arm: unknown; value: unknown; samples: unknown },
    options: { readonly idempotencyKey?: string } = {},
  ): Promise<PromotionState> {
    const { arm, value, samples } = observation;
    if (arm !== 'canary' && arm !== 'baseline') {
      throw new CanonryError('INVALID_PROMOTION', 'arm is canary or baseline', { path: '/arm' });
    }
    if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
      throw new CanonryError('INVALID_PROMOTION', 'value is a number in [0, 1]', {
        path: '/value',
      });
    }
    if (
      !Number.isSafeInteger(samples) ||
      (samples as number) < 1 ||
      (samples as number) > 1_000_000
    ) {
      throw new CanonryError('INVALID_PROMOTION', 'samples is an integer 1–1,000,000', {
        path: '/samples',
      });
    }
    const step: PromotionStep = { step: 'observe', arm, value, samples: samples as number };
    const key = options.idempotencyKey;
    // The observation and the decision it completes are one transaction: a conflict leaves
    // neither, so the caller's retry counts the observation once. Decided on the state the append
    // follows; one already journaled under its key is not counted again, but may still complete a
    // decision another process did not take.
    return this.#takeAll(project, id, async (current) => {
      if (current !== null) authorize(who, current.candidate);
      const seen = key !== undefined && (await this.#journal.entryByKey(project, key)) !== null;
      if (current === null) return seen ? [] : [{ step, who }];
      const after = seen ? ok(current) : applyStep(current, step);
      const decision = after.ok ? canaryDecision(after.value) : null;
      return [
        ...(seen ? [] : [{ step, who, idempotencyKey: key }]),
        ...(decision === null ? [] : [{ step: decision, who: RUNTIME_ACTOR }]),
      ];
    });
  }

  /** Promotes by hand (the owner's call, checked by the faces). */
  async promote(
    project: string,
    who: PromotionActor,
    id: string,
    reason: string,
  ): Promise<PromotionState> {
    return this.#take(project, who, id, () => ({ step: 'promote', automatic: false, reason }));
  }

  /** Rolls back by hand: appended, so what was promoted stays on the record. */
  async rollBack(
    project: string,
    who: PromotionActor,
    id: string,
    reason: string,
  ): Promise<PromotionState> {
    return this.#take(project, who, id, () => ({ step: 'roll_back', automatic: false, reason }));
  }

  /** Whether a session of `project` is in the promotion's canary (false unless it is in canary). */
  async inCanary(project: string, id: string, sessionId: string): Promise<boolean> {
    const state = await this.get(project, id);
    return (
      state.stage === 'canary' &&
      inCanary(state.candidate.canary, id, { project, session_id: sessionId })
    );
  }

  /** FORBIDDEN unless every project the candidate's canary names, but its own, admits `project`. */
  #admitted(project: string, candidate: PromotionCandidate): Promise<void> {
    return requireAdmitted(this.#journal.store, project, candidate);
  }

  async #expect(
    project: string,
    id: string,
    step: PromotionStep['step'],
    who: PromotionActor,
  ): Promise<PromotionState> {
    const state = await this.get(project, id);
    authorize(who, state.candidate);
    const from = { validate: 'candidate', check: 'validated', publish: 'checked' } as const;
    if (state.stage !== from[step as keyof typeof from]) {
      throw new CanonryError(
        'PROMOTION_ILLEGAL_TRANSITION',
        `a promotion at ${state.stage} cannot take the step ${step}`,
        { stage: state.stage, step },
      );
    }
    return state;
  }

  /** The steps that take a promotion on ({@link onwardSteps}), its canary's admissions checked. */
  #onward(project: string, state: PromotionState, replay?: PromotionReplayInputs) {
    return onwardSteps(
      this.#options,
      (p, candidate) => this.#admitted(p, candidate),
      project,
      state,
      replay,
    );
  }

  /** Plans and journals steps ({@link takeSteps}): all or none, planned again on a conflict. */
  #takeAll(
    project: string,
    id: string,
    plan: (current: PromotionState | null) => readonly Planned[] | Promise<readonly Planned[]>,
  ): Promise<PromotionState> {
    return takeSteps(this.#journal, this.#live, project, id, plan);
  }

  /** Decides `step` on the current state and appends it under that head; again on a conflict. */
  #take(
    project: string,
    who: PromotionActor,
    id: string,
    stepOf: (current: PromotionState) => PromotionStep | null,
    idempotencyKey?: string,
  ): Promise<PromotionState> {
    return this.#takeAll(project, id, (current) => {
      const step = stepOf(current as PromotionState);
      return step === null ? [] : [{ step, who, idempotencyKey }];
    });
  }
}

/** Stages `advance` takes a promotion on from. */
const ADVANCING: ReadonlySet<PromotionState['stage']> = new Set([
  'candidate',
  'validated',
  'checked',
  'published',
]);

/** CONFLICT: another call is advancing the promotion, or stepped it while this one planned. */
function advancedElsewhere(id: string, stage: PromotionState['stage'] | null): CanonryError {
  return new CanonryError(
    'CONFLICT',
    `another call is advancing promotion ${id}${stage === null ? '' : ` (now ${stage})`}: read it again`,
    { promotion_id: id, ...(stage === null ? {} : { stage }) },
  );
}
