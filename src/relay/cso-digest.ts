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

const items = new WeakMap<object, Buffer>();

interface Chunk {
  readonly members: readonly object[];
  /** Ended by a boundary item (not by the end of its list). */
  readonly closed: boolean;
  readonly digest: Buffer;
}

/** The chunks seen, by their first item. */
const chunks = new WeakMap<object, Chunk>();

/** One-shot SHA-256 (no Hash object per item: half the cost of `createHash` for an item's bytes). */
const sha256 = (data: Uint8Array | string): Buffer => hash('sha256', data, 'buffer');

/** SHA-256 of an item's canonical bytes, computed once per object. */
export function itemDigest(item: object): Buffer {
  let digest = items.get(item);
  if (!digest) {
    digest = sha256(canonicalizeFixed(item));
    items.set(item, digest);
  }
  return digest;
}

function reusable(chunk: Chunk, list: readonly object[], at: number): boolean {
  const n = chunk.members.length;
  if (at + n > list.length || (!chunk.closed && at + n !== list.length)) return false;
  for (let i = 0; i < n; i++) if (chunk.members[i] !== list[at + i]) return false;
  return true;
}

/** A list's digest: its length and its content-defined chunks' digests. */
export function listDigest(list: readonly object[]): Buffer {
  const out: Buffer[] = [];
  const length = Buffer.alloc(4);
  length.writeUInt32BE(list.length);
  out.push(length);
  let at = 0;
  while (at < list.length) {
    const first = list[at]!;
    const known = chunks.get(first);
    if (known && reusable(known, list, at)) {
      out.push(known.digest);
      at += known.members.length;
      continue;
    }
    const members: object[] = [];
    const digests: Buffer[] = [];
    let closed = false;
    while (at < list.length) {
      const item = list[at++]!;
      const d = itemDigest(item);
      members.push(item);
      digests.push(d);
      if (d[0]! < BOUNDARY) {
        closed = true;
        break;
      }
    }
    const chunk: Chunk = { members, closed, digest: sha256(Buffer.concat(digests)) };
    chunks.set(first, chunk);
    out.push(chunk.digest);
  }
  return sha256(Buffer.concat(out));
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
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return sha256(
    Buffer.concat([
      DOMAIN,
      length,
      header,
      listDigest(cso.established_facts),
      listDigest(cso.decisions),
      listDigest(cso.dependency_graph),
    ]),
  );
}
