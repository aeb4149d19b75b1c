/** Thrown by {@link compileSchema} when a schema cannot be compiled; `path` locates the problem. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';

  /**
   * @param path RFC 6901 pointer into the root schema ('' when the problem is in another document).
   * @param message What is wrong, for the schema author.
   */
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}
