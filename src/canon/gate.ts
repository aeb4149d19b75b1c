import { type ContentHash, contentHash } from '../core/index.js';
import type {
  AgenticProtocol,
  CompiledProtocol,
  ConformanceEvent,
  Kernel,
} from '../kernel/index.js';
import { COMPARISON_CHECKS, type Comparison, type ComparisonCheckName } from './compare.js';
import {
  type ObjectType,
  PROPOSAL_INTENTS,
  type ProposalIntent,
  ROLES,
  type Role,
  STAKES,
  type Stakes,
} from './types.js';

/** What the gate can answer (§6). */
export type GateLabel = 'AUTO_COMMIT' | 'REQUIRE_CONFIRMATION' | 'HARD_STOP' | 'REJECT';

/** The artifact the gate protocol judges: the facts of one mutation, all computed by canon. */
export type GateInput = {
  readonly stakes: Stakes;
  readonly role: Role;
  readonly intent: ProposalIntent;
  readonly object_type: ObjectType;
  /** The mutation changes what kind of object it is (a constraint becoming a question, …). */
  readonly type_changed: boolean;
  /**
   * The proposer changes a note that stands on its own authority alone (it proposed the current
   * version and nobody approved it) and replaces nothing else: a tool correcting what it reported.
   */
  readonly corrects_own: boolean;
} & { readonly [K in ComparisonCheckName]: boolean };

/** The signed outcome of the gate, kept with the proposal and referenced from the receipt. */
export interface GateVerdict {
  readonly label: GateLabel;
  readonly protocol_hash: ContentHash;
  readonly input_hash: ContentHash;
  /** The kernel's signed conformance event (null only if the input failed the gate's constraints). */
  readonly event: ConformanceEvent | null;
  readonly event_hash: ContentHash | null;
}

const FLAGS = [...COMPARISON_CHECKS, 'type_changed', 'corrects_own'] as const;

const v = (name: string) => ({ var: name });

/**
 * The default stakes-and-authority gate, an agentic protocol evaluated by the kernel (first match):
 * a viewer is refused; S3 always hard-stops for the owner; a mutation beyond the proposer's authority
 * (an agent or a tool at S2+, an editor at S3) needs confirmation; so does a tool's change of anything
 * but a note it reported itself (§6: a tool result does not become canon because it arrived); so does
 * anything an agent proposes that removes information, changes source or authority, turns a
 * suggestion into a directive, or resolves a dispute (an agent's resolution waits for an editor or
 * the owner), and a tool's suggestion turned directive; raising certainty without evidence,
 * collapsing a dispute, or changing an object's type (a constraint turned into a question) needs
 * confirmation from anyone; the rest commits. `docs/governance.md` tabulates the answers.
 */
export const DEFAULT_GATE_PROTOCOL: AgenticProtocol = {
  slug: 'canonry.canon.stakes-gate',
  version: '1.1',
  description: 'LCSM §6 stakes and authority gate: S0–S3 by actor role and the two-note checks.',
  constraints: {
    type: 'object',
    additionalProperties: false,
    required: ['stakes', 'role', 'intent', 'object_type', ...FLAGS],
    properties: {
      stakes: { enum: [...STAKES] },
      role: { enum: [...ROLES] },
      intent: { enum: [...PROPOSAL_INTENTS] },
      object_type: { type: 'string', minLength: 1 },
      ...Object.fromEntries(FLAGS.map((f) => [f, { type: 'boolean' }])),
    },
  },
  labels: ['AUTO_COMMIT', 'REQUIRE_CONFIRMATION', 'HARD_STOP', 'REJECT'],
  rules: [
    { label: 'REJECT', condition: { '==': [v('role'), 'viewer'] } },
    { label: 'HARD_STOP', condition: { '==': [v('stakes'), 'S3'] } },
    { label: 'REQUIRE_CONFIRMATION', condition: { '!': v('within_authority') } },
    {
      label: 'REQUIRE_CONFIRMATION',
      condition: {
        and: [
          { '==': [v('role'), 'tool'] },
          { '!=': [v('intent'), 'create'] },
          { '!': v('corrects_own') },
        ],
      },
    },
    {
      label: 'REQUIRE_CONFIRMATION',
      condition: { and: [{ '==': [v('role'), 'tool'] }, v('suggestion_to_directive')] },
    },
    {
      label: 'REQUIRE_CONFIRMATION',
      condition: {
        and: [
          { '==': [v('role'), 'agent'] },
          {
            or: [
              v('information_removed'),
              v('source_or_authority_change'),
              v('suggestion_to_directive'),
              { '==': [v('intent'), 'resolve'] },
            ],
          },
        ],
      },
    },
    {
      label: 'REQUIRE_CONFIRMATION',
      condition: {
        or: [
          v('certainty_raised_without_evidence'),
          v('dispute_collapsed'),
          { '!': v('reversible') },
          v('type_changed'),
        ],
      },
    },
    { label: 'AUTO_COMMIT', condition: true },
  ],
};

/** The gate input for a comparison made by `role`. */
export function gateInput(
  comparison: Comparison,
  role: Role,
  intent: ProposalIntent,
  objectType: ObjectType,
): GateInput {
  const c = comparison.checks;
  return {
    stakes: comparison.stakes,
    role,
    intent,
    object_type: objectType,
    ...(Object.fromEntries(COMPARISON_CHECKS.map((name) => [name, c[name].result])) as Record<
      ComparisonCheckName,
      boolean
    >),
    type_changed:
      comparison.current.content !== null && comparison.current.content.object_type !== objectType,
    corrects_own:
      comparison.current.content !== null &&
      intent !== 'supersede' &&
      comparison.current.authority?.principal === comparison.candidate.authority?.principal,
  };
}

/**
 * Runs the gate: the kernel resolves the input against the gate protocol and signs the verdict.
 * Anything but a conformant verdict (the input failed the gate's own constraints, or drifted) is
 * treated as REJECT: the gate fails closed.
 */
export function runGate(kernel: Kernel, gate: CompiledProtocol, input: GateInput): GateVerdict {
  const { verdict, event } = kernel.evaluate(input, gate, contentHash({ gate: 'canon' }));
  const label = verdict.class === 'CONFORMANT' ? (verdict.label as GateLabel) : 'REJECT';
  return {
    label,
    protocol_hash: gate.hash,
    input_hash: contentHash(input),
    event,
    event_hash: event ? contentHash(event) : null,
  };
}
