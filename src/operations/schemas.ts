import {
  ACCEPTANCE_STATES,
  CLAIM_ID,
  CLAIM_STATES,
  COMPARISON_CHECKS,
  CONFIDENCE_STATES,
  EFFECTIVE_STATES,
  MESSAGE_ID,
  MESSAGE_VISIBILITIES,
  OBJECT_ID,
  OBJECT_STATUSES,
  OBJECT_TYPES,
  PROPOSAL_INTENTS,
  PROVENANCE_DEPENDENTS,
  PROVENANCE_HISTORY,
  ROLES,
  STAKES,
  VISIBILITIES,
} from '../canon/index.js';
import { ERROR_CODES, type JsonObject } from '../core/index.js';
import { RELAY_SCHEMAS } from './relay-schemas.js';

/**
 * JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of what canonry's operations take and answer.
 * A body schema is the one description of an input: the OpenAPI request body, the checks every face
 * runs (`check-body.ts`), the CLI's options and the MCP tool's input schema. `x-error-code` on a
 * property names the code its failure is refused with.
 */

/** A well-formed hash for examples. */
export const EXAMPLE_HASH = `sha256:${'0'.repeat(64)}`;

/** A reference to a component schema. */
export const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });

const str = (extra: JsonObject = {}): JsonObject => ({ type: 'string', ...extra });
const arr = (items: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: 'array',
  items,
  ...extra,
});
const obj = (
  properties: Record<string, JsonObject>,
  required: readonly string[] = [],
  extra: JsonObject = {},
): JsonObject => ({ type: 'object', properties, required: [...required], ...extra });
const hash = str({ pattern: '^sha256:[0-9a-f]{64}$' });
const nullable = (schema: JsonObject): JsonObject => ({ oneOf: [schema, { type: 'null' }] });
const closed = { additionalProperties: false };
/** An RFC 3339 date or date-time with offset, or null (LCSM §2 effective windows). */
const rfc3339: JsonObject = {
  anyOf: [str({ format: 'date' }), str({ format: 'date-time' }), { type: 'null' }],
};

const principal = obj({ id: str(), project: str(), role: { enum: [...ROLES] } }, [
  'id',
  'project',
  'role',
]);

const sourceRef = obj(
  {
    message_id: str({ maxLength: 100 }),
    span: arr({ type: 'integer', minimum: 0 }, { minItems: 2, maxItems: 2 }),
    quote: str({ maxLength: 10_000 }),
  },
  ['message_id', 'span', 'quote'],
  closed,
);

const noteContent = obj(
  {
    object_type: { enum: [...OBJECT_TYPES] },
    title: str({ minLength: 1, maxLength: 200 }),
    text: str({ minLength: 1, maxLength: 10_000 }),
    shape: {},
    confidence_state: { enum: [...CONFIDENCE_STATES], default: 'asserted' },
    status: { enum: [...OBJECT_STATUSES], default: 'active' },
    visibility: {
      enum: [...VISIBILITIES],
      default: 'project',
      description:
        "LCSM §14 plane: personal is its proposer's alone; project, working and procedural are shared. Left out, an existing object keeps its own",
    },
    sources: arr(ref('SourceRef'), { maxItems: 50 }),
    dependency_refs: arr(
      { oneOf: [str(), ref('DependencyPin')] },
      {
        maxItems: 100,
        description:
          'what the note rests on: an object id (pinned to its current version when the proposal is made) or { object_id, version_hash }, the exact version it was made against. Stored as ids, with the pins in dependency_versions',
      },
    ),
    dependency_versions: arr(ref('DependencyPin'), {
      readOnly: true,
      description:
        'the exact version of each dependency the note was made against (set by canon; versions committed before pins existed lack it)',
    }),
    effective_from: { ...rfc3339, description: 'a date (2026-01-31) or a date-time with offset' },
    effective_until: rfc3339,
    tags: arr(str({ pattern: '^[a-z][a-z0-9_-]{0,31}$' }), { maxItems: 20 }),
  },
  ['object_type', 'title', 'text'],
  closed,
);

const checkResult = obj({ result: { type: 'boolean' }, detail: str(), items: arr(str()) }, [
  'result',
  'detail',
]);

const checks = obj(Object.fromEntries(COMPARISON_CHECKS.map((k) => [k, ref('CheckResult')])));

