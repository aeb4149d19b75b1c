import applicator from 'ajv/dist/refs/json-schema-2020-12/meta/applicator.json' with {
  type: 'json',
};
import content from 'ajv/dist/refs/json-schema-2020-12/meta/content.json' with { type: 'json' };
import core from 'ajv/dist/refs/json-schema-2020-12/meta/core.json' with { type: 'json' };
import formatAnnotation from 'ajv/dist/refs/json-schema-2020-12/meta/format-annotation.json' with {
  type: 'json',
};
import metaData from 'ajv/dist/refs/json-schema-2020-12/meta/meta-data.json' with { type: 'json' };
import unevaluated from 'ajv/dist/refs/json-schema-2020-12/meta/unevaluated.json' with {
  type: 'json',
};
import validation from 'ajv/dist/refs/json-schema-2020-12/meta/validation.json' with {
  type: 'json',
};
import schema from 'ajv/dist/refs/json-schema-2020-12/schema.json' with { type: 'json' };

/** The 2020-12 dialect's meta-schema URI. */
export const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** The 2020-12 meta-schema and its vocabulary meta-schemas (shipped by Ajv), by `$id`. */
export const BUILTIN_DOCUMENTS: ReadonlyMap<string, unknown> = new Map(
  [schema, core, applicator, unevaluated, validation, metaData, formatAnnotation, content].map(
    (document) => [document.$id, document] as const,
  ),
);

const VOCABULARY_PREFIX = 'https://json-schema.org/draft/2020-12/vocab/';

/** Short names of the 2020-12 vocabularies, by URI. */
export const KNOWN_VOCABULARIES: ReadonlyMap<string, string> = new Map(
  [
    'core',
    'applicator',
    'unevaluated',
    'validation',
    'meta-data',
    'format-annotation',
    'format-assertion',
    'content',
  ].map((name) => [VOCABULARY_PREFIX + name, name] as const),
);

/** The vocabularies of the 2020-12 dialect, used when no `$schema` says otherwise. */
export const DEFAULT_VOCABULARIES: ReadonlySet<string> = new Set([
  'core',
  'applicator',
  'unevaluated',
  'validation',
  'meta-data',
  'format-annotation',
  'content',
]);
