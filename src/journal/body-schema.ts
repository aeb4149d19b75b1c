import type { BodySchema } from './entry-kind.js';

/**
 * Small builders for the JSON Schemas of entry bodies, so each module's kinds read as what they
 * require. Objects allow fields they do not name: a schema must accept every body its version ever
 * wrote, and fields are added over time.
 */
export const bodySchema = {
  /** Any string. */
  text: { type: 'string' } as BodySchema,
  /** A `sha256:` content hash. */
  hash: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' } as BodySchema,
  /**
   * A string that names a content hash by its `sha256:` prefix, for hot kinds (the kernel's audit)
   * whose hashes the writer computed itself: the full check above costs ~0.3 µs a field, a tenth
   * of what a verdict's append costs on the event loop.
   */
  hashRef: { type: 'string', pattern: '^sha256:' } as BodySchema,
  /** An integer. */
  integer: { type: 'integer' } as BodySchema,
  /** The schema, or null. */
  nullable: (schema: BodySchema): BodySchema => ({ anyOf: [schema, { type: 'null' }] }),
  /** An array of items matching `items`. */
  list: (items: BodySchema): BodySchema => ({ type: 'array', items }),
  /** One of these strings. */
  oneOf: (values: readonly string[]): BodySchema => ({ enum: [...values] }),
  /** An object with these fields required and these optional; other fields are allowed. */
  object: (
    required: Readonly<Record<string, BodySchema>>,
    optional: Readonly<Record<string, BodySchema>> = {},
  ): BodySchema => ({
    type: 'object',
    required: Object.keys(required),
    properties: { ...required, ...optional },
  }),
} as const;
