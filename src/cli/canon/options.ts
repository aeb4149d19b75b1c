import { type Command, Option } from 'commander';
import { CanonryError, type JsonObject } from '../../core/index.js';
import { inlineRefs, type Operation } from '../../operations/index.js';
import { readJson } from '../io.js';

/**
 * A command's options generated from its operation: one per query parameter and per top-level body
 * field, typed by the field's schema (the same schema the server checks). A binding may respell a
 * flag (`--base` for `base_version`); `--file` gives the whole body as JSON, flags override its fields.
 */

type Kind = 'string' | 'nullable' | 'number' | 'boolean' | 'list' | 'json';

/** One generated flag: where its value goes and how it is read. */
export interface FieldFlag {
  readonly field: string;
  readonly where: 'query' | 'body';
  /** The commander spelling: `--base <hash>`. */
  readonly flag: string;
  /** Commander's attribute for it (`base`, `classify` for `--no-classify`). */
  readonly attribute: string;
  readonly kind: Kind;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(schema: unknown): Kind {
  if (!isObject(schema)) return 'json';
  const type = schema.type;
  if (type === 'integer' || type === 'number') return 'number';
  if (type === 'boolean') return 'boolean';
  if (type === 'string') return 'string';
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string'))
    return 'string';
  if (type === 'array') return kindOf(schema.items) === 'string' ? 'list' : 'json';
  const branches = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(branches)) {
    const kinds = branches.map((b) => (isObject(b) && b.type === 'null' ? 'null' : kindOf(b)));
    if (kinds.every((k) => k === 'string' || k === 'null')) {
      return kinds.includes('null') ? 'nullable' : 'string';
    }
  }
  return 'json';
}

const kebab = (field: string) => field.replaceAll('_', '-');

function hint(kind: Kind): string {
  switch (kind) {
    case 'list':
      return ' (comma-separated)';
    case 'json':
      return ' (JSON, or @file)';
    case 'nullable':
      return ' ("null" for none)';
    default:
      return '';
  }
}

/** The flags of an operation, query parameters first, each added to `command`. */
export function addOperationFlags(command: Command, op: Operation): FieldFlag[] {
  const spelled = op.cli?.flags ?? {};
  const positional = new Set(
    [...(op.cli?.command ?? '').matchAll(/[<[]([a-z_]+)[\]>]/g)].map((m) => m[1]!),
  );
  const fields: { field: string; where: 'query' | 'body'; schema: unknown; about: string }[] = [
    ...(op.query ?? []).map((q) => ({
      field: q.name,
      where: 'query' as const,
      schema: q.schema,
      about: q.description,
    })),
  ];
  if (op.body) {
    const schema = inlineRefs(op.body.schema) as JsonObject;
    const properties = isObject(schema.properties) ? schema.properties : {};
    for (const [field, sub] of Object.entries(properties)) {
      if (isObject(sub) && sub.readOnly === true) continue;
      const about = isObject(sub) && typeof sub.description === 'string' ? sub.description : field;
      fields.push({ field, where: 'body', schema: sub, about });
    }
  }
  const flags: FieldFlag[] = [];
  for (const { field, where, schema, about } of fields) {
    // A positional argument of the same name (`message [text]`) may also be given as a flag.
    const kind = where === 'query' ? 'string' : kindOf(schema);
    const flag =
      spelled[field] ??
      (kind === 'boolean' ? `--${kebab(field)}` : `--${kebab(field)} <${kebab(field)}>`);
    const option = new Option(flag, `${about}${hint(kind)}`);
    command.addOption(option);
    flags.push({ field, where, flag, attribute: option.attributeName(), kind });
    positional.delete(field);
  }
  if (op.body) command.option('--file <body.json>', 'the whole body as a JSON file');
  return flags;
}

function convert(flag: FieldFlag, value: unknown): unknown {
  const name = flag.flag.split(' ')[0]!;
  if (typeof value !== 'string') return value;
  switch (flag.kind) {
    case 'number':
      if (!/^-?\d{1,15}(\.\d+)?$/.test(value)) {
        throw new CanonryError('INVALID_ARGUMENT', `${name} must be a number`, {
          field: flag.field,
        });
      }
      return Number(value);
    case 'list':
      return value
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
    case 'nullable':
      return value === 'null' ? null : value;
    case 'json':
      if (value.startsWith('@')) return readJson(value.slice(1), name);
      try {
        return JSON.parse(value);
      } catch {
        throw new CanonryError('INVALID_ARGUMENT', `${name} must be JSON (or @file)`, {
          field: flag.field,
        });
      }
    default:
      return value;
  }
}

/** The operation's input from the parsed flags and positional arguments. */
export function inputFromFlags(
  op: Operation,
  flags: readonly FieldFlag[],
  values: Record<string, unknown>,
  args: readonly string[],
  raw: readonly string[] = [],
): { params: Record<string, string>; query: Record<string, string>; body: unknown } {
  const names = [...(op.cli?.command ?? '').matchAll(/[<[]([a-z_]+)[\]>]/g)].map((m) => m[1]!);
  const pathParams = Object.keys(op.params ?? {});
  const params: Record<string, string> = {};
  const query: Record<string, string> = {};
  const fromFile = typeof values.file === 'string' ? readJson(values.file, '--file') : undefined;
  const body: Record<string, unknown> =
    fromFile === undefined ? {} : isObject(fromFile) ? { ...fromFile } : { _: fromFile };
  if (fromFile !== undefined && !isObject(fromFile)) return { params, query, body: fromFile };
  names.forEach((name, i) => {
    const value = args[i];
    if (value === undefined) return;
    if (i < pathParams.length) params[pathParams[i]!] = value;
    else body[name] = value;
  });
  for (const flag of flags) {
    const value = values[flag.attribute];
    if (value === undefined) continue;
    if (flag.where === 'query') {
      // `--no-classify` is classify=false; its default (true) is the server's default.
      if (value === true) continue;
      query[flag.field] = String(value);
    } else if (Object.hasOwn(body, flag.field) && names.includes(flag.field)) {
      throw new CanonryError(
        'INVALID_ARGUMENT',
        `give ${flag.field} as the argument or as ${flag.flag.split(' ')[0]} (exactly one)`,
        { field: flag.field },
      );
    } else {
      body[flag.field] = raw.includes(flag.field) ? value : convert(flag, value);
    }
  }
  const hasBody = op.body !== undefined && (fromFile !== undefined || Object.keys(body).length > 0);
  return { params, query, body: hasBody ? body : op.body?.required ? {} : undefined };
}
