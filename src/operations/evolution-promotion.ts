import { promotionsOf } from '../app/index.js';
import type { Principal } from '../canon/index.js';
import { CanonryError, type JsonValue } from '../core/index.js';
import {
  armMean,
  PROMOTION_CANDIDATE_SCHEMA,
  PROMOTION_LIMITS,
  type PromotionActor,
  type PromotionState,
} from '../evolution/index.js';
import { intQuery } from './input.js';
import type { Operation } from './operation.js';
import { EXAMPLE_HASH, RESPONSES } from './schemas.js';

/**
 * The promotion pipeline of canonry's own adaptive artifacts (agentic protocols, gate policies,
 * AIR settings; `src/evolution`): list and read promotions, start a candidate (it is taken through
 * replay validation, checks, publication and into its canary), record canary observations (the
 * canary decides on its own once it has its sample), and, for an owner, promote or roll back by hand.
 * An editor's role admits the routes; the runner holds every step of a gate policy's promotion to
 * the project's owner, whichever face calls it.
 */

const { obj, arr } = RESPONSES;
const str = { type: 'string' };

const PROMOTION_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

function promotionArg(value: string | undefined): string {
  if (typeof value !== 'string' || !PROMOTION_ID.test(value)) {
    throw new CanonryError('INVALID_ARGUMENT', 'a promotion id is 1–128 letters, digits, . _ : -', {
      field: 'promotion',
    });
  }
  return value;
}

/** The person taking a step, as the runner journals and checks them (role: the token's). */
export const who = (p: Principal): PromotionActor => ({
  actor: p.id,
  authority: { principal: p.id, role: p.role, project: p.project },
  role: p.role,
});

/** A promotion as the faces show it: its state and each arm's mean so far. */
function view(state: PromotionState) {
  return {
    promotion: state,
    canary_mean: armMean(state.arms.canary),
    baseline_mean: armMean(state.arms.baseline),
  };
}

const VIEW = obj(
  {
    promotion: obj(
      {
        promotion_id: str,
        artifact_kind: str,
        address: str,
        stage: str,
        rejected_at: { type: ['string', 'null'] },
        reason: { type: ['string', 'null'] },
        candidate: { type: 'object' },
        publication: { type: ['object', 'null'] },
        arms: { type: 'object' },
        observed: {
          type: 'integer',
          description: 'observations the arms hold in all; history keeps the latest 256',
        },
        history: arr({ type: 'object' }),
      },
      ['promotion_id', 'artifact_kind', 'address', 'stage', 'history'],
    ),
    canary_mean: { type: ['number', 'null'] },
    baseline_mean: { type: ['number', 'null'] },
  },
  ['promotion', 'canary_mean', 'baseline_mean'],
);

/**
 * A promotion as a list shows it: without its artifact, which the address names and one
 * promotion's read carries. An artifact is up to a body's size, so a list that carried every one
 * grew by a megabyte per promotion proposed — past what one answer can hold.
 */
function listed(state: PromotionState) {
  const { artifact: _, ...candidate } = state.candidate;
  return { ...view(state), promotion: { ...state, candidate } };
}

/** Most promotions one list answers (and its default). */
const LIST_LIMIT = 100;

const PARAM = { promotion: 'promotion id' };
const URL = '/v1/projects/:project/evolution/promotions';
const ONE = `${URL}/:promotion`;

/**
 * Inputs the replay needs that the record names only by hash: a kernel verdict event's artifact
 * (the kernel's audit keeps its hash alone). Used for the call's validation, never journaled.
 */
const REPLAY_ARTIFACTS = {
  type: 'array',
  maxItems: PROMOTION_LIMITS.replayEvents,
  items: {},
  description:
    "the artifacts the kernel verdict events in replay_events were decided on (each is found by its content hash; used for this call's replay validation, never journaled)",
};

const START_SCHEMA = {
  ...PROMOTION_CANDIDATE_SCHEMA,
  properties: {
    ...PROMOTION_CANDIDATE_SCHEMA.properties,
    advance: {
      type: 'boolean',
      description:
        'take it through validation, checks, publication and into its canary now (default true)',
    },
    replay_artifacts: REPLAY_ARTIFACTS,
  },
};

const ADVANCE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { replay_artifacts: REPLAY_ARTIFACTS },
};