const noteSide = obj({
  version_hash: nullable(str()),
  content: nullable(ref('NoteContent')),
  authority: nullable(obj({ principal: str(), role: str() })),
});

const gateVerdict = obj(
  {
    label: { enum: ['AUTO_COMMIT', 'REQUIRE_CONFIRMATION', 'HARD_STOP', 'REJECT'] },
    protocol_hash: hash,
    input_hash: hash,
    event: { description: 'the signed TCP/AP conformance event', type: ['object', 'null'] },
    event_hash: nullable(hash),
  },
  ['label', 'protocol_hash', 'input_hash', 'event', 'event_hash'],
);

const proposalRecord = obj(
  {
    proposal_id: str(),
    object_id: str(),
    intent: { enum: [...PROPOSAL_INTENTS] },
    base_version: nullable(hash),
    candidate: ref('NoteContent'),
    supersedes: arr(str()),
    restore_version: nullable(hash),
    message_id: nullable(str()),
    rationale: nullable(str()),
    classifier: nullable(str()),
    proposer: ref('Principal'),
    comparison: obj(
      {
        current: ref('NoteSide'),
        candidate: ref('NoteSide'),
        checks: ref('ComparisonChecks'),
        stakes: { enum: [...STAKES] },
      },
      ['current', 'candidate', 'checks', 'stakes'],
    ),
    gate: ref('GateVerdict'),
    required_role: {
      ...nullable({ enum: [...ROLES] }),
      description: 'who must approve it now; null unless it is pending and held back',
    },
    approval_role: {
      ...nullable({ enum: [...ROLES] }),
      description: 'the role the gate asked to approve it, kept after it closes',
    },
    approval_requires_base: {
      ...nullable(hash),
      description:
        'after canon moved and it was compared again: the base_version an approval must name',
    },
    status: { enum: ['pending', 'committed', 'rejected'] },
    decided_by: nullable(ref('Principal')),
    reason: nullable(str()),
    claim: obj(
      {
        statement: str(),
        sources: arr(ref('SourceRef')),
        confidence_state: { enum: [...CONFIDENCE_STATES] },
      },
      ['statement', 'sources', 'confidence_state'],
      {
        description:
          'dispute: the competing claim (the candidate keeps the disputed statement, status disputed)',
      },
    ),
    claim_id: str({ pattern: CLAIM_ID.source, description: 'resolve: the claim that stands' }),
    seq: { type: 'integer' },
  },
  ['proposal_id', 'object_id', 'intent', 'status', 'comparison', 'gate', 'proposer'],
);

const claimHolder = obj(
  {
    principal: obj({ id: str(), role: { enum: [...ROLES] } }, ['id', 'role']),
    approver: nullable(obj({ id: str(), role: { enum: [...ROLES] } }, ['id', 'role'])),
    confidence_state: { enum: [...CONFIDENCE_STATES] },
    sources: arr(ref('SourceRef')),
    gate: nullable(str()),
    gate_event: nullable(hash),
    proposal_id: nullable(str()),
    version_id: { type: 'integer', description: 'the version that recorded this holder' },
    receipt_ref: nullable(
      str({ description: "that version's entry; null only inside that version itself" }),
    ),
  },
  ['principal', 'approver', 'sources', 'gate', 'version_id', 'receipt_ref'],
);

const claim = obj(
  {
    claim_id: str({ pattern: CLAIM_ID.source }),
    statement: str(),
    state: {
      enum: [...CLAIM_STATES],
      description:
        'open while disputed; stands or set_aside once resolved; collapsed when settled without a resolution',
    },
    opened_in: { type: 'integer', description: 'the version that opened this dispute' },
    holders: arr(ref('ClaimHolder')),
  },
  ['claim_id', 'statement', 'state', 'opened_in', 'holders'],
  { description: 'one competing statement of a disputed object (LCSM §15), listed once' },
);

const disputeResolution = obj(
  {
    claim_id: str({ pattern: CLAIM_ID.source }),
    statement: str(),
    rationale: str(),
    set_aside: arr(str()),
  },
  ['claim_id', 'statement', 'rationale', 'set_aside'],
);

