/**
 * An upper bound on the bytes of `value` as canonical JSON (UTF-8), without serialising it: a UTF-16
 * code unit takes at most 6 bytes (`\u001f`), a number at most 25 characters
 * (`-0.0000012345678901234567`), and each key, comma and bracket is counted. Cheap enough for every
 * verdict (a typical audit record: ~20 values).
 */
export function auditRecordBound(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return 6 * value.length + 2;
    case 'number':
      return 25;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      let bytes = 2;
      if (Array.isArray(value)) {
        for (const item of value) bytes += auditRecordBound(item) + 1;
        return bytes;
      }
      for (const key in value) {
        const item = (value as Record<string, unknown>)[key];
        if (item !== undefined) bytes += 6 * key.length + 4 + auditRecordBound(item);
      }
      return bytes;
    }
    default:
      return 4;
  }
}
