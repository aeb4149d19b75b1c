/**
 * A strict DER reader for hostile bytes: single-byte tags only, definite minimal lengths, and no
 * element may run past its parent. Every failure throws {@link DerError}, which callers turn into
 * a typed result; nothing here allocates more than the input.
 */

/** A malformed DER structure. */
export class DerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DerError';
  }
}

/** One decoded element: its tag, the whole encoding, and the content bytes (views, not copies). */
export interface DerElement {
  readonly tag: number;
  readonly encoded: Buffer;
  readonly content: Buffer;
}

/** Reads the element that starts at `offset`; it must fit inside `bytes`. */
export function readElement(bytes: Buffer, offset = 0): DerElement {
  if (offset + 2 > bytes.length) throw new DerError('truncated element');
  const tag = bytes[offset] as number;
  if ((tag & 0x1f) === 0x1f) throw new DerError('multi-byte tags are not supported');
  let length = bytes[offset + 1] as number;
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0) throw new DerError('indefinite length is not DER');
    if (count > 4) throw new DerError('element too long');
    if (offset + 2 + count > bytes.length) throw new DerError('truncated length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (bytes[offset + 2 + i] as number);
    if (length < 0x80 || (bytes[offset + 2] as number) === 0) {
      throw new DerError('length is not minimally encoded');
    }
    header += count;
  }
  const end = offset + header + length;
  if (end > bytes.length) throw new DerError('element runs past its container');
  return {
    tag,
    encoded: bytes.subarray(offset, end),
    content: bytes.subarray(offset + header, end),
  };
}

/** Reads exactly one element spanning all of `bytes`. */
export function readSingle(bytes: Buffer, tag: number, what: string): DerElement {
  const element = expectTag(readElement(bytes), tag, what);
  if (element.encoded.length !== bytes.length) throw new DerError(`trailing bytes after ${what}`);
  return element;
}

/** The children of a constructed element, in order. */
export function readChildren(element: DerElement): DerElement[] {
  if (!(element.tag & 0x20)) throw new DerError('expected a constructed element');
  const children: DerElement[] = [];
  for (let offset = 0; offset < element.content.length; ) {
    const child = readElement(element.content, offset);
    children.push(child);
    offset += child.encoded.length;
  }
  return children;
}

/** Returns `element` when it has `tag`, else throws. */
export function expectTag(element: DerElement | undefined, tag: number, what: string): DerElement {
  if (element === undefined) throw new DerError(`missing ${what}`);
  if (element.tag !== tag) throw new DerError(`${what} has the wrong type`);
  return element;
}

/** A DER INTEGER as a non-negative bigint (negative or non-minimal encodings are refused). */
export function readUnsignedInteger(element: DerElement | undefined, what: string): bigint {
  const { content } = expectTag(element, 0x02, what);
  if (content.length === 0 || content.length > 64) throw new DerError(`${what} has a bad length`);
  const first = content[0] as number;
  if (first & 0x80) throw new DerError(`${what} is negative`);
  if (content.length > 1 && first === 0 && !((content[1] as number) & 0x80)) {
    throw new DerError(`${what} is not minimally encoded`);
  }
  return BigInt(`0x${content.toString('hex')}`);
}

/** The bytes of a BIT STRING with no unused bits. */
export function readOctetAlignedBits(element: DerElement | undefined, what: string): Buffer {
  const { content } = expectTag(element, 0x03, what);
  if (content.length < 1 || content[0] !== 0) throw new DerError(`${what} is not octet-aligned`);
  return content.subarray(1);
}

/** The dotted form of an OBJECT IDENTIFIER. */
export function readObjectIdentifier(element: DerElement | undefined, what: string): string {
  const { content } = expectTag(element, 0x06, what);
  if (content.length === 0 || content.length > 64) throw new DerError(`${what} has a bad length`);
  const arcs: number[] = [];
  let value = 0;
  for (let i = 0; i < content.length; i++) {
    const byte = content[i] as number;
    if (value === 0 && byte === 0x80) throw new DerError(`${what} is not minimally encoded`);
    value = value * 128 + (byte & 0x7f);
    if (value > Number.MAX_SAFE_INTEGER / 128) throw new DerError(`${what} arc is too large`);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0;
    } else if (i === content.length - 1) throw new DerError(`${what} is truncated`);
  }
  const first = arcs.shift() as number;
  const top = Math.min(Math.floor(first / 40), 2);
  return [top, first - top * 40, ...arcs].join('.');
}