const noteVersion = obj(
  {
    note_id: str(),
    version_id: { type: 'integer', minimum: 1 },
    parent_version_hash: nullable(hash),
    content: ref('NoteContent'),
    shape: {},
    sources: arr(ref('SourceRef')),
    actor: str(),
    authority: { type: 'object' },
    timestamp: str({ format: 'date-time' }),
    receipt_ref: str(),
    version_hash: hash,
    claims: arr(ref('Claim'), { description: 'the competing claims while disputed (LCSM §15)' }),
    resolution: ref('DisputeResolution'),
  },
  ['note_id', 'version_id', 'parent_version_hash', 'content', 'actor', 'authority', 'version_hash'],
);

const canonObject = obj(
  {
    object_id: str(),
    object_type: { enum: [...OBJECT_TYPES] },
    schema_version: { const: 1 },
    current_version_ref: hash,
    version_id: { type: 'integer' },
    authority_basis: { type: 'object' },
    confidence_state: { enum: [...CONFIDENCE_STATES] },
    visibility: { enum: [...VISIBILITIES] },
    source_refs: arr(ref('SourceRef')),
    dependency_refs: arr(str()),
    created_at: str(),
    effective_from: nullable(str()),
    effective_until: nullable(str()),
    status: { enum: [...OBJECT_STATUSES] },
    title: str(),
    text: str(),
    superseded_by: nullable(str()),
  },
  ['object_id', 'object_type', 'current_version_ref', 'version_id', 'status', 'text'],
);

const effective = {
  enum: [...EFFECTIVE_STATES],
  description:
    'the object against its effective window [effective_from, effective_until) at the server clock (LCSM §2); only in_effect is current canon',
};

const dependencyPin = obj({ object_id: str(), version_hash: hash }, ['object_id', 'version_hash'], {
  additionalProperties: false,
});

const dependencyState = obj(
  {
    id: str(),
    kind: { enum: ['note', 'artifact'] },
    depth: { type: 'integer', minimum: 1 },
    state: {
      enum: [
        'needs_revision',
        'possibly_stale',
        'definitely_stale',
        'requires_regeneration',
        'requires_human_review',
      ],
    },
    cause: str({ description: 'e.g. "storage.engine moved v1 → v2 (through decision.db)"' }),
    path: arr(str(), {
      description: 'the object that moved, then each dependent down to this one',
    }),
  },
  ['id', 'kind', 'depth', 'state', 'cause', 'path'],
  {
    description:
      'what a cascade left on a dependent when something it rests on moved (LCSM §10, CRP-030 §3); a new version of it made against current canon clears it',
  },
);

const boardObject = {
  allOf: [
    ref('CanonObject'),
    obj(
      {
        effective: ref('EffectiveState'),
        claims: arr(ref('Claim'), { description: "a disputed object's open claims" }),
        dependency_state: nullable(ref('DependencyState')),
      },
      ['effective', 'dependency_state'],
    ),
  ],
};

const receipt = obj(
  {
    receipt_id: str(),
    request_ref: str(),
    prior_state_ref: obj({ seq: { type: 'integer' }, hash }),
    result_state_ref: obj({ seq: { type: 'integer' }, hash }),
    checks: arr(obj({ name: str(), result: str(), detail: str() })),
    warnings: arr(str()),
    uncertainty: nullable(str()),
    affected_dependents: arr({
      oneOf: [
        str(),
        obj(
          {
            id: str(),
            kind: { enum: ['note', 'artifact'] },
            depth: { type: 'integer', minimum: 1 },
            state: str(),
            cause: str(),
          },
          ['id', 'kind', 'depth', 'state', 'cause'],
        ),
      ],
    }),
    rollback_route: str(),
    acceptance_state: { enum: ['accepted', 'provisional', 'rejected'] },
    hash_chain_parent: hash,
    receipt_hash: hash,
  },
  ['receipt_id', 'checks', 'acceptance_state', 'receipt_hash'],
);

const archivedMessage = obj(
  {
    message_id: str(),
    project: str(),
    text: str(),
    role: { enum: ['user', 'assistant', 'agent', 'tool', 'system'] },
    actor: str(),
    actor_role: { enum: [...ROLES] },
    captured_at: str(),
    visibility: {
      enum: [...MESSAGE_VISIBILITIES],
      description: 'personal: only its actor reads or cites it (LCSM §14)',
    },
    seq: { type: 'integer' },
  },
  ['message_id', 'text', 'role', 'actor', 'actor_role', 'visibility', 'seq'],
);

