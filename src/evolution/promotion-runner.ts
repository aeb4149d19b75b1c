import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { CanonryError, isCanonryError, isProjectName, type JsonValue, ok } from '../core/index.js';
import { type Journal, type JournalEntry, parseProject } from '../journal/index.js';
import type { Queryable } from '../store/index.js';
import type { Signer, TrustAnchor } from '../trust/index.js';
import {
  ADMISSION_ENTRY,
  type Admission,
  type AdmissionPageQuery,
  admissionPage,
  admissionsOf,
  admittingProjects,
} from './admission.js';
import { inCanary } from './promotion-canary.js';
import { BUILT_IN_CHECKS, type PolicyCheck } from './promotion-checks.js';
import { PROMOTION_ENTRY } from './promotion-entry-kind.js';
import { applyStep, canaryDecision, foldSteps } from './promotion-machine.js';
import { publishCandidate, verifyPublication } from './promotion-publication.js';
import { PROMOTION_CANDIDATE_SCHEMA, PROMOTION_LIMITS } from './promotion-schema.js';
import {
  CANARY_EVIDENCE,
  type PromotionCandidate,
  type PromotionState,
  type PromotionStep,
  type ValidationFailure,
} from './promotion-types.js';

/** The role a person holds in the promotion's project (their token's). */
export type PromotionRole = 'owner' | 'editor' | 'agent' | 'tool' | 'viewer';

/** Who takes a step: journaled as the entry's actor and authority (never from a payload). */
export interface PromotionActor {
  readonly actor: string;
  readonly authority?: JsonValue;
  /**
   * A person's role in the promotion's project, from their token: a `gate_policy` promotion's
   * steps and admissions need `owner`. Absent, the step is nobody's with a role and such steps are
   * refused — unless `runtime` says the runtime takes it itself.
   */
  readonly role?: PromotionRole;
  /** The runtime's own step (the canary's decision, the collector's observations). */
  readonly runtime?: true;
}

/** The actor automatic steps (the canary's own decision) are journaled as. */
export const CANARY_ACTOR = 'evolution:canary';

/** The runtime itself, taking the canary's steps (its decision, collected observations). */
export const RUNTIME_ACTOR: PromotionActor = { actor: CANARY_ACTOR, runtime: true };

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

/** One step to journal: who takes it, and the idempotency key it is journaled under. */
interface Planned {
  readonly step: PromotionStep;
  readonly who: PromotionActor;
  readonly idempotencyKey?: string | undefined;
}

const PAGE = 1_000;
const RETRIES = 3;

let candidateCheck: ValidateFunction | undefined;

/**
 * Thrown under the head's lock when an admission already stands as asked: nothing to journal. A
 * CanonryError, so a group commit refuses this append alone and never rolls the others back.
 */
class AlreadyStands extends CanonryError {
  constructor(readonly admission: Admission) {
    super('CONFLICT', 'the admission already stands as asked');
  }
}

/**
 * A candidate as untrusted input: INVALID_PROMOTION naming the first bad field. The projects its
 * canary names are project names, each once: a name no project can have is a mistake in the
 * candidate (not a project that has yet to admit it), and a set is written once.
 */
export function parseCandidate(input: unknown): PromotionCandidate {
  candidateCheck ??= new Ajv2020({ strict: false, allErrors: false, ownProperties: true }).compile(
    PROMOTION_CANDIDATE_SCHEMA,
  );
  if (!candidateCheck(input)) {
    const error = candidateCheck.errors?.[0];
    const path = error?.instancePath ?? '';
    throw new CanonryError(
      'INVALID_PROMOTION',
      `${path || 'the candidate'} ${error?.message ?? 'is malformed'}`,
      {
        path,
      },
    );
  }
  const candidate = input as PromotionCandidate;
  const named = new Set<string>();
  for (const [i, project] of candidate.canary.projects.entries()) {
    const path = `/canary/projects/${i}`;
    if (!isProjectName(project)) {
      throw new CanonryError(
        'INVALID_PROMOTION',
        `${path} is not a project name (1-64 of a-z 0-9 _ -, starting with a-z or 0-9)`,
        { path },
      );
    }
    if (named.has(project)) {
      throw new CanonryError('INVALID_PROMOTION', `${path} names ${project} again`, { path });
    }
    named.add(project);
  }
  // The evidence bounds are written into the candidate, so the journal records the rule this
  // promotion is judged by, whatever a later build's defaults are.
  const { metric } = candidate;
  return {
    ...candidate,
    metric: {
      ...metric,
      min_observations: metric.min_observations ?? CANARY_EVIDENCE.minObservations,
      max_observation_samples: metric.max_observation_samples ?? metric.min_samples,
    },
  };
}

