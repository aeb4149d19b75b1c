import {
  type DerElement,
  DerError,
  expectTag,
  readChildren,
  readObjectIdentifier,
} from './der-reader.js';

/**
 * Reads an X.509 Extensions SEQUENCE (RFC 5280 §4.1) into a map from OID to the extension's value
 * bytes. Refuses duplicates, a critical flag that is not DER TRUE, and critical extensions not in
 * `understood`; throws {@link DerError}.
 */
export function readExtensions(
  element: DerElement,
  understood: readonly string[],
): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const ext of readChildren(expectTag(element, 0x30, 'extensions'))) {
    const parts = readChildren(expectTag(ext, 0x30, 'extension'));
    if (parts.length < 2 || parts.length > 3) throw new DerError('extension has the wrong shape');
    const oid = readObjectIdentifier(parts[0], 'extension id');
    // DER omits a FALSE critical flag, so a present flag must be exactly TRUE (0xff).
    const flag =
      parts.length === 3 ? expectTag(parts[1], 0x01, 'critical flag').content : undefined;
    if (flag !== undefined && !(flag.length === 1 && flag[0] === 0xff)) {
      throw new DerError('critical flag is not DER TRUE');
    }
    const critical = flag !== undefined;
    const value = expectTag(parts[parts.length - 1], 0x04, 'extension value').content;
    if (found.has(oid)) throw new DerError(`duplicate extension ${oid}`);
    if (critical && !understood.includes(oid)) {
      throw new DerError(`unknown critical extension ${oid}`);
    }
    found.set(oid, value);
  }
  return found;
}