const classification = obj(
  {
    outcome: str(),
    touched: arr(str()),
    drafts: arr({ type: 'object' }),
    rationale: str(),
    classifier: str(),
  },
  ['outcome', 'touched', 'drafts', 'rationale', 'classifier'],
);

const unclassifiedMessage = obj(
  {
    message: ref('ArchivedMessage'),
    failure: nullable(
      obj(
        {
          message_id: str(),
          code: { enum: ['MODEL_UNAVAILABLE', 'MODEL_BUSY', 'CLASSIFIER_FAILED'] },
          detail: str({ maxLength: 300 }),
          issues: arr(str({ maxLength: 160 }), { maxItems: 5 }),
          classifier: str(),
          at: str(),
          seq: { type: 'integer' },
          attempts: { type: 'integer', minimum: 1 },
        },
        ['message_id', 'code', 'detail', 'issues', 'classifier', 'at', 'seq', 'attempts'],
      ),
    ),
  },
  ['message', 'failure'],
);

const classifierView = obj(
  {
    kind: { enum: ['scripted', 'model'] },
    model: nullable(str()),
    subjects: { type: 'integer', minimum: 0 },
    source: { enum: ['default', 'api', 'file'] },
    seq: nullable({ type: 'integer' }),
    config: {
      type: 'object',
      description: 'the scripted classifier configuration (subjects, rules, derive_ids)',
    },
  },
  ['kind', 'model', 'subjects', 'source', 'seq', 'config'],
);

const proposalOutcome = obj(
  {
    proposal: ref('ProposalRecord'),
    committed: nullable(ref('NoteVersion')),
    receipt: ref('Receipt'),
  },
  ['proposal', 'committed', 'receipt'],
);

/** The fields an artifact registration sends; the manifest adds its version. */
const artifactFields = {
  artifact_id: str({ pattern: OBJECT_ID.source }),
  title: str({ maxLength: 200 }),
  input_refs: arr(str(), { maxItems: 100 }),
  canonical_note_versions: arr(
    obj({ object_id: str(), version_hash: hash }, ['object_id', 'version_hash'], closed),
    { minItems: 1, maxItems: 100 },
  ),
  tool_or_model_refs: arr(str(), { maxItems: 100 }),
  output_digest: hash,
  verification_refs: arr(str(), { maxItems: 100 }),
  acceptance_state: { enum: [...ACCEPTANCE_STATES] },
};

const artifactManifest = obj(
  { ...artifactFields, artifact_version: { type: 'integer', minimum: 1 } },
  [
    'artifact_id',
    'artifact_version',
    'canonical_note_versions',
    'output_digest',
    'acceptance_state',
  ],
);

const artifactStatus = obj(
  {
    manifest: ref('ArtifactManifest'),
    state: {
      enum: [
        'current',
        'possibly_stale',
        'definitely_stale',
        'unaffected',
        'requires_regeneration',
        'requires_human_review',
      ],
    },
    reasons: arr(str()),
  },
  ['manifest', 'state', 'reasons'],
);

const workingNote = obj({
  object_id: str(),
  object_type: str(),
  version_id: { type: 'integer' },
  status: str(),
  confidence: str(),
  title: str(),
  text: str(),
  authority: str(),
  sources: arr(ref('SourceRef')),
});

