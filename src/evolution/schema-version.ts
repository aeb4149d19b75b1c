/** The schema family of qualified cognitive events. */
export const EVENT_SCHEMA_FAMILY = 'gcs.qualified-cognitive-event';

/** The version this build writes: major 1, minor 0, spelled without a minor. */
export const EVENT_SCHEMA_VERSION = `${EVENT_SCHEMA_FAMILY}.v1`;

/** The decoding contract this build knows, and the newest minor whose fields it knows. */
export const DECODED_MAJOR = 1;
export const KNOWN_MINOR = 0;

/** A parsed schema version. Minor 0 is spelled `v1`, never `v1.0`, so one version has one text. */
export interface SchemaVersion {
  readonly major: number;
  readonly minor: number;
}

const VERSION = /^gcs\.qualified-cognitive-event\.v([1-9][0-9]{0,5})(?:\.([1-9][0-9]{0,5}))?$/;

/** The version a `schema_version` text names, or null when it is not one of this family's. */
export function readSchemaVersion(text: string): SchemaVersion | null {
  const match = VERSION.exec(text);
  if (match === null) return null;
  return { major: Number(match[1]), minor: match[2] === undefined ? 0 : Number(match[2]) };
}
