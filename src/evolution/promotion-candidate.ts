import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { CanonryError, isProjectName } from '../core/index.js';
import { PROMOTION_CANDIDATE_SCHEMA } from './promotion-schema.js';
import { CANARY_EVIDENCE, type PromotionCandidate } from './promotion-types.js';

let candidateCheck: ValidateFunction | undefined;

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