const workingSet = obj(
  {
    project: str(),
    objective: nullable(str()),
    notes: arr(ref('WorkingNote')),
    policies: arr(ref('WorkingNote')),
    dependencies: arr(ref('WorkingNote')),
    prior_mutations: arr({ type: 'object' }),
    contradictions: arr({ type: 'object' }),
    uncertainty: arr(ref('WorkingNote')),
    disputes: arr(
      obj(
        {
          object_id: str(),
          object_type: str(),
          version_id: { type: 'integer' },
          title: str(),
          claims: arr(
            obj(
              {
                claim_id: nullable(str()),
                statement: str(),
                held_by: arr(
                  obj(
                    {
                      principal: str(),
                      role: str(),
                      confidence_state: str(),
                      sources: arr(ref('SourceRef')),
                    },
                    ['principal', 'role', 'confidence_state', 'sources'],
                  ),
                ),
              },
              ['claim_id', 'statement', 'held_by'],
            ),
          ),
        },
        ['object_id', 'object_type', 'version_id', 'title', 'claims'],
      ),
      {
        description:
          'disputed objects, each once with its competing claims and who holds which; none is current canon (LCSM §15)',
      },
    ),
    artifacts: arr({ type: 'object' }),
    excluded: { type: 'integer', description: 'superseded or retired objects left out' },
    expired: { type: 'integer', description: 'objects left out because their window has ended' },
    not_yet_effective: {
      type: 'integer',
      description: 'objects left out because their window has not begun',
    },
    lapsed_dependencies: arr(
      obj(
        {
          object_id: str(),
          depends_on: str(),
          effective: { enum: ['expired', 'not_yet_effective'] },
          since: str(),
        },
        ['object_id', 'depends_on', 'effective', 'since'],
      ),
      { description: 'notes of the set that depend on an object out of effect' },
    ),
    needs_revision: arr(
      {
        allOf: [
          ref('WorkingNote'),
          obj({ cause: str(), depth: { type: 'integer', minimum: 1 }, path: arr(str()) }, [
            'cause',
            'depth',
            'path',
          ]),
        ],
      },
      {
        description:
          'notes of the set that rest on something that moved: taken out of notes, policies, dependencies and uncertainty, never shown as current canon',
      },
    ),
    capsule: str({ description: 'the prompt capsule a model reads instead of the transcript' }),
    tokens: { type: 'integer', description: 'tokens in the capsule' },
  },
  [
    'project',
    'notes',
    'excluded',
    'expired',
    'not_yet_effective',
    'lapsed_dependencies',
    'disputes',
    'needs_revision',
    'capsule',
    'tokens',
  ],
);

const graphNode = {
  oneOf: [
    obj(
      {
        kind: { const: 'note' },
        id: str({ description: '`note:<object_id>`' }),
        object_id: str(),
        object_type: str(),
        status: { enum: [...OBJECT_STATUSES] },
        title: str(),
        dependency_state: nullable(ref('DependencyState')),
        focus: { type: 'boolean' },
      },
      ['kind', 'id', 'object_id', 'object_type', 'status', 'title', 'dependency_state', 'focus'],
    ),
    obj({ kind: { const: 'unknown' }, id: str(), object_id: str() }, ['kind', 'id', 'object_id'], {
      description:
        'a dependency the focus names that the principal cannot read or that does not exist',
    }),
    obj(
      {
        kind: { const: 'artifact' },
        id: str({ description: '`artifact:<artifact_id>`' }),
        artifact: ref('ArtifactStatus'),
      },
      ['kind', 'id', 'artifact'],
    ),
  ],
};

const noteGraph = obj(
  {
    project: str(),
    object_id: str(),
    limit: { type: 'integer', minimum: 1 },
    nodes: arr(graphNode),
    edges: arr(obj({ from: str(), to: str() }, ['from', 'to']), {
      description: 'from what moves to what rests on it, by node id',
    }),
    omitted: {
      type: 'integer',
      minimum: 0,
      description:
        'dependents found but not drawn (a floor: each note reads at most limit + 1 dependents)',
    },
    truncated: {
      type: 'boolean',
      description: 'dependents were left out, or a note has more than were read',
    },
  },
  ['project', 'object_id', 'limit', 'nodes', 'edges', 'omitted', 'truncated'],
);

