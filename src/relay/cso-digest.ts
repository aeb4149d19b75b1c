import { hash } from 'node:crypto';
import { canonicalize, canonicalizeFixed } from '../core/index.js';
import type { CognitiveStateObject, UnsealedCso } from './types.js';

/**
 * The digest a CSO is sealed over (what stands for SPEC-011's input): a digest of digests, so a
 * window that carries most of its state from the last one hashes only what changed.
 *
 * - an item's digest: SHA-256 of its RFC 8785 canonical bytes (a fact, a decision, an edge);
 * - a list's items are cut into chunks after each item whose digest's first byte is below 8
 *   (1 in 32, content-defined, so an insertion or removal changes only the chunk around it); a
 *   chunk's digest is SHA-256 over its items' digests in order;
 * - a list's digest is SHA-256 over its length (4 bytes, big-endian) and its chunks' digests;
 * - the CSO's digest is SHA-256 over `canonry-cso-digest:1\n`, the header (the canonical JSON of
 *   every field but the three lists, `cso_hmac` and `verified`) prefixed by its length (4 bytes),
 *   then the digests of `established_facts`, `decisions` and `dependency_graph`.
 *
 * Items are immutable and carried from one CSO to the next by identity, so their digests and the
 * chunks they form are kept by identity (weakly): the same function seals and verifies, and only
 * new objects are hashed. An item's canonical text is kept with it too (`canonicalizeFixed`): the
 * window's journal entry and projection rows encode the items it put without encoding them again.
 */

const DOMAIN = Buffer.from('canonry-cso-digest:1\n', 'utf8');
/** A chunk ends after an item whose digest's first byte is below this (1 in 32 on average). */
const BOUNDARY = 8;

// Digests are held as text, one latin1 character a byte: Node makes a 32-character string of a
// hash ~4× faster than a 32-byte Buffer, and joins many of them faster than `Buffer.concat`. Such
// text is turned back into its bytes (`bytesOf`) before it is hashed again, never hashed as text
// (a string given to `hash` is UTF-8 encoded).
type Digest = string;

const items = new WeakMap<object, Digest>();

interface Chunk {
  readonly members: readonly object[];
  /** Each member's digest, by position. */
  readonly digests: readonly Digest[];
  /** Ended by a boundary item (not by the end of its list). */
  readonly closed: boolean;
  readonly digest: Digest;
}

/**
 * How far past its expected place a carried item is looked for in the chunk it was in: a window
 * removes a few items from a chunk, never many.
 */
const LOOK_AHEAD = 8;

/** The chunks seen, by their first item. */
const chunks = new WeakMap<object, Chunk>();

/** SHA-256 of bytes, or of a string's UTF-8, as a digest's text ('binary' is Node's latin1). */
const sha256 = (data: Uint8Array | string): Digest => hash('sha256', data, 'binary');

/** The bytes a digest's text (or several, joined) stands for. */
const bytesOf = (text: string): Buffer => Buffer.from(text, 'latin1');

/** A length as 4 bytes, big-endian, in digest text. */
const lengthOf = (n: number): string =>
  String.fromCharCode((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);

/** SHA-256 of an item's canonical bytes, computed once per object. */
function digestOf(item: object): Digest {
  let digest = items.get(item);
  if (digest === undefined) {
    digest = sha256(canonicalizeFixed(item));
    items.set(item, digest);
  }
  return digest;
}

/** Computes and keeps an item's digest now, so that sealing a state holding it finds it. */
export function keepDigest(item: object): void {
  digestOf(item);
}

/** SHA-256 of an item's canonical bytes (kept by identity: see the module comment). */
export function itemDigest(item: object): Buffer {
  return bytesOf(digestOf(item));
}

function reusable(chunk: Chunk, list: readonly object[], at: number): boolean {
  const n = chunk.members.length;
  if (at + n > list.length || (!chunk.closed && at + n !== list.length)) return false;
  for (let i = 0; i < n; i++) if (chunk.members[i] !== list[at + i]) return false;
  return true;
}

/** A list's digest: its length and its content-defined chunks' digests. */
export function listDigest(list: readonly object[]): Buffer {
  return bytesOf(listText(list));
}

function listText(list: readonly object[]): Digest {
  const out: Digest[] = [lengthOf(list.length)];
  let at = 0;
  while (at < list.length) {
    const first = list[at]!;
    const known = chunks.get(first);
    if (known && reusable(known, list, at)) {
      out.push(known.digest);
      at += known.members.length;
      continue;
    }
    // A chunk that changed: its carried members' digests are read from the chunks they were in
    // (by position, a few places ahead at most), so only new items are looked up by identity.
    let hint = known;
    let next = 0;
    const members: object[] = [];
    const digests: Digest[] = [];
    let closed = false;
    while (at < list.length) {
      const item = list[at++]!;
      let d: Digest | undefined;
      if (hint) {
        const end = Math.min(hint.members.length, next + LOOK_AHEAD);
        for (let k = next; k < end; k++) {
          if (hint.members[k] === item) {
            d = hint.digests[k];
            next = k + 1;
            break;
          }
        }
      }
      if (d === undefined && (!hint || next >= hint.members.length)) {
        // Past the end of the chunk it read from: the next old chunk may start here.
        const following = chunks.get(item);
        if (following) {
          hint = following;
          d = following.digests[0];
          next = 1;
        }
      }
      d ??= digestOf(item);
      members.push(item);
      digests.push(d);
      if (d.charCodeAt(0) < BOUNDARY) {
        closed = true;
        break;
      }
    }
    const chunk: Chunk = { members, digests, closed, digest: sha256(bytesOf(digests.join(''))) };
    chunks.set(first, chunk);
    out.push(chunk.digest);
  }
  return sha256(bytesOf(out.join('')));
}

/** The canonical JSON of a CSO's header: every field but its lists, its seal and its verdict. */
export function csoHeader(cso: UnsealedCso | CognitiveStateObject): string {
  const {
    cso_hmac: _hmac,
    verified: _verified,
    established_facts: _facts,
    decisions: _decisions,
    dependency_graph: _graph,
    ...header
  } = cso as CognitiveStateObject;
  return canonicalize(header);
}

/** The 32 bytes a CSO is sealed over (see the module comment). */
export function csoDigest(cso: UnsealedCso | CognitiveStateObject): Uint8Array {
  const header = Buffer.from(csoHeader(cso), 'utf8');
  const lists =
    listText(cso.established_facts) + listText(cso.decisions) + listText(cso.dependency_graph);
  return hash(
    'sha256',
    Buffer.concat([DOMAIN, bytesOf(lengthOf(header.length)), header, bytesOf(lists)]),
    'buffer',
  );
}
