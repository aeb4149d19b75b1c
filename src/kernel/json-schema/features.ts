import { isObject } from './equal.js';

// Keywords Ajv 8 evaluates incorrectly, or (2019-09's $recursive*) applies where 2020-12 has none.
const UNSAFE_KEYWORDS = new Set([
  '$dynamicRef',
  '$dynamicAnchor',
  'unevaluatedItems',
  'unevaluatedProperties',
  '$vocabulary',
  '$recursiveRef',
  '$recursiveAnchor',
]);
const NAME_MAPS = ['properties', 'patternProperties', 'dependentRequired', 'dependentSchemas'];
// Applicators that run their subschemas once per evaluation of the parent (no loop).
const IN_PLACE = new Set([
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'dependentSchemas',
]);

/** A node of the scan: the value, and whether it runs once per evaluation of the document root. */
type Pending = [unknown, boolean];

function trivial(schema: unknown): boolean {
  return schema === true || (isObject(schema) && Object.keys(schema).length === 0);
}

function namesProto(key: string, value: unknown): boolean {
  if (NAME_MAPS.includes(key) && isObject(value) && Object.hasOwn(value, '__proto__')) return true;
  if (key === 'required' && Array.isArray(value)) return value.includes('__proto__');
  return (
    key === 'dependentRequired' &&
    isObject(value) &&
    Object.values(value).some((names) => Array.isArray(names) && names.includes('__proto__'))
  );
}

/**
 * The features of a schema document that Ajv 8 is known to evaluate incorrectly, found anywhere in
 * it (keys in data count too: an over-approximation only costs speed): the keywords above, an
 * empty `enum`, a property named `__proto__`, a fractional `multipleOf`, `prefixItems` beside
 * `contains`, and a `contains` Ajv may inline into a loop. Iterative; sorted, without duplicates.
 * `isRoot` is false for a document reached by `$ref`, whose every schema may run inside a loop.
 */
export function ajvUnsafeFeatures(document: unknown, isRoot = true): string[] {
  const found = new Set<string>();
  const refs = isRoot ? localRefs(document) : true;
  const pending: Pending[] = [[document, isRoot]];
  while (pending.length > 0) {
    const [node, once] = pending.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) pending.push([item, once]);
      continue;
    }
    if (!isObject(node)) continue;
    // Ajv skips `contains` on an empty array when a sibling prefixItems has a real check.
    if (Object.hasOwn(node, 'prefixItems') && Object.hasOwn(node, 'contains'))
      found.add('prefixItems with contains');
    // In a loop, Ajv's `contains` keeps the previous element's verdict for an empty array. Any
    // schema a local `$ref` points to may be inlined into a loop.
    if (Object.hasOwn(node, 'contains') && !trivial(node.contains) && (!once || refs))
      found.add('contains in a loop');
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (UNSAFE_KEYWORDS.has(key)) found.add(key);
      if (key === 'enum' && Array.isArray(value) && value.length === 0) found.add('empty enum');
      // Ajv divides: 0.3 is not a multiple of 0.1 for it, nor 1.15 of 0.01.
      if (key === 'multipleOf' && typeof value === 'number' && !Number.isInteger(value))
        found.add('fractional multipleOf');
      if (namesProto(key, value)) found.add('__proto__');
      if (key === 'dependentSchemas' && isObject(value)) {
        for (const schema of Object.values(value)) pending.push([schema, once]);
      } else pending.push([value, once && IN_PLACE.has(key)]);
    }
  }
  return [...found].sort();
}

/** Whether a document has a `$ref` to anything but its own root (which Ajv never inlines). */
function localRefs(document: unknown): boolean {
  const pending: unknown[] = [document];
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) for (const item of node) pending.push(item);
    else if (isObject(node)) {
      for (const key of Object.keys(node)) {
        if (key === '$ref' && node[key] !== '#') return true;
        pending.push(node[key]);
      }
    }
  }
  return false;
}
