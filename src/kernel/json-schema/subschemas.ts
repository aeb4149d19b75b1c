import { isObject } from './equal.js';

// Where subschemas sit; `$id`/`$anchor` anywhere else (inside `enum`, unknown keywords…) is data.
const SINGLE = [
  'additionalProperties',
  'items',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const LISTS = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];
const MAPS = ['$defs', 'definitions', 'properties', 'patternProperties', 'dependentSchemas'];

/** The subschemas of a schema object with their reference tokens, in a fixed order. */
export function subschemas(node: Record<string, unknown>): [string[], unknown][] {
  const found: [string[], unknown][] = [];
  for (const key of SINGLE) if (Object.hasOwn(node, key)) found.push([[key], node[key]]);
  for (const key of LISTS) {
    const list = node[key];
    if (!Object.hasOwn(node, key) || !Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) found.push([[key, String(i)], list[i]]);
  }
  for (const key of [...MAPS, 'dependencies']) {
    const map = node[key];
    if (!Object.hasOwn(node, key) || !isObject(map)) continue;
    for (const name of Object.keys(map)) {
      // `dependencies` maps to a schema or (draft 7 style) to a list of property names.
      if (key !== 'dependencies' || !Array.isArray(map[name])) found.push([[key, name], map[name]]);
    }
  }
  return found;
}
