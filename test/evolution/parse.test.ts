import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assembleQualifiedEvent,
  COGNITIVE_ASSET_SCHEMA,
  parseCognitiveAsset,
  parseQualifiedEvent,
  QUALIFIED_EVENT_SCHEMA,
  type QualifiedEvent,
} from '../../src/evolution/index.js';
import { Keyring } from '../../src/trust/index.js';
import { tempDir } from '../helpers/runtime.js';
import { asset, draft, enterprisePrivate, userPrivate } from './assets.js';

let event: QualifiedEvent;
const ajv = new Ajv2020({ strict: true, allErrors: false });
const schemaAccepts = ajv.compile(QUALIFIED_EVENT_SCHEMA);
const assetSchemaAccepts = ajv.compile(COGNITIVE_ASSET_SCHEMA);

beforeAll(async () => {
  const { dir, cleanup } = tempDir();
  const keyring = await Keyring.init(dir);
  cleanup();
  const result = assembleQualifiedEvent(
    draft(),
    [asset('a:1', userPrivate('alice')), asset('a:2', enterprisePrivate('acme'))],
    { signer: keyring.signer() },
  );
  if (!result.ok) throw new Error(result.issues[0]!.message);
  event = JSON.parse(JSON.stringify(result.value));
});

const issue = (input: unknown) => {
  const result = parseQualifiedEvent(input);
  return result.ok ? 'OK' : `${result.issues[0]!.code} ${result.issues[0]!.path}`;
};
const without = (key: string) => {
  const copy: Record<string, unknown> = { ...event };
  delete copy[key];
  return copy;
};

describe('parseQualifiedEvent: the schema version', () => {
  it('reads the version this build writes, and every member the spec names', () => {
    const result = parseQualifiedEvent(event);
    expect(result.ok && result.value.version).toEqual({ major: 1, minor: 0 });
    for (const key of [
      'schema_version',
      'event_id',
      'request_id',
      'session_id',
      'event_type',
      'source_assets',
      'source_policy_hashes',
      'model_and_expert_versions',
      'adaptive_artifact_refs',
      'policy_hash',
      'tenant_scope',
      'owner_id',
      'creator',
      'source_node',
      'privacy_scope',
      'privacy_boundary',
      'allowed_principals',
      'allowed_roles',
      'replication_policy',
      'inference_policy',
      'training_policy',
      'export_policy',
      'retention_policy',
      'policy_tags',
      'provenance',
      'outcome',
      'scores',
      'created_at',
      'signing_identity',
      'signature',
    ]) {
      expect(event, key).toHaveProperty(key);
      expect(QUALIFIED_EVENT_SCHEMA.properties, key).toHaveProperty(key);
    }
  });

  it('refuses a wrong schema version with its reason', () => {
    const cases: [unknown, RegExp][] = [
      ['gcs.qualified-cognitive-event.v2', /major 2 is another decoding contract/],
      ['gcs.qualified-cognitive-event.v1.0', /is not spelled/],
      ['gcs.qualified-cognitive-event.v01', /is not spelled/],
      ['tcp-ap/conformance-event', /is not a gcs.qualified-cognitive-event version/],
      [1, /is not a gcs.qualified-cognitive-event version/],
      [undefined, /is required/],
    ];
    for (const [version, reason] of cases) {
      const result = parseQualifiedEvent({ ...event, schema_version: version });
      expect(result.ok, String(version)).toBe(false);
      if (result.ok) continue;
      expect(result.issues[0]!.code).toBe('UNSUPPORTED_SCHEMA_VERSION');
      expect(result.issues[0]!.message).toMatch(reason);
      expect(schemaAccepts({ ...event, schema_version: version })).toBe(false);
    }
  });

  it('admits unknown members only under a newer minor, and keeps them', () => {
    expect(issue({ ...event, extra: 1 })).toBe('INVALID_QUALIFIED_EVENT extra');
    expect(schemaAccepts({ ...event, extra: 1 })).toBe(false);
    const newer = {
      ...event,
      schema_version: 'gcs.qualified-cognitive-event.v1.2',
      extra: { a: 1 },
    };
    const result = parseQualifiedEvent(newer);
    expect(result.ok && result.value.extensions).toEqual(['extra']);
    expect(result.ok && (result.value.event as unknown as { extra: unknown }).extra).toEqual({
      a: 1,
    });
    expect(schemaAccepts(newer)).toBe(true);
    expect(issue({ ...newer, extra: Number.NaN })).toBe('INVALID_QUALIFIED_EVENT extra');
  });

  it('calls an event without signature or signing identity unsigned', () => {
    expect(issue(without('signature'))).toBe('EVENT_UNSIGNED signature');
    expect(issue(without('signing_identity'))).toBe('EVENT_UNSIGNED signing_identity');
  });
});

