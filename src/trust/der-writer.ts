/**
 * A minimal DER encoder: just the ASN.1 types an Ed25519 X.509 certificate and CRL need
 * (RFC 5280, X.690). Every function returns the complete tag-length-value bytes.
 */

/** Encodes one tag-length-value with the given single-byte tag. */
export function tlv(tag: number, ...contents: Uint8Array[]): Buffer {
  const body = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), encodeLength(body.length), body]);
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A SEQUENCE of already-encoded elements. */
export function sequence(...elements: Uint8Array[]): Buffer {
  return tlv(0x30, ...elements);
}

/** A SET of already-encoded elements (callers pass a single element, so no sorting is needed). */
export function set(...elements: Uint8Array[]): Buffer {
  return tlv(0x31, ...elements);
}

/** A non-negative INTEGER, minimally encoded with a leading zero byte when the top bit is set. */
export function integer(value: bigint | Uint8Array): Buffer {
  let bytes = typeof value === 'bigint' ? bigintBytes(value) : Buffer.from(value);
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  bytes = bytes.subarray(start);
  if (bytes.length === 0) bytes = Buffer.from([0]);
  if ((bytes[0] as number) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

function bigintBytes(value: bigint): Buffer {
  if (value < 0n) throw new RangeError('negative integers are not supported');
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}

/** An OBJECT IDENTIFIER from dotted form, e.g. `1.3.101.112`. */
export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  const [first = 0, second = 0, ...rest] = arcs;
  const bytes: number[] = [];
  for (const arc of [first * 40 + second, ...rest]) {
    const chunk = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128))
      chunk.unshift(0x80 | (n & 0x7f));
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** A BOOLEAN (DER TRUE is 0xff). */
export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
}

/** An OCTET STRING. */
export function octetString(bytes: Uint8Array): Buffer {
  return tlv(0x04, bytes);
}

/** A BIT STRING whose last byte has `unusedBits` padding bits. */
export function bitString(bytes: Uint8Array, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.from([unusedBits]), bytes);
}

/** A UTF8String. */
export function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, 'utf8'));
}

/** A context-specific constructed (EXPLICIT) tag `[n]` around an encoded element. */
export function explicit(n: number, element: Uint8Array): Buffer {
  return tlv(0xa0 | n, element);
}

/** RFC 5280 §4.1.2.5 Time: UTCTime for 1950–2049, GeneralizedTime otherwise, in whole seconds. */
export function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const year = date.getUTCFullYear();
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '');
  if (year >= 1950 && year < 2050) return tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'latin1'));
  return tlv(0x18, Buffer.from(`${digits}Z`, 'latin1'));
}
