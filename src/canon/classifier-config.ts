import { CanonryError, isCanonryError } from '../core/index.js';
import type { Canon } from './canon.js';
import {
  DEFAULT_SCRIPTED_CONFIG,
  parseScriptedConfig,
  type ScriptedConfig,
  type SubjectConfig,
} from './classify/index.js';
import { CLASSIFIER } from './entry-kinds.js';
import type { ClassifierBody, ClassifierRecord } from './records.js';
import { OBJECT_ID, type Principal } from './types.js';

/** The journal entry kind that records a project's scripted-classifier configuration, whole. */
export const CLASSIFIER_KIND = 'canon.classifier';

/** A project's classifier configuration as read: journaled, or the default (no subjects). */
export interface ClassifierSettings {
  readonly config: ScriptedConfig;
  /** The `canon.classifier` entry it comes from; null for the default. */
  readonly seq: number | null;
  readonly by: Principal | null;
  readonly source: ClassifierBody['source'] | 'default';
}

/** The settings a project's scripted classifier uses (every principal of the project reads them). */
export async function classifierSettings(
  canon: Canon,
  project: string,
): Promise<ClassifierSettings> {
  const record = await canon.reader(project).classifierConfig();
  if (!record) return { config: DEFAULT_SCRIPTED_CONFIG, seq: null, by: null, source: 'default' };
  return { config: record.config, seq: record.seq, by: record.by, source: record.source };
}

/** How many subjects each project with a journaled configuration has (for the start log). */
export async function subjectCounts(canon: Canon): Promise<Record<string, number>> {
  const rows = await canon.journal.store.all<{ project: string; record: string }>(
    'SELECT project, record FROM canon_classifier ORDER BY project',
  );
  return Object.fromEntries(
    rows.map((r) => [
      r.project,
      Object.keys((JSON.parse(r.record) as ClassifierRecord).config.subjects).length,
    ]),
  );
}

function mayConfigure(principal: Principal): void {
  if (principal.role !== 'owner' && principal.role !== 'editor') {
    throw new CanonryError('FORBIDDEN', 'only owners and editors manage classifier subjects');
  }
}

/** `{ subjects: { <object id>: SubjectConfig } }` from outside, checked. */
function subjectsInput(value: unknown): Record<string, SubjectConfig> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CanonryError('INVALID_BODY', 'expected { "subjects": { "<object id>": { … } } }');
  }
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'subjects') {
    throw new CanonryError('INVALID_BODY', 'expected exactly one field, subjects');
  }
  const subjects = (value as { subjects: unknown }).subjects;
  if (typeof subjects !== 'object' || subjects === null || Array.isArray(subjects)) {
    throw new CanonryError('INVALID_BODY', 'subjects must be an object of object id → subject');
  }
  const ids = Object.keys(subjects);
  if (ids.length === 0 || ids.length > 100) {
    throw new CanonryError('INVALID_BODY', 'subjects names 1–100 subjects at a time');
  }
  const bad = ids.find((id) => !OBJECT_ID.test(id));
  if (bad !== undefined) {
    throw new CanonryError(
      'INVALID_BODY',
      `subject ${JSON.stringify(bad.slice(0, 64))} is not an object id (lowercase letters, digits, . _ -, max 100)`,
      { field: 'subjects' },
    );
  }
  try {
    return parseScriptedConfig({ subjects }).subjects as Record<string, SubjectConfig>;
  } catch (err) {
    if (isCanonryError(err, 'INVALID_ARGUMENT')) {
      throw new CanonryError('INVALID_BODY', err.message.replace('config at /subjects', 'subject'));
    }
    throw err;
  }
}

/**
 * Journals a whole configuration as the project's (`canon.classifier`; its projection is the table
 * the classifier reads), if the project's is still the one `change` was computed from: another
 * change in between is retried on the new one, so none is lost.
 */
async function commitConfig(
  canon: Canon,
  project: string,
  by: Principal | null,
  source: ClassifierBody['source'],
  change: (current: ClassifierSettings) => ScriptedConfig | null,
  idempotencyKey?: string,
): Promise<ClassifierSettings> {
  for (let attempt = 0; ; attempt++) {
    const current = await classifierSettings(canon, project);
    const next = change(current);
    if (next === null) return current;
    const config = parseScriptedConfig(next);
    const body: ClassifierBody = { config, by, source };
    try {
      await canon.journal.append(
        project,
        CLASSIFIER.input(body, {
          actor: by?.id ?? 'operator',
          authority: by
            ? { principal: by.id, role: by.role, project }
            : { principal: 'operator', role: 'owner', project },
          ...(idempotencyKey ? { idempotency_key: idempotencyKey } : {}),
        }),
        {
          precondition: async (tx) => {
            const rows = await tx.all<{ seq: number | string }>(
              'SELECT seq FROM canon_classifier WHERE project = $1',
              [project],
            );
            const seq = rows[0] ? Number(rows[0].seq) : null;
            if (seq !== current.seq) {
              throw new CanonryError('CONFLICT', 'the classifier configuration moved', {
                seq,
              });
            }
          },
        },
      );
      return classifierSettings(canon, project);
    } catch (err) {
      if (!isCanonryError(err, 'CONFLICT') || attempt >= 8) throw err;
    }
  }
}

/** Adds or replaces subjects (owners and editors); returns the settings now in force. */
export async function putSubjects(
  canon: Canon,
  principal: Principal,
  input: unknown,
): Promise<ClassifierSettings> {
  mayConfigure(principal);
  const subjects = subjectsInput(input);
  return commitConfig(canon, principal.project, principal, 'api', ({ config }) => {
    const merged = { ...config.subjects, ...subjects };
    if (Object.keys(merged).length > 1000) {
      throw new CanonryError('INVALID_BODY', 'a project has at most 1,000 subjects');
    }
    return { ...config, subjects: merged };
  });
}

/** Removes a subject (owners and editors); UNKNOWN_SUBJECT when the project has none by that id. */
export async function removeSubject(
  canon: Canon,
  principal: Principal,
  id: string,
): Promise<ClassifierSettings> {
  mayConfigure(principal);
  return commitConfig(canon, principal.project, principal, 'api', ({ config }) => {
    if (!Object.hasOwn(config.subjects, id)) {
      throw new CanonryError('UNKNOWN_SUBJECT', `no classifier subject ${id}`, { subject: id });
    }
    const { [id]: _removed, ...rest } = config.subjects;
    return { ...config, subjects: rest };
  });
}

/**
 * Imports a configuration file of the data directory (how earlier versions kept subjects) as the
 * project's journaled configuration, once: a project that already has one keeps it. Returns whether
 * it was imported. The file is validated (INVALID_ARGUMENT).
 */
export async function importClassifierConfig(
  canon: Canon,
  project: string,
  config: unknown,
): Promise<boolean> {
  const checked = parseScriptedConfig(config);
  let imported = false;
  await commitConfig(
    canon,
    project,
    null,
    'file',
    (current) => {
      if (current.seq !== null) return null;
      imported = true;
      return checked;
    },
    'classifier:file',
  );
  return imported;
}
