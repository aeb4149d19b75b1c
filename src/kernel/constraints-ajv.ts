import { Ajv2020, type ErrorObject, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { CanonryError, type JsonObject, type JsonValue } from '../core/index.js';
import { describeThrown, type ProtocolIssue } from './issues.js';
import { linearPattern } from './json-schema/index.js';

/**
 * Ajv as canonry configures it: patterns on RE2 (the interpreter's linear-time engine), the same
 * format checks as the interpreter, no keyword the interpreter lacks, and the one shared meta-schema
 * check every schema goes through first.
 */

/** The only dialect canonry accepts in `$schema`. */
export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** At most this many meta-schema errors are reported for one schema. */
export const MAX_SCHEMA_ISSUES = 10;

/** Ajv's hook for regular expressions: the interpreter's RE2 patterns (already compiled, cached). */
const re2Engine = Object.assign(
  (pattern: string) => {
    const compiled = linearPattern(pattern);
    // Ajv keys compiled patterns by their text: one per pattern.
    return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
  },
  { code: 'canonry-re2' },
);

/** A fresh Ajv for one schema (two schemas may share an `$id`). */
export function newAjv(formatAssertion: boolean, remotes: Record<string, JsonValue>): Ajv2020 {
  const options: Options = {
    strict: false, // the standard ignores unknown keywords; strict mode would reject them
    logger: false,
    allErrors: false,
    ownProperties: true, // `required: ["toString"]` must not be satisfied by Object.prototype
    validateFormats: formatAssertion,
    validateSchema: false, // checked once against a shared, pre-compiled meta-schema instead
    code: { regExp: re2Engine },
  };
  const ajv = new Ajv2020(options);
  // ajv-formats' checks without its formatMinimum-style keywords, which the interpreter lacks.
  if (formatAssertion)
    for (const [name, format] of Object.entries(fullFormats)) ajv.addFormat(name, format);
  for (const [uri, remote] of Object.entries(remotes)) ajv.addSchema(remote as object, uri);
  return ajv;
}

let metaCheck: ValidateFunction | undefined;

function metaSchemaIssues(schema: JsonObject): ProtocolIssue[] {
  metaCheck ??= new Ajv2020({
    strict: false,
    logger: false,
    allErrors: true,
    validateFormats: false,
  }).getSchema(JSON_SCHEMA_DIALECT);
  if (metaCheck === undefined)
    throw new CanonryError('INTERNAL', 'the 2020-12 meta-schema is missing');
  if (metaCheck(schema) === true) return [];
  return toIssues(metaCheck.errors);
}

function toIssues(errors: ErrorObject[] | null | undefined): ProtocolIssue[] {
  const seen = new Set<string>();
  const issues: ProtocolIssue[] = [];
  for (const error of errors ?? []) {
    const issue = {
      path: error.instancePath,
      message: `${error.keyword}: ${error.message ?? 'invalid'}`,
    };
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
    if (issues.length === MAX_SCHEMA_ISSUES) break;
  }
  return issues.length > 0 ? issues : [{ path: '', message: 'not a valid JSON Schema 2020-12' }];
}

/**
 * Problems with a schema's dialect: it must be 2020-12 (checked against the meta-schema), or a
 * meta-schema among `remotes` (tests), which the schema's own Ajv checks.
 */
export function dialectIssues(
  ajv: Ajv2020,
  schema: JsonObject,
  remotes: Record<string, JsonValue>,
): ProtocolIssue[] {
  const declared = schema.$schema;
  if (
    declared === undefined ||
    declared === JSON_SCHEMA_DIALECT ||
    declared === `${JSON_SCHEMA_DIALECT}#`
  ) {
    return metaSchemaIssues(schema);
  }
  if (typeof declared === 'string' && Object.hasOwn(remotes, declared)) {
    try {
      return ajv.validateSchema(schema) === true ? [] : toIssues(ajv.errors);
    } catch (error) {
      return [{ path: '/$schema', message: describeThrown(error) }];
    }
  }
  return [
    { path: '/$schema', message: `only JSON Schema 2020-12 (${JSON_SCHEMA_DIALECT}) is supported` },
  ];
}