/** The replay inputs a body hands in (already held to its schema). */
const replayOf = (body: unknown) => {
  const artifacts = (body as { replay_artifacts?: JsonValue[] } | undefined)?.replay_artifacts;
  return artifacts === undefined ? {} : { artifacts };
};

const REASON_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: { reason: { type: 'string', minLength: 1, maxLength: 2_000 } },
};

const OBSERVE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['arm', 'value', 'samples'],
  properties: {
    arm: { enum: ['canary', 'baseline'] },
    value: { type: 'number', minimum: 0, maximum: 1, description: "the metric's mean" },
    samples: {
      type: 'integer',
      minimum: 1,
      maximum: 1_000_000,
      description: "sessions measured: at most the promotion's metric.max_observation_samples",
    },
  },
};

// FORBIDDEN beyond the route's role: every step of a gate policy's promotion is the owner's, and a
// canary names only projects that admit this one.
const STEP_ERRORS = [
  'UNKNOWN_PROMOTION',
  'PROMOTION_ILLEGAL_TRANSITION',
  'CONFLICT',
  'FORBIDDEN',
] as const;

export const PROMOTION_OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    url: URL,
    operationId: 'listPromotions',
    summary:
      "The project's promotions of adaptive artifacts, in the order they were proposed, each at its stage (a page; without the artifacts, which one promotion's read carries)",
    tag: 'evolution',
    cli: { command: 'promotions', description: 'list promotions and their stages' },
    minRole: 'viewer',
    query: [
      {
        name: 'after',
        description: "only those proposed after this journal seq (a page's next)",
        schema: { type: 'integer', minimum: 0 },
      },
      {
        name: 'limit',
        description: `at most this many (1–${LIST_LIMIT}, default ${LIST_LIMIT})`,
        schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT },
      },
    ],
    status: 200,
    response: obj(
      {
        promotions: arr(VIEW),
        next: {
          type: ['integer', 'null'],
          description: 'the after of the following page, or null at the end',
        },
      },
      ['promotions', 'next'],
    ),
    errors: ['INVALID_ARGUMENT'],
    handler: async ({ runtime, project, query }) => {
      const after = intQuery(query.after, 'after', 0, Number.MAX_SAFE_INTEGER, 0);
      const limit = intQuery(query.limit, 'limit', 1, LIST_LIMIT, LIST_LIMIT);
      const proposedAt = (p: PromotionState) => p.history[0]?.seq ?? 0;
      // One more than the page, to tell whether another follows.
      const read = await promotionsOf(runtime).list(project, { after, limit: limit + 1 });
      const page = read.slice(0, limit);
      return {
        promotions: page.map(listed),
        next: read.length > limit ? proposedAt(page.at(-1)!) : null,
      };
    },
  },
  {
    method: 'GET',
    url: ONE,
    operationId: 'getPromotion',
    summary: 'One promotion: its candidate, stage, publication, canary arms and every step taken',
    tag: 'evolution',
    cli: { command: 'promotion <promotion>', description: 'a promotion and its history' },
    minRole: 'viewer',
    params: PARAM,
    status: 200,
    response: VIEW,
    errors: ['UNKNOWN_PROMOTION', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, project, params }) =>
      view(await promotionsOf(runtime).get(project, promotionArg(params.promotion))),
  },
  {
    method: 'POST',
    url: URL,
    operationId: 'startPromotion',
    summary:
      'Start a candidate: proposed, then (unless advance is false) replay-validated, checked, published signed and content-addressed, and opened to its canary — or stopped where it fails',
    tag: 'evolution',
    cli: { command: 'promotion-start', description: 'start a promotion (--file candidate.json)' },
    minRole: 'editor',
    body: {
      schema: START_SCHEMA,
      required: true,
      invalid: 'INVALID_PROMOTION',
      example: {
        promotion_id: 'refund-guard-1.1',
        artifact_kind: 'air_settings',
        artifact: { mode: 'adaptive', iap_budget: 384 },
        baseline: EXAMPLE_HASH,
        canary: { share: 0.1, projects: [] },
        metric: { name: 'session_iq', margin: 0.02, min_samples: 50 },
        replay_events: ['0f8b6c2e-3d4a-4b5c-8d6e-7f8091a2b3c4'],
      },
    },
    status: 201,
    response: VIEW,
    errors: [...STEP_ERRORS, 'INVALID_PROMOTION', 'PUBLICATION_INVALID'],
    handler: async ({ runtime, project, principal, body }) => {
      const {
        advance = true,
        replay_artifacts: _,
        ...candidate
      } = body as {
        advance?: boolean;
        replay_artifacts?: unknown;
      };
      return view(
        await promotionsOf(runtime).start(project, who(principal), candidate, {
          advance,
          replay: replayOf(body),
        }),
      );
    },
  },
  {
    method: 'POST',
    url: `${ONE}/advance`,
    operationId: 'advancePromotion',
    summary:
      'Take a promotion started with advance false (or stopped between steps) on as far as it goes: replay-validated, checked, published and opened to its canary — or stopped where it fails',
    tag: 'evolution',
    cli: {
      command: 'promotion-advance <promotion>',
      description: 'advance a held promotion into its canary',
    },
    minRole: 'editor',
    params: PARAM,
    body: {
      schema: ADVANCE_SCHEMA,
      required: false,
      invalid: 'INVALID_PROMOTION',
      example: { replay_artifacts: [{ amount: 20 }] },
    },
    status: 200,
    response: VIEW,
    // PROMOTION_ILLEGAL_TRANSITION: already in its canary or promoted, nothing to advance;
    // CONFLICT: another call is advancing it.
    errors: [...STEP_ERRORS, 'PROMOTION_FINISHED', 'PUBLICATION_INVALID', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, project, principal, params, body }) =>
      view(
        await promotionsOf(runtime).advance(
          project,
          who(principal),
          promotionArg(params.promotion),
          replayOf(body),
        ),
      ),
  },
  {
    method: 'POST',
    url: `${ONE}/observations`,
    operationId: 'observePromotion',
    summary:
      "Record the metric over some sessions of the canary or of the baseline (at most the promotion's max_observation_samples in one report); once both hold the minimum sample in min_observations reports the canary rolls back (below the baseline by more than the margin) or is promoted, on its own",
    tag: 'evolution',
    cli: {
      command: 'promotion-observe <promotion>',
      description: 'record a canary observation (--arm, --value, --samples)',
    },
    minRole: 'editor',
    params: PARAM,
    body: {
      schema: OBSERVE_SCHEMA,
      required: true,
      invalid: 'INVALID_PROMOTION',
      example: { arm: 'canary', value: 0.82, samples: 25 },
    },
    status: 200,
    response: VIEW,
    errors: [...STEP_ERRORS, 'INVALID_PROMOTION', 'INVALID_ARGUMENT'],
    handler: async ({ runtime, project, principal, params, body }) =>
      view(
        await promotionsOf(runtime).observe(
          project,
          who(principal),
          promotionArg(params.promotion),
          body as { arm: unknown; value: unknown; samples: unknown },
        ),
      ),
  },
  ownerStep({
    path: 'promote',
    operationId: 'promotePromotion',
    summary: "Promote a canary by hand, before its metric decides (an owner's call)",
    command: 'promotion-promote <promotion>',
    description: 'promote by hand (--reason)',
    reason: 'the pilot team signed off',
    step: 'promote',
  }),
  ownerStep({
    path: 'rollback',
    operationId: 'rollBackPromotion',
    summary:
      "Roll back a published, canary or promoted artifact by hand (an owner's call); appended, so what was promoted stays on the record",
    command: 'promotion-rollback <promotion>',
    description: 'roll back by hand (--reason)',
    reason: 'an incident in the canary',
    step: 'rollBack',
  }),
];

/** An owner's step on a promotion taken by hand, with the reason given for it. */
function ownerStep(o: {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly command: string;
  readonly description: string;
  readonly reason: string;
  readonly step: 'promote' | 'rollBack';
}): Operation {
  return {
    method: 'POST',
    url: `${ONE}/${o.path}`,
    operationId: o.operationId,
    summary: o.summary,
    tag: 'evolution',
    cli: { command: o.command, description: o.description },
    minRole: 'owner',
    mcp: { minRole: 'owner' },
    params: PARAM,
    body: { schema: REASON_SCHEMA, required: true, example: { reason: o.reason } },
    status: 200,
    response: VIEW,
    errors: [...STEP_ERRORS, 'INVALID_ARGUMENT'],
    handler: async ({ runtime, project, principal, params, body }) =>
      view(
        await promotionsOf(runtime)[o.step](
          project,
          who(principal),
          promotionArg(params.promotion),
          (body as { reason: string }).reason,
        ),
      ),
  };
}
