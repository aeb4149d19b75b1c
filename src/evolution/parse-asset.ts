import { fail, ok, type Result } from '../core/index.js';
import {
  ASSET_KINDS,
  type CognitiveAsset,
  type DeclassificationRecord,
  type JournalRef,
  type Provenance,
} from './asset-types.js';
import { DECLASSIFICATIONS } from './governance-types.js';
import type { EvolutionIssue } from './issues.js';
import { readPolicy } from './parse-governance.js';
import {
  FieldError,
  hash,
  id,
  idSet,
  join,
  knownKeys,
  oneOf,
  optionalId,
  record,
  timestamp,
} from './read-fields.js';

const ASSET_KEYS = new Set([
  'asset_id',
  'asset_kind',
  'content_hash',
  'created_at',
  'source_node',
  'tenant_scope',
  'owner_id',
  'journal_ref',
  'governance',
  'provenance',
  'declassified_from',
]);
const PROVENANCE_KEYS = new Set(['derived_from', 'execution_claims', 'verification_results']);
const REF_KEYS = new Set(['project', 'seq', 'hash']);
const RECORD_KEYS = new Set(['asset_id', 'policy_hash', 'transformation', 'approved_by']);

/**
 * Reads a cognitive asset as untrusted input: every field checked, sets sorted and deduplicated.
 * `INVALID_ASSET` names the first field at fault.
 */
export function parseCognitiveAsset(input: unknown): Result<CognitiveAsset, EvolutionIssue> {
  try {
    return ok(readAsset(input));
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return fail({
      code: 'INVALID_ASSET',
      message: `${error.path}: ${error.message}`,
      path: error.path,
    });
  }
}

function readAsset(input: unknown): CognitiveAsset {
  const a = record(input, '');
  knownKeys(a, ASSET_KEYS, '');
  const asset: CognitiveAsset = {
    asset_id: id(a.asset_id, 'asset_id'),
    asset_kind: oneOf(a.asset_kind, ASSET_KINDS, 'asset_kind'),
    content_hash: hash(a.content_hash, 'content_hash'),
    created_at: timestamp(a.created_at, 'created_at'),
    governance: readPolicy(a.governance, 'governance'),
    provenance: readProvenance(a.provenance, 'provenance', false),
  };
  const source_node = optionalId(a.source_node, 'source_node');
  const tenant_scope = optionalId(a.tenant_scope, 'tenant_scope');
  const owner_id = optionalId(a.owner_id, 'owner_id');
  const journal_ref = a.journal_ref === undefined ? undefined : readRef(a.journal_ref);
  const declassified_from =
    a.declassified_from === undefined ? undefined : readRecord(a.declassified_from);
  if ((asset.asset_kind === 'declassified') !== (declassified_from !== undefined)) {
    throw new FieldError(
      'declassified_from',
      'a declassified asset, and only one, records what it was declassified from',
    );
  }
  return {
    ...asset,
    ...(source_node === undefined ? {} : { source_node }),
    ...(tenant_scope === undefined ? {} : { tenant_scope }),
    ...(owner_id === undefined ? {} : { owner_id }),
    ...(journal_ref === undefined ? {} : { journal_ref }),
    ...(declassified_from === undefined ? {} : { declassified_from }),
  };
}

/** Provenance references; `canonical` as for governance sets. */
export function readProvenance(value: unknown, path: string, canonical: boolean): Provenance {
  const p = record(value, path);
  knownKeys(p, PROVENANCE_KEYS, path);
  return {
    derived_from: idSet(p.derived_from, join(path, 'derived_from'), canonical),
    execution_claims: idSet(p.execution_claims, join(path, 'execution_claims'), canonical),
    verification_results: idSet(
      p.verification_results,
      join(path, 'verification_results'),
      canonical,
    ),
  };
}

function readRef(value: unknown): JournalRef {
  const r = record(value, 'journal_ref');
  knownKeys(r, REF_KEYS, 'journal_ref');
  if (!Number.isSafeInteger(r.seq) || (r.seq as number) < 1) {
    throw new FieldError('journal_ref.seq', 'must be a positive integer');
  }
  return {
    project: id(r.project, 'journal_ref.project'),
    seq: r.seq as number,
    hash: hash(r.hash, 'journal_ref.hash'),
  };
}

function readRecord(value: unknown): DeclassificationRecord {
  const r = record(value, 'declassified_from');
  knownKeys(r, RECORD_KEYS, 'declassified_from');
  return {
    asset_id: id(r.asset_id, 'declassified_from.asset_id'),
    policy_hash: hash(r.policy_hash, 'declassified_from.policy_hash'),
    transformation: oneOf(r.transformation, DECLASSIFICATIONS, 'declassified_from.transformation'),
    approved_by: id(r.approved_by, 'declassified_from.approved_by'),
  };
}