const provenance = obj(
  {
    object: ref('CanonObject'),
    effective: ref('EffectiveState'),
    depends_on: arr(
      obj(
        {
          object_id: str(),
          status: { enum: [...OBJECT_STATUSES, 'unknown'] },
          effective: nullable(ref('EffectiveState')),
        },
        ['object_id', 'status', 'effective'],
      ),
    ),
    dependency_state: nullable(ref('DependencyState')),
    made_against: arr(ref('DependencyPin')),
    why: obj({ statement: str(), confidence: str(), sources: arr({ type: 'object' }) }),
    current_since: obj({
      version_id: { type: 'integer' },
      timestamp: str(),
      receipt_ref: str(),
      receipt: nullable(ref('Receipt')),
    }),
    authorized_by: obj({
      proposer: nullable({ type: 'object' }),
      approver: nullable({ type: 'object' }),
      gate: nullable(str()),
      stakes: nullable(str()),
      gate_event: nullable(hash),
      gate_protocol: nullable(hash),
    }),
    replaced: obj({
      previous_version: nullable(ref('NoteVersion')),
      superseded_objects: arr(ref('CanonObject')),
    }),
    built_from_old: arr(obj({ artifact_id: str(), version_id: { type: 'integer' } })),
    stale_if_changed: obj(
      {
        artifacts: arr(ref('ArtifactStatus')),
        objects: arr(str()),
        cut: {
          type: 'boolean',
          description: `more notes or artifacts rest on it than listed (${PROVENANCE_DEPENDENTS} of each, in id order; built_from_old is of those artifacts): getObjectGraph reads on`,
        },
      },
      ['artifacts', 'objects', 'cut'],
    ),
    restorable: arr(
      obj({ version_id: { type: 'integer' }, version_hash: hash, timestamp: str(), text: str() }),
      { description: 'the versions of history but the current one: restore appends a copy' },
    ),
    epistemic: {
      enum: [
        'fact',
        'preference',
        'policy',
        'decision',
        'inference',
        'uncertainty',
        'dispute',
        'other',
      ],
    },
    claims: arr(ref('Claim'), {
      description: 'every claim its disputes have held, settled ones included',
    }),
    resolution: nullable(ref('DisputeResolution')),
    history: arr(ref('NoteVersion'), {
      description: `its latest versions, at most ${PROVENANCE_HISTORY}, oldest first (listVersions pages every one)`,
    }),
    versions: {
      type: 'integer',
      minimum: 1,
      description:
        'how many versions it has that the caller may read (more than history when long)',
    },
  },
  [
    'object',
    'effective',
    'depends_on',
    'why',
    'current_since',
    'authorized_by',
    'replaced',
    'built_from_old',
    'stale_if_changed',
    'restorable',
    'claims',
    'resolution',
    'epistemic',
    'history',
    'versions',
  ],
);

const proposalView = obj(
  {
    proposal_id: str(),
    object_id: str(),
    intent: str(),
    status: { enum: ['pending', 'committed', 'rejected'] },
    proposer: ref('Principal'),
    required_role: {
      ...nullable({ enum: [...ROLES] }),
      description: 'who must approve it now; null unless it is pending and held back',
    },
    approval_role: {
      ...nullable({ enum: [...ROLES] }),
      description: 'the role the gate asked to approve it, kept after it closes',
    },
    approved_by: {
      ...nullable(ref('Principal')),
      description: 'who approved it, when it committed on an approval',
    },
    approval_requires_base: {
      ...nullable(hash),
      description:
        'set after a re-comparison: approve with this base_version, having read current (what it would now overwrite)',
    },
    decided_by: nullable(ref('Principal')),
    reason: nullable(str()),
    rationale: nullable(str()),
    message_id: nullable(str()),
    classifier: nullable(str()),
    base_version: nullable(hash),
    current_version_now: nullable(hash),
    stale: { type: 'boolean', description: 'canon moved since the comparison' },
    current: ref('NoteSide'),
    candidate: ref('NoteSide'),
    claim: nullable(
      obj(
        {
          statement: str(),
          sources: arr(ref('SourceRef')),
          confidence_state: { enum: [...CONFIDENCE_STATES] },
        },
        ['statement', 'sources', 'confidence_state'],
      ),
    ),
    claim_id: nullable(str({ pattern: CLAIM_ID.source })),
    stakes: { enum: [...STAKES] },
    checks: ref('ComparisonChecks'),
    gate: {
      allOf: [
        ref('GateVerdict'),
        obj({
          verification: obj({
            ok: { type: 'boolean' },
            issue: {
              ...nullable(str()),
              description:
                'why it does not verify: the kernel code (CHAIN_INVALID, ISSUER_REVOKED, …), HASH_MISMATCH, or ISSUER_EXPIRED (it verifies at valid_at, when the proposal was recorded: ask with at)',
            },
            valid_at: str({
              format: 'date-time',
              description: 'with ISSUER_EXPIRED: an instant at which the verdict verifies',
            }),
          }),
        }),
      ],
    },
  },
  ['proposal_id', 'object_id', 'status', 'current', 'candidate', 'stakes', 'checks', 'gate'],
);

const tokenInfo = obj(
  {
    token_id: str(),
    project: str(),
    principal: str(),
    role: { enum: [...ROLES] },
    created_at: str(),
    revoked_at: nullable(str()),
  },
  ['token_id', 'project', 'principal', 'role', 'created_at', 'revoked_at'],
);

