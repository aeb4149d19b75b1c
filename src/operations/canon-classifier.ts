import type { CanonryRuntime } from '../app/index.js';
import {
  type ClassifierSettings,
  classifierSettings,
  OBJECT_ID,
  putSubjects,
  removeSubject,
  SCRIPTED_CONFIG_SCHEMA,
} from '../canon/index.js';
import type { JsonObject } from '../core/index.js';
import { objectIdArg } from './input.js';
import type { Operation } from './operation.js';
import { RESPONSES, ref } from './schemas.js';

/** What a project's intake classifies with, and the journaled subjects of the scripted classifier. */
export interface ClassifierView {
  /** `model` when the server has a model (CANONRY_MODEL_URL): subjects then wait unused. */
  readonly kind: 'scripted' | 'model';
  readonly model: string | null;
  readonly subjects: number;
  /** `default` (nothing set), `api` (set over the API or the CLI) or `file` (imported once). */
  readonly source: ClassifierSettings['source'];
  /** The `canon.classifier` entry the configuration comes from (null for the default). */
  readonly seq: number | null;
  readonly config: ClassifierSettings['config'];
}

function view(runtime: CanonryRuntime, settings: ClassifierSettings): ClassifierView {
  return {
    kind: runtime.classifier.kind,
    model: runtime.classifier.model,
    subjects: Object.keys(settings.config.subjects).length,
    source: settings.source,
    seq: settings.seq,
    config: settings.config,
  };
}

/** The subjects of a change: the configuration's, keyed by object ids (they become notes' ids). */
const subjectSchema: JsonObject = {
  ...(SCRIPTED_CONFIG_SCHEMA.properties as Record<string, JsonObject>).subjects!,
  minProperties: 1,
  maxProperties: 100,
  propertyNames: { pattern: OBJECT_ID.source },
};

/**
 * The classifier's subjects, journaled (`canon.classifier`), read and changed by editors and owners:
 * subject ids may name notes of any plane, so agents and viewers do not read them.
 */
export const CLASSIFIER_OPERATIONS: readonly Operation[] = [
  {
    method: 'GET',
    url: '/v1/projects/:project/classifier',
    operationId: 'getClassifier',
    summary:
      "The project's classifier: its kind (scripted or model), and the scripted classifier's journaled subjects",
    tag: 'classifier',
    cli: {
      command: 'subjects',
      description: "the classifier's subjects (editors and owners)",
    },
    minRole: 'editor',
    status: 200,
    response: ref('ClassifierView'),
    errors: [],
    handler: async ({ runtime, project }) =>
      view(runtime, await classifierSettings(runtime.canon, project)),
  },
  {
    method: 'POST',
    url: '/v1/projects/:project/classifier/subjects',
    operationId: 'putSubjects',
    summary:
      'Add or replace subjects of the scripted classifier (object id → title, object type, keywords, tags); journaled',
    tag: 'classifier',
    cli: {
      command: 'subject set <object_id>',
      description: 'add or replace a subject: messages naming a keyword draft notes of this id',
    },
    minRole: 'editor',
    body: {
      schema: RESPONSES.obj({ subjects: subjectSchema }, ['subjects'], {
        additionalProperties: false,
      }),
      required: true,
      example: {
        subjects: {
          'release.day': {
            title: 'Release day',
            object_type: 'decision',
            keywords: ['ship', 'release'],
          },
        },
      },
    },
    status: 200,
    response: ref('ClassifierView'),
    errors: ['INVALID_BODY', 'INVALID_ARGUMENT', 'FORBIDDEN', 'CONFLICT'],
    handler: async ({ runtime, principal, body }) =>
      view(runtime, await putSubjects(runtime.canon, principal, body)),
  },
  {
    method: 'DELETE',
    url: '/v1/projects/:project/classifier/subjects/:id',
    operationId: 'removeSubject',
    summary: 'Remove a subject of the scripted classifier; journaled',
    tag: 'classifier',
    cli: {
      command: 'subject remove <object_id>',
      description: 'remove a subject',
    },
    minRole: 'editor',
    params: { id: 'subject (object) id' },
    status: 200,
    response: ref('ClassifierView'),
    errors: ['UNKNOWN_SUBJECT', 'INVALID_ARGUMENT', 'FORBIDDEN', 'CONFLICT'],
    handler: async ({ runtime, principal, params }) =>
      view(runtime, await removeSubject(runtime.canon, principal, objectIdArg(params.id, 'id'))),
  },
];
