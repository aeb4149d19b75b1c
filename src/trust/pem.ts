/**
 * Strict PEM armor (RFC 7468): exactly one block with the expected label, nothing but whitespace
 * around it, and canonical base64 inside, so two different texts never decode to the same bytes.
 */

/** The largest PEM text accepted; real certificates and lists here are a few kilobytes. */
export const MAX_PEM_LENGTH = 256 * 1024;

const BASE64_BODY = /^[A-Za-z0-9+/]*={0,2}$/;

/** Wraps DER bytes in PEM armor with 64-column lines and a trailing newline. */
export function encodePem(label: string, der: Uint8Array): string {
  const lines =
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Decodes a single PEM block with `label`, or returns undefined when the text is not one. */
export function decodePem(text: unknown, label: string): Buffer | undefined {
  if (typeof text !== 'string' || text.length > MAX_PEM_LENGTH) return undefined;
  const begin = `-----BEGIN ${label}-----`;
  const end = `-----END ${label}-----`;
  const trimmed = text.trim();
  if (!trimmed.startsWith(begin) || !trimmed.endsWith(end)) return undefined;
  const body = trimmed.slice(begin.length, trimmed.length - end.length).replace(/[ \t\r\n]/g, '');
  if (body.length === 0 || body.length % 4 !== 0 || !BASE64_BODY.test(body)) return undefined;
  const der = Buffer.from(body, 'base64');
  // Buffer ignores non-zero padding bits; re-encoding catches such non-canonical bodies.
  if (der.toString('base64') !== body) return undefined;
  return der;
}