/** The error envelope every route but `POST /v1/validate` answers with. */
const errorEnvelope = obj(
  {
    error: obj(
      {
        code: { enum: Object.keys(ERROR_CODES) },
        message: str(),
        details: { type: 'object' },
      },
      ['code', 'message'],
    ),
  },
  ['error'],
);

/**
 * The TCP/AP §6 envelope of `POST /v1/validate`: `EVALUATED` for the three verdicts of §6 (200,
 * 400 INVALID_REQUEST, 422 INTERPRETATION_DRIFT), `REJECTED` for requests never evaluated (bad body,
 * unknown or invalid protocol, rate limit: docs/errors.md), so the two 400s cannot be confused.
 */
const validateEnvelope = obj(
  {
    status: { enum: ['EVALUATED', 'REJECTED'] },
    data: obj({ conformant: { type: 'boolean' }, label: { type: ['string', 'null'] } }, [
      'conformant',
      'label',
    ]),
    error: {
      oneOf: [
        { type: 'null' },
        obj({ failure_code: str(), message: str() }, ['failure_code', 'message']),
      ],
    },
    attestation: {
      description: 'the signed conformance event (conformant verdicts only), else null',
      oneOf: [{ type: 'null' }, { type: 'object' }],
    },
  },
  ['status', 'data', 'error', 'attestation'],
);

/** Every component schema, by name. */
export const SCHEMAS: Readonly<Record<string, JsonObject>> = {
  Error: errorEnvelope,
  ValidateEnvelope: validateEnvelope,
  Principal: principal,
  SourceRef: sourceRef,
  NoteContent: noteContent,
  CheckResult: checkResult,
  ComparisonChecks: checks,
  NoteSide: noteSide,
  GateVerdict: gateVerdict,
  ProposalRecord: proposalRecord,
  ProposalOutcome: proposalOutcome,
  ProposalView: proposalView,
  NoteVersion: noteVersion,
  Claim: claim,
  ClaimHolder: claimHolder,
  DisputeResolution: disputeResolution,
  CanonObject: canonObject,
  EffectiveState: effective,
  BoardObject: boardObject,
  DependencyPin: dependencyPin,
  DependencyState: dependencyState,
  Receipt: receipt,
  ArchivedMessage: archivedMessage,
  Classification: classification,
  UnclassifiedMessage: unclassifiedMessage,
  ClassifierView: classifierView,
  ArtifactManifest: artifactManifest,
  ArtifactStatus: artifactStatus,
  WorkingNote: workingNote,
  WorkingSet: workingSet,
  Provenance: provenance,
  NoteGraph: noteGraph,
  TokenInfo: tokenInfo,
  ...RELAY_SCHEMAS,
};

