import type {
  ExportPolicy,
  InferencePolicy,
  ReplicationPolicy,
  TrainingPolicy,
} from './governance-types.js';

/**
 * Replication, inference, training and export policies as the sets of destinations, execution
 * locations and operations they permit (one bit each), so that resolution intersects sets and maps
 * the result back to the one value that permits exactly that set — or finds none (GCS "Governance
 * Resolution"). The enum order is not used anywhere.
 */

/** Replication destinations: the owner's trusted devices, the private subnet, the tenant's nodes,
 * the public swarm. Each value permits its own destinations and the narrower ones. */
export const REPLICATION_DESTINATIONS = [
  'trusted_devices',
  'private_subnet',
  'tenant_nodes',
  'public_swarm',
] as const;
export type ReplicationDestination = (typeof REPLICATION_DESTINATIONS)[number];

export const REPLICATION: Readonly<Record<ReplicationPolicy, number>> = {
  none: 0b0000,
  trusted_devices: 0b0001,
  private_subnet: 0b0011,
  tenant_nodes: 0b0111,
  public_swarm: 0b1111,
};

/** Where a model may run on the content: this node, private nodes, public nodes on a redacted
 * form, public nodes on the content as it is. */
export const INFERENCE_LOCATIONS = ['local', 'private_nodes', 'public_redacted', 'public'] as const;
export type InferenceLocation = (typeof INFERENCE_LOCATIONS)[number];

export const INFERENCE: Readonly<Record<InferencePolicy, number>> = {
  local_only: 0b0001,
  private_nodes: 0b0011,
  public_with_redaction: 0b0111,
  public_allowed: 0b1111,
};

/** Training operations: where (this node, the tenant's nodes, anywhere) × on what (the content as
 * it is, an anonymized form of content whose owner opted in). */
export const TRAINING_LOCATIONS = ['local', 'tenant', 'anywhere'] as const;
export type TrainingLocation = (typeof TRAINING_LOCATIONS)[number];
export const TRAINING_FORMS = ['raw', 'anonymized'] as const;
export type TrainingForm = (typeof TRAINING_FORMS)[number];

/** The bit of one training operation. */
export function trainingBit(location: TrainingLocation, form: TrainingForm): number {
  return 1 << (TRAINING_LOCATIONS.indexOf(location) * 2 + TRAINING_FORMS.indexOf(form));
}

const LOCAL = trainingBit('local', 'raw') | trainingBit('local', 'anonymized');
const TENANT = trainingBit('tenant', 'raw') | trainingBit('tenant', 'anonymized');
const ANONYMIZED =
  trainingBit('local', 'anonymized') |
  trainingBit('tenant', 'anonymized') |
  trainingBit('anywhere', 'anonymized');

/** `anonymized_opt_in` is not nested with `local_only` or `tenant_only`: their intersections
 * (anonymized training on this node, or in the tenant) have no value in the schema. */
export const TRAINING: Readonly<Record<TrainingPolicy, number>> = {
  prohibited: 0,
  local_only: LOCAL,
  tenant_only: LOCAL | TENANT,
  anonymized_opt_in: ANONYMIZED,
  allowed: 0b111111,
};

/** Export operations: with an approval, without one. */
export const EXPORT_OPERATIONS = ['with_approval', 'without_approval'] as const;
export type ExportOperation = (typeof EXPORT_OPERATIONS)[number];

export const EXPORT: Readonly<Record<ExportPolicy, number>> = {
  prohibited: 0b00,
  approval_required: 0b01,
  allowed: 0b11,
};

/** The value whose permitted set is exactly `bits`, or undefined when no value is. */
export function valuePermitting<P extends string>(
  table: Readonly<Record<P, number>>,
  bits: number,
): P | undefined {
  for (const value in table) if (table[value] === bits) return value;
  return undefined;
}

/** The bit of a member of an ordered list of destinations, locations or operations. */
export function bitOf<T extends string>(list: readonly T[], member: T): number {
  return 1 << list.indexOf(member);
}
