import { type ContentHash, isContentHash, type JsonObject } from '../core/index.js';
import type { EvolutionIssueCode } from './issues.js';

/**
 * Readers for hostile input. Each returns the value it checked or throws a {@link FieldError} naming
 * the field; the parsers catch it once and turn it into an issue with their own code.
 */
export class FieldError extends Error {
  constructor(
    readonly path: string,
    message: string,
    readonly code?: EvolutionIssueCode,
  ) {
    super(message);
  }
}

/** Ids, names, tags, versions: 1–256 visible ASCII characters. */
const ID = /^[\x21-\x7e]{1,256}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** At most this many members in one set. */
export const MAX_SET = 1_024;

/**
 * Member names that JavaScript reads as something else: set on an object, `__proto__` replaces its
 * prototype, so what it holds would be read as the object's fields without being its own (and
 * without being signed). No event, asset or policy has such a member.
 */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

export function record(value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FieldError(path, 'must be an object');
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    throw new FieldError(path, 'must be a plain JSON object');
  }
  for (const key of RESERVED) {
    if (Object.hasOwn(value, key)) throw new FieldError(join(path, key), 'is a reserved name');
  }
  return value as Record<string, unknown>;
}

/** Refuses any member not in `known`. */
export function knownKeys(
  value: Record<string, unknown>,
  known: ReadonlySet<string>,
  path: string,
): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) throw new FieldError(join(path, key), 'is not a field of this object');
  }
}

export function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

export function id(value: unknown, path: string): string {
  if (typeof value !== 'string' || !ID.test(value)) {
    throw new FieldError(path, 'must be 1-256 visible ASCII characters');
  }
  return value;
}

export function optionalId(value: unknown, path: string): string | undefined {
  return value === undefined ? undefined : id(value, path);
}

export function uuid(value: unknown, path: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw new FieldError(path, 'must be a lowercase RFC 9562 UUID');
  }
  return value;
}

export function hash(value: unknown, path: string): ContentHash {
  if (!isContentHash(value)) throw new FieldError(path, 'must be sha256:<64 lowercase hex>');
  return value;
}

export function oneOf<T extends string>(value: unknown, list: readonly T[], path: string): T {
  if (typeof value !== 'string' || !(list as readonly string[]).includes(value)) {
    throw new FieldError(path, `must be one of ${list.join(', ')}`);
  }
  return value as T;
}

export function timestamp(value: unknown, path: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw new FieldError(path, 'must be a non-negative integer (milliseconds since the epoch)');
  }
  return value as number;
}

export function unit(value: unknown, path: string): number {
  if (typeof value !== 'number' || !(value >= 0 && value <= 1)) {
    throw new FieldError(path, 'must be a number from 0 to 1');
  }
  return value;
}

export function text(value: unknown, path: string, max: number): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new FieldError(path, `must be a string of 1-${max} characters`);
  }
  if (!value.isWellFormed()) throw new FieldError(path, 'must not hold a lone surrogate');
  return value;
}

/** A list of ids, any order, at most {@link MAX_SET}. */
export function idList(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) throw new FieldError(path, 'must be an array');
  if (value.length > MAX_SET) throw new FieldError(path, `must hold at most ${MAX_SET} items`);
  return value.map((item, i) => id(item, join(path, i)));
}

/**
 * A set of ids. `canonical`: it must already be sorted and without duplicates (an event's form, so
 * one event has one encoding); otherwise it is sorted and deduplicated.
 */
export function idSet(value: unknown, path: string, canonical: boolean): string[] {
  const list = idList(value, path);
  return canonical ? sortedUnique(list, path) : [...new Set(list)].sort();
}

export function sortedUnique<T extends string>(list: T[], path: string): T[] {
  for (let i = 1; i < list.length; i++) {
    if (!(list[i - 1]! < list[i]!)) {
      throw new FieldError(join(path, i), 'the set must be sorted and without duplicates');
    }
  }
  return list;
}

const MAX_OUTCOME_DEPTH = 32;
const MAX_OUTCOME_VALUES = 10_000;

/** A JSON object of bounded depth and size: finite numbers, well-formed strings, plain objects. */
export function jsonObject(value: unknown, path: string): JsonObject {
  record(value, path);
  let count = 0;
  const walk = (v: unknown, at: string, depth: number): void => {
    if (++count > MAX_OUTCOME_VALUES) throw new FieldError(path, 'holds too many values');
    if (depth > MAX_OUTCOME_DEPTH) throw new FieldError(at, 'is nested too deeply');
    if (v === null || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new FieldError(at, 'must be a finite number');
      return;
    }
    if (typeof v === 'string') {
      if (!v.isWellFormed()) throw new FieldError(at, 'must not hold a lone surrogate');
      return;
    }
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) walk(v[i], join(at, i), depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(record(v, at))) {
      if (!key.isWellFormed()) throw new FieldError(at, 'a member name holds a lone surrogate');
      walk(item, join(at, key), depth + 1);
    }
  };
  walk(value, path, 0);
  return value as JsonObject;
}