/**
 * A gate policy decides what commits without a person in a project: a promotion of one changes who
 * must approve what, which is the owner's authority. Every step a person takes on one (propose,
 * validate, check, publish, canary, observe, promote, roll back) needs the owner role in the
 * promotion's project; the runtime's own steps stay its own. Other kinds are the faces' (`minRole`).
 */
function authorize(who: PromotionActor, candidate: PromotionCandidate): void {
  if (candidate.artifact_kind !== 'gate_policy' || who.runtime === true || who.role === 'owner') {
    return;
  }
  throw new CanonryError(
    'FORBIDDEN',
    "a gate policy decides what commits without a person: every step of its promotion is the project owner's (this needs the owner role)",
    { required_role: 'owner' },
  );
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
  /** Per project: how far its journal is folded, and its live promotions (finished are stored). */
  readonly #views = new Map<string, View>();
  /** One catch-up at a time per project: two folding the same page would apply its steps twice. */
  readonly #reading = new Map<string, Promise<unknown>>();
  /** Promotions an `advance` of this runner is taking on now (project and id). */
  readonly #advancing = new Set<string>();

  constructor(journal: Journal, options: PromotionRunnerOptions) {
    this.#journal = journal;
    this.#options = options;
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
    const live = [...(await this.#view(project)).states.values()].filter(
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

  /** One promotion; UNKNOWN_PROMOTION when the project has none of that id. */
  async get(project: string, promotionId: string): Promise<PromotionState> {
    const state = await this.#state(project, promotionId, await this.#view(project));
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
    this.#views.delete(project);
    const states = new Map<string, PromotionState>();
    for (let after = 0; ; ) {
      const entries = await this.#journal.read(project, { after, limit: PAGE });
      foldSteps(stepsOf(entries), states);
      if (entries.length > 0) after = entries[entries.length - 1]!.seq;
      if (entries.length < PAGE) return states;
    }
  }

  /** How many promotion states this runner holds in memory: the live ones of the projects read. */
  held(): number {
    let n = 0;
    for (const view of this.#views.values()) n += view.states.size;
    return n;
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
    const before = await this.#state(project, id, await this.#view(project));
    const proposed = this.#apply(before, propose);
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
  async admit(
    project: string,
    who: PromotionActor,
    from: string,
    admitted: boolean,
  ): Promise<Admission> {
    if (who.role !== 'owner') {
      throw new CanonryError(
        'FORBIDDEN',
        `admitting promotions of another project into ${project} is its owner's: this needs the owner role`,
        { required_role: 'owner' },
      );
    }
    if (from === project) {
      throw new CanonryError(
        'INVALID_ARGUMENT',
        'a project always reaches itself: it admits other projects only',
        { field: 'from' },
      );
    }
    parseProject(from);
    const standing = async (db: Pick<Queryable, 'all'>): Promise<Admission | null> => {
      const now = (await admissionsOf(db, project)).find((a) => a.from_project === from);
      if (now?.admitted === admitted) return now;
      return now === undefined && !admitted ? { from_project: from, admitted, seq: 0 } : null;
    };
    const already = await standing(this.#journal.store);
    if (already !== null) return already;
    try {
      const { entry } = await this.#journal.append(
        project,
        ADMISSION_ENTRY.input(
          { from_project: from, admitted },
          {
            actor: who.actor,
            ...(who.authority === undefined ? {} : { authority: who.authority }),
          },
        ),
        {
          // Decided again under the head's lock: the same call, sent at once, may have set it.
          precondition: async (tx) => {
            const now = await standing(tx);
            if (now !== null) throw new AlreadyStands(now);
          },
        },
      );
      return { from_project: from, admitted, seq: entry.seq };
    } catch (err) {
      if (err instanceof AlreadyStands) return err.admission;
      throw err;
    }
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
    const step = await this.#validation(project, state.candidate, replay);
    return this.#take(project, who, id, () => step);
  }

  /** Policy and safety checks (built in, then the runtime's); any reason rejects the promotion. */
  async check(project: string, who: PromotionActor, id: string): Promise<PromotionState> {
    const state = await this.#expect(project, id, 'check', who);
    const step = this.#checks(state.candidate);
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
   * The steps that take a promotion on from each stage as far as it goes on its own: validation
   * (replayed once, here), checks, publication (signed once), canary — none past a rejection. The
   * canary's projects must still admit this one when it is to be opened.
   */
  async #onward(
    project: string,
    state: PromotionState,
    replay?: PromotionReplayInputs,
  ): Promise<(stage: PromotionState['stage']) => PromotionStep[]> {
    const order = ['candidate', 'validated', 'checked', 'published'] as const;
    const from = order.indexOf(state.stage as (typeof order)[number]);
    if (from < 0) return () => [];
    const { candidate } = state;
    const steps: PromotionStep[] = [];
    if (from <= 0) steps.push(await this.#validation(project, candidate, replay));
    if (from <= 1 && (from === 1 || (steps.at(-1) as { passed: boolean }).passed)) {
      steps.push(this.#checks(candidate));
    }
    if (from <= 2 && (from === 2 || (steps.at(-1) as { passed: boolean }).passed)) {
      const publication = publishCandidate(candidate, this.#options.signer());
      const verified = verifyPublication(publication, candidate, this.#options.anchor());
      if (!verified.ok) {
        throw new CanonryError('PUBLICATION_INVALID', verified.issues[0]!.message, {
          promotion_id: candidate.promotion_id,
        });
      }
      steps.push({ step: 'publish', publication });
    }
    if (from <= 3 && (from === 3 || steps.at(-1)?.step === 'publish')) {
      await this.#admitted(project, candidate);
      steps.push({ step: 'canary' });
    }
    // Read again after a conflict, the promotion may have gone on meanwhile: the rest from there.
    return (stage) => {
      const at = order.indexOf(stage as (typeof order)[number]);
      return at < from ? [] : steps.slice(at - from);
    };
  }

  /** The validate step for a candidate: its events replayed; nothing to replay fails it. */
  async #validation(
    project: string,
    candidate: PromotionCandidate,
    replay: PromotionReplayInputs = {},
  ): Promise<Extract<PromotionStep, { step: 'validate' }>> {
    const result = await this.#options.validator(candidate, project, replay);
    const failures =
      result.replayed === 0 && result.failures.length === 0
        ? [
            {
              event_id: '-',
              reason: 'nothing to replay: a candidate names the events that validate it',
            },
          ]
        : result.failures;
    return {
      step: 'validate',
      passed: failures.length === 0,
      replayed: result.replayed,
      // The validator is a port: what it reports is bounded here as the step's schema bounds it,
      // so a long reason (a deep first difference's path) rejects the candidate instead of
      // failing the append.
      failures: failures.slice(0, PROMOTION_LIMITS.replayEvents).map((f) => ({
        event_id: f.event_id,
        reason: clip(f.reason, REASON_CHARS),
      })),
    };
  }

  /** The check step for a candidate: built-in checks, then the runtime's. */
  #checks(candidate: PromotionCandidate): Extract<PromotionStep, { step: 'check' }> {
    const reasons = [BUILT_IN_CHECKS, ...(this.#options.checks ?? [])].flatMap((c) => c(candidate));
    return {
      step: 'check',
      passed: reasons.length === 0,
      reasons: reasons.slice(0, PROMOTION_LIMITS.reasons).map((r) => clip(r, REASON_CHARS)),
    };
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
  async #admitted(project: string, candidate: PromotionCandidate): Promise<void> {
    const others = candidate.canary.projects.filter((q) => q !== project);
    if (others.length === 0) return;
    const admitting = await admittingProjects(this.#journal.store, project);
    const missing = others.filter((q) => !admitting.has(q));
    if (missing.length > 0) {
      throw new CanonryError(
        'FORBIDDEN',
        `the canary names ${missing.slice(0, 8).join(', ')}, which ${missing.length === 1 ? 'does' : 'do'} not admit promotions from ${project}: a project's owner admits them (evolution admissions)`,
        { projects: missing.slice(0, 64) },
      );
    }
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

  /**
   * Plans steps on the current state, checks each against the machine (and its taker's authority)
   * and appends them together, in one transaction, only if the promotion has taken no step since
   * the state was read ({@link moved}) — all or none; planned again on a conflict (three tries,
   * then CONFLICT).
   */
  async #takeAll(
    project: string,
    id: string,
    plan: (current: PromotionState | null) => readonly Planned[] | Promise<readonly Planned[]>,
  ): Promise<PromotionState> {
    for (let attempt = 1; ; attempt++) {
      const view = await this.#view(project);
      // The seq the steps are planned on, taken now: the view is shared and folded further by
      // other calls while this one awaits its plan.
      const at = view.cursor;
      const current = await this.#state(project, id, view);
      const planned = await plan(current);
      let state = current;
      for (const { step, who } of planned) {
        if (state === null && step.step !== 'propose') break;
        authorize(who, step.step === 'propose' ? step.candidate : state!.candidate);
        state = this.#apply(state, step);
      }
      if (state === null) {
        throw new CanonryError('UNKNOWN_PROMOTION', `no promotion ${id} in ${project}`, {
          promotion_id: id,
        });
      }
      if (planned.length === 0) return state;
      try {
        await this.#journal.appendAll(
          project,
          planned.map(({ step, who, idempotencyKey }) =>
            PROMOTION_ENTRY.input(
              { promotion_id: id, step },
              {
                actor: who.actor,
                ...(who.authority === undefined ? {} : { authority: who.authority }),
                correlation_id: id,
                ...(idempotencyKey === undefined ? {} : { idempotency_key: idempotencyKey }),
              },
            ),
          ),
          {
            precondition: async (tx, head) => moved(tx, head.seq, project, id, at, current),
          },
        );
      } catch (err) {
        if (isCanonryError(err, 'CONFLICT') && attempt < RETRIES) continue;
        throw err;
      }
      return (await this.#state(project, id, await this.#view(project)))!;
    }
  }

  /** The state `step` leads to, or the machine's refusal as a typed error. */
  #apply(state: PromotionState | null, step: PromotionStep): PromotionState {
    const next = applyStep(state, step);
    if (!next.ok) {
      const issue = next.issues[0]!;
      throw new CanonryError(issue.code, issue.message, {
        stage: issue.stage,
        step: issue.step,
        ...(issue.path === undefined ? {} : { path: issue.path }),
      });
    }
    return next.value;
  }

  /** A promotion's state as of the view: live from memory, finished from the store, else null. */
  async #state(project: string, id: string, view: View): Promise<PromotionState | null> {
    const live = view.states.get(id);
    if (live !== undefined) return live;
    const [row] = await this.#journal.store.all<{ state: string }>(
      'SELECT state FROM evolution_finished_promotions WHERE project = $1 AND promotion_id = $2',
      [project, id],
    );
    return row === undefined ? null : (JSON.parse(row.state) as PromotionState);
  }

  /** The project's live promotions, caught up with its journal from the last cursor. */
  #view(project: string): Promise<View> {
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

interface View {
  cursor: number;
  readonly states: Map<string, PromotionState>;
}

/**
 * Under the project's head lock: CONFLICT when the promotion has taken a step since the seq its
 * next steps were planned on. Other entries of the project (relay windows, commits, other
 * promotions' steps) do not touch its state, so they do not refuse the step — with the whole head
 * as the condition, a project that appended anything every few milliseconds refused every step.
 * The `evolution` projection's `step_seq` says where the promotion's latest step is, for entries
 * committed before and for those earlier in this same transaction; a journal without the projection
 * falls back to the head itself.
 */
async function moved(
  tx: Queryable,
  head: number,
  project: string,
  id: string,
  planned: number,
  current: PromotionState | null,
): Promise<void> {
  if (head === planned) return;
  const [row] = await tx.all<{ step_seq: number | string }>(
    'SELECT step_seq FROM evolution_promotions WHERE project = $1 AND promotion_id = $2',
    [project, id],
  );
  const stepped = row === undefined ? current !== null : Number(row.step_seq) > planned;
  if (stepped) {
    throw new CanonryError('CONFLICT', `promotion ${id} took a step after seq ${planned}`, {
      promotion_id: id,
    });
  }
}

/** Most characters of one reason a step journals (the step schema's bound). */
const REASON_CHARS = 2_000;

/** `text` cut to at most `max` UTF-16 units, never between the halves of a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
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

/** Stages no step leaves: a promotion there is finished. */
const FINAL: ReadonlySet<PromotionState['stage']> = new Set(['rejected', 'rolled_back']);

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