/** Request bodies. */
export const BODIES = {
  message: obj(
    {
      text: str({ minLength: 1, maxLength: 20_000 }),
      role: {
        enum: ['user', 'assistant', 'agent', 'tool', 'system'],
        description: 'who spoke (an agent may not speak as user or system); never authority',
      },
      message_id: str({ pattern: MESSAGE_ID.source }),
      visibility: {
        enum: [...MESSAGE_VISIBILITIES],
        default: 'project',
        description:
          'personal: only the sender reads it, only their personal notes cite it, and what intake drafts from it stays personal (LCSM §14)',
      },
    },
    ['text'],
    closed,
  ),
  proposal: obj(
    {
      object_id: str({ pattern: OBJECT_ID.source }),
      intent: {
        enum: [...PROPOSAL_INTENTS],
        description:
          'required. dispute: the candidate carries the competing claim (text, sources, confidence); the object keeps its statement. resolve: claim_id names the open claim that stands, the candidate states it, rationale is required',
      },
      base_version: nullable(hash),
      candidate: ref('NoteContent'),
      supersedes: arr(str(), { maxItems: 20 }),
      restore_version: hash,
      message_id: nullable(str({ maxLength: 100 })),
      rationale: str({ maxLength: 2_000 }),
      claim_id: str({ pattern: CLAIM_ID.source, description: 'resolve only' }),
    },
    ['object_id', 'intent', 'candidate'],
    {
      ...closed,
      description:
        'A ProposalInput; intent is required (no default).  Authority fields (actor, authority, role, principal, approved_by, approver, authorized_by) are refused with AUTHORITY_FROM_PAYLOAD.',
    },
  ),
  empty: obj({}, [], closed),
  approve: obj(
    {
      base_version: {
        ...nullable(hash),
        description:
          "the version the approver saw as current: optional on a first approval (then it must be the proposal's base_version), required after a re-comparison (the proposal's approval_requires_base)",
      },
    },
    [],
    closed,
  ),
  reject: obj({ reason: str({ minLength: 1, maxLength: 2_000 }) }, ['reason'], closed),
  restore: {
    ...obj(
      {
        version_hash: { ...hash, 'x-error-code': 'INVALID_HASH' },
        version: { type: 'integer', minimum: 1, description: 'the version number (version_id)' },
        rationale: str({ minLength: 1, maxLength: 2_000 }),
      },
      [],
      closed,
    ),
    oneOf: [{ required: ['version_hash'] }, { required: ['version'] }],
  },
  resolve: obj(
    {
      claim_id: str({ pattern: CLAIM_ID.source }),
      rationale: str({ minLength: 1, maxLength: 2_000 }),
    },
    ['claim_id', 'rationale'],
    closed,
  ),
  artifact: obj(
    {
      ...artifactFields,
      acceptance_state: { ...artifactFields.acceptance_state, default: 'proposed' },
    },
    ['artifact_id', 'canonical_note_versions', 'output_digest'],
    closed,
  ),
  review: obj(
    { acceptance_state: { enum: [...ACCEPTANCE_STATES], 'x-error-code': 'INVALID_ARTIFACT' } },
    ['acceptance_state'],
    closed,
  ),
  workingSet: obj(
    {
      objective: str({ minLength: 1, maxLength: 2_000 }),
      object_id: str({ pattern: OBJECT_ID.source, 'x-error-code': 'INVALID_ARGUMENT' }),
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 12 },
    },
    [],
    closed,
  ),
  validate: obj(
    {
      artifact: { description: 'the artifact to evaluate (any JSON value)' },
      agentic_protocol: {
        oneOf: [{ type: 'object' }, hash],
        description: 'the protocol inline, or the content hash of a registered one',
      },
      generation_metadata_hash: hash,
    },
    ['artifact', 'agentic_protocol', 'generation_metadata_hash'],
  ),
  /** A project's validate: also `in-force:<slug>`, the version a promotion put in force there. */
  validateInProject: obj(
    {
      artifact: { description: 'the artifact to evaluate (any JSON value)' },
      agentic_protocol: {
        oneOf: [{ type: 'object' }, hash, str({ pattern: '^in-force:[\\x21-\\x7e]{1,128}$' })],
        description:
          'the protocol inline, the content hash of a registered one, or `in-force:<slug>`: the version of that protocol a promotion put in force for this project (the verdict records the hash it resolved to)',
      },
      generation_metadata_hash: hash,
    },
    ['artifact', 'agentic_protocol', 'generation_metadata_hash'],
  ),
  verify: obj(
    {
      event: { type: 'object', description: 'the signed conformance event' },
      artifact: { description: 'when given, the event must bind this artifact' },
      protocol: { type: 'object', description: 'when given, the event must bind this protocol' },
      generation_metadata_hash: { ...hash, description: 'when given, the event must bind it' },
      at: str({
        maxLength: 64,
        description:
          'the instant (RFC 3339 with an offset) the issuer and root must be valid at, instead of now: an event carries no signing time, so the relying party says when it vouches for',
      }),
    },
    ['event'],
    closed,
  ),
  token: obj(
    {
      principal: str({
        pattern: '^[A-Za-z0-9][A-Za-z0-9_.@-]{0,99}$',
        'x-error-code': 'INVALID_ARGUMENT',
      }),
      role: { enum: [...ROLES], 'x-error-code': 'INVALID_ARGUMENT' },
    },
    ['principal', 'role'],
    { ...closed, description: "the new token's principal and role (not the caller's)" },
  ),
} satisfies Record<string, JsonObject>;

/** Response shapes built from the components. */
export const RESPONSES = {
  list: (key: string, item: string): JsonObject => obj({ [key]: arr(ref(item)) }, [key]),
  obj,
  arr,
  str,
  hash,
  nullable,
};
