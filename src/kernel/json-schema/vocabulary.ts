import { isObject } from './equal.js';
import { DEFAULT_VOCABULARIES, KNOWN_VOCABULARIES } from './meta.js';
import type { Registry } from './resources.js';
import { SchemaError } from './schema-error.js';
import type { Resource, Vocabularies } from './types.js';

/**
 * The vocabularies a resource's keywords belong to: those its `$schema` meta-schema declares in
 * `$vocabulary` (unknown optional ones ignored, unknown required ones refused), inherited by
 * embedded resources without `$schema`, the 2020-12 default otherwise.
 */
export function vocabulariesOf(
  resource: Resource,
  registry: Registry,
  onMeta: (meta: Resource) => void,
): Vocabularies {
  if (resource.vocabularies !== null) return resource.vocabularies;
  let found: Vocabularies;
  if (resource.dialect === null) {
    found =
      resource.parent === null
        ? DEFAULT_VOCABULARIES
        : vocabulariesOf(resource.parent, registry, onMeta);
  } else {
    const path = resource.document.isRoot ? '/$schema' : '';
    const meta = registry.resource(resource.dialect);
    if (meta === undefined)
      throw new SchemaError(path, `unknown $schema ${JSON.stringify(resource.dialect)}`);
    onMeta(meta);
    const declared = isObject(meta.root) ? meta.root.$vocabulary : undefined;
    found = isObject(declared) ? declaredVocabularies(declared, path) : DEFAULT_VOCABULARIES;
  }
  resource.vocabularies = found;
  return found;
}

function declaredVocabularies(declared: Record<string, unknown>, path: string): Vocabularies {
  const names = new Set<string>(['core']);
  for (const uri of Object.keys(declared)) {
    const name = KNOWN_VOCABULARIES.get(uri);
    if (name !== undefined) names.add(name);
    else if (declared[uri] === true)
      throw new SchemaError(path, `the meta-schema requires the unknown vocabulary ${uri}`);
  }
  return names;
}