describe('parseQualifiedEvent: every field is hostile input', () => {
  const refused: [string, unknown, string][] = [
    ['event_id', 'not-a-uuid', 'event_id'],
    ['event_id', '0F8B6C2E-3D4A-4B5C-8D6E-7F8091A2B3C4', 'event_id'],
    ['event_type', 'gossip', 'event_type'],
    ['source_assets', [], 'source_assets'],
    ['source_assets', ['a:2', 'a:1'], 'source_assets[1]'],
    ['source_assets', ['a:1', 'a:1'], 'source_assets[1]'],
    ['source_policy_hashes', ['sha256:00'], 'source_policy_hashes[0]'],
    ['policy_hash', 'md5:00', 'policy_hash'],
    ['creator', 'root', 'creator'],
    ['privacy_scope', 'secret', 'privacy_scope'],
    ['privacy_scope', 'public', 'privacy_boundary'],
    [
      'privacy_boundary',
      {
        constraints: [
          { kind: 'user', id: 'alice' },
          { kind: 'enterprise', id: 'acme' },
        ],
      },
      'privacy_boundary.constraints[1]',
    ],
    [
      'privacy_boundary',
      { constraints: [{ kind: 'planet', id: 'earth' }] },
      'privacy_boundary.constraints[0].kind',
    ],
    ['allowed_principals', [], 'allowed_principals'],
    ['allowed_principals', ['*', 'alice'], 'allowed_principals'],
    ['allowed_roles', ['owner', 'analyst'], 'allowed_roles[1]'],
    ['replication_policy', 'everywhere', 'replication_policy'],
    ['training_policy', 'sometimes', 'training_policy'],
    ['retention_policy', 'forever', 'retention_policy'],
    ['retention_policy', 'expires-at:-1', 'retention_policy'],
    ['policy_tags', ['has space'], 'policy_tags[0]'],
    ['provenance', { derived_from: [], execution_claims: [] }, 'provenance.verification_results'],
    ['outcome', [1, 2], 'outcome'],
    ['outcome', { x: Number.POSITIVE_INFINITY }, 'outcome.x'],
    ['outcome', { x: '\ud800' }, 'outcome.x'],
    ['scores', { confidence: 1.5 }, 'scores.confidence'],
    ['scores', { happiness: 1 }, 'scores.happiness'],
    ['created_at', 1.5, 'created_at'],
    ['created_at', -1, 'created_at'],
    ['signing_identity', 'alice', 'signing_identity'],
    ['signature', 'short', 'signature'],
    ['adaptive_artifact_refs', { capability: 'dream' }, 'adaptive_artifact_refs.capability'],
    ['adaptive_artifact_refs', { secret: 'x' }, 'adaptive_artifact_refs.secret'],
    ['replay', { seeds: [1.5] }, 'replay.seeds[0]'],
    ['session_id', 'yesterday', 'session_id'],
  ];

  it('names the first field at fault', () => {
    for (const [key, value, path] of refused) {
      expect(issue({ ...event, [key]: value }), `${key} = ${JSON.stringify(value)}`).toBe(
        `INVALID_QUALIFIED_EVENT ${path}`,
      );
    }
    expect(issue(null)).toBe('INVALID_QUALIFIED_EVENT ');
    expect(issue([event])).toBe('INVALID_QUALIFIED_EVENT ');
    expect(issue(without('outcome'))).toBe('INVALID_QUALIFIED_EVENT outcome');
  });

  it('agrees with the JSON Schema wherever the schema can say it', () => {
    expect(schemaAccepts(event)).toBe(true);
    const schemaCannotSay = new Set([
      'source_assets[1]',
      'privacy_boundary',
      'privacy_boundary.constraints[1]',
      'allowed_principals',
      'allowed_roles[1]',
      'outcome.x',
    ]);
    for (const [key, value, path] of refused) {
      if (schemaCannotSay.has(path)) continue;
      expect(schemaAccepts({ ...event, [key]: value }), `${key} = ${JSON.stringify(value)}`).toBe(
        false,
      );
    }
    expect(schemaAccepts(without('outcome'))).toBe(false);
    expect(schemaAccepts(without('signature'))).toBe(false);
  });
});

describe('parseCognitiveAsset', () => {
  it('reads an asset, normalising its sets, and agrees with its schema', () => {
    const raw = asset(
      'a:1',
      enterprisePrivate('acme', { allowed_principals: ['carol', 'alice', 'alice'] }),
    );
    const result = parseCognitiveAsset(raw);
    expect(result.ok && result.value.governance.allowed_principals).toEqual(['alice', 'carol']);
    expect(assetSchemaAccepts(raw)).toBe(true);
  });

  it('refuses a malformed asset, naming the field', () => {
    const code = (input: unknown) => {
      const result = parseCognitiveAsset(input);
      return result.ok ? 'OK' : `${result.issues[0]!.code} ${result.issues[0]!.path}`;
    };
    const good = asset('a:1', userPrivate('alice'));
    expect(code({ ...good, asset_kind: 'rumour' })).toBe('INVALID_ASSET asset_kind');
    expect(
      code({ ...good, governance: { ...good.governance, privacy_boundary: { constraints: [] } } }),
    ).toBe('INVALID_ASSET governance.privacy_boundary');
    expect(
      code({
        ...good,
        governance: { ...good.governance, declassification: [{ transformation: 'leak' }] },
      }),
    ).toBe('INVALID_ASSET governance.declassification[0].ceiling');
    expect(code({ ...good, asset_kind: 'declassified' })).toBe('INVALID_ASSET declassified_from');
    expect(code({ ...good, journal_ref: { project: 'p', seq: 0, hash: good.content_hash } })).toBe(
      'INVALID_ASSET journal_ref.seq',
    );
    expect(assetSchemaAccepts({ ...good, asset_kind: 'rumour' })).toBe(false);
  });
});
