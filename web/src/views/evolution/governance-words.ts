/**
 * What each governance value permits, in words (GCS "Governance Resolution"; the sets are those of
 * src/evolution/permitted-sets.ts). A value the workbench does not know is shown as it is.
 */

const SCOPES: Readonly<Record<string, string>> = {
  local_only: 'local only',
  user_private: 'private to a user',
  trusted_devices: "the owner's trusted devices",
  enterprise_private: 'private to an enterprise',
  tenant_private: 'private to a tenant',
  shared: 'shared within its boundary',
  public: 'public',
  compound: 'compound: the sources differ; only the constraints decide',
};

const REPLICATION: Readonly<Record<string, string>> = {
  none: 'never replicated',
  trusted_devices: 'to trusted devices only',
  private_subnet: 'to trusted devices and the private subnet',
  tenant_nodes: "up to the tenant's nodes",
  public_swarm: 'anywhere, the public swarm included',
};

const INFERENCE: Readonly<Record<string, string>> = {
  local_only: 'on this node only',
  private_nodes: 'on this node and private nodes',
  public_with_redaction: 'on private nodes, and on public nodes in a redacted form',
  public_allowed: 'anywhere, public nodes included',
};

const TRAINING: Readonly<Record<string, string>> = {
  prohibited: 'never trained on',
  local_only: 'on this node only',
  tenant_only: "on this node and the tenant's nodes",
  anonymized_opt_in: 'only an anonymized form, where its owner opted in',
  allowed: 'anywhere',
};

const EXPORT: Readonly<Record<string, string>> = {
  prohibited: 'never exported',
  approval_required: 'only with an approval',
  allowed: 'with or without an approval',
};

const said = (table: Readonly<Record<string, string>>, value: string): string =>
  value === '' ? 'not stated' : (table[value] ?? value);

export const scopeWords = (v: string) => said(SCOPES, v);
export const replicationWords = (v: string) => said(REPLICATION, v);
export const inferenceWords = (v: string) => said(INFERENCE, v);
export const trainingWords = (v: string) => said(TRAINING, v);
export const exportWords = (v: string) => said(EXPORT, v);

/** `*` alone is anyone; otherwise the names, or "no one" for an empty set. */
export function setWords(values: readonly string[], anyone: string): string {
  if (values.length === 1 && values[0] === '*') return anyone;
  return values.length === 0 ? 'no one' : values.join(', ');
}

/** `indefinite`, `expires-at:<ms>` or `ref:<rule id>`, in words. */
export function retentionWords(value: string): string {
  if (value === 'indefinite') return 'kept indefinitely';
  const at = /^expires-at:(\d{1,15})$/.exec(value);
  if (at) return `until ${new Date(Number(at[1])).toISOString()}`;
  if (value.startsWith('ref:')) return `as the rule ${value.slice(4)} says`;
  return value === '' ? 'not stated' : value;
}
