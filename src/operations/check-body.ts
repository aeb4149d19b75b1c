import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { refuseAuthorityClaims } from '../canon/index.js';
import { CanonryError, type ErrorCode, type JsonObject } from '../core/index.js';
import type { Operation } from './operation.js';
import { SCHEMAS } from './schemas.js';

/**
 * The input checks every face runs before a handler, generated from the operation's body schema:
 * authority claims first (AUTHORITY_FROM_PAYLOAD: a closed object may not carry an authority field it
 * does not declare), then the schema (the operation's `body.invalid` code, INVALID_BODY by default,
 * or the `x-error-code` of the failing property) with the failing field in `details.field`. Handlers
 * then parse the checked body to their types, and canon checks what a schema cannot (archive
 * quotes, versions, planes).
 */

/** `{ $ref: '#/components/schemas/X' }` → X, throughout (the components have no cycles). */
export function inlineRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inlineRefs);
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const target = SCHEMAS[ref.slice('#/components/schemas/'.length)];
    if (!target) throw new CanonryError('INTERNAL', `no component ${ref}`);
    const { $ref: _, ...rest } = schema as Record<string, unknown>;
    return { ...(inlineRefs(target) as JsonObject), ...(inlineRefs(rest) as JsonObject) };
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlineRefs(v)]));
}

let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<JsonObject, { check: ValidateFunction; schema: JsonObject }>();

function compile(schema: JsonObject): { check: ValidateFunction; schema: JsonObject } {
  let hit = compiled.get(schema);
  if (!hit) {
    ajv ??= (() => {
      const a = new Ajv2020({
        strict: false,
        logger: false,
        allErrors: true,
        verbose: true,
        ownProperties: true,
      });
      for (const [name, format] of Object.entries(fullFormats)) a.addFormat(name, format);
      return a;
    })();
    const inlined = inlineRefs(schema) as JsonObject;
    hit = { check: ajv.compile(inlined), schema: inlined };
    compiled.set(schema, hit);
  }
  return hit;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Refuses authority fields in every closed object of `value` that its schema does not declare. */
function refuseClaimsBySchema(value: unknown, schema: unknown): void {
  if (!isObject(schema)) return;
  if (Array.isArray(value) && isObject(schema.items)) {
    for (const item of value) refuseClaimsBySchema(item, schema.items);
    return;
  }
  if (!isObject(value)) return;
  const properties = isObject(schema.properties) ? schema.properties : {};
  if (schema.additionalProperties === false) refuseAuthorityClaims(value, Object.keys(properties));
  for (const [key, sub] of Object.entries(properties)) {
    if (Object.hasOwn(value, key)) refuseClaimsBySchema(value[key], sub);
  }
}

/** `/candidate/title` → `candidate.title`; a missing or unknown property names itself. */
function fieldOf(error: ErrorObject): string {
  const path = error.instancePath.split('/').slice(1).join('.');
  const named =
    (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
    (error.params as { additionalProperty?: string }).additionalProperty;
  const field = named === undefined ? path : path === '' ? named : `${path}.${named}`;
  return field.slice(0, 64);
}

function messageOf(error: ErrorObject, field: string): string {
  if (error.keyword === 'additionalProperties') return `unknown field ${JSON.stringify(field)}`;
  if (error.keyword === 'required') return `${field} is required`;
  return `${field === '' ? 'the body' : field} ${error.message ?? 'is invalid'}`;
}

/** Holds a body to the operation's schema; an absent optional body is `{}` to its handler. */
export function checkBody(op: Operation, body: unknown): unknown {
  if (!op.body) return body;
  if (body === undefined && !op.body.required) return body;
  if (!isObject(body)) {
    throw new CanonryError(op.body.invalid ?? 'INVALID_BODY', 'the body must be a JSON object');
  }
  const { check, schema } = compile(op.body.schema);
  refuseClaimsBySchema(body, schema);
  if (check(body)) return body;
  // The first error in the body's own order, preferring one whose property names its code.
  const errors = check.errors ?? [];
  const coded = errors.find((e) => isObject(e.parentSchema) && e.parentSchema['x-error-code']);
  const first = coded ?? errors[0];
  const field = first ? fieldOf(first) : '';
  const code = (coded?.parentSchema?.['x-error-code'] as ErrorCode | undefined) ?? op.body.invalid;
  throw new CanonryError(
    code ?? 'INVALID_BODY',
    first ? messageOf(first, field) : 'invalid body',
    field === '' ? undefined : { field },
  );
}
