/** Types of hostile.js (plain JavaScript, shared by the benches and the tests). */
/** The generation-metadata hash of `{}`. */
export const EMPTY_METADATA_HASH: string;
export interface HostileBody {
  artifact: unknown;
  agentic_protocol: Record<string, unknown>;
  generation_metadata_hash: string;
}
export interface HostileCase {
  name: string;
  body: HostileBody;
}
export function backtrackingRegex(chars: number): HostileCase;
export function refFanOut(depth: number): HostileCase;
export function nestedAllOf(depth: number): HostileCase;
export function hugeEnum(members: number, items: number): HostileCase;
export function uniqueObjects(count: number): HostileCase;
export function manyPatterns(patterns: number, keys: number): HostileCase;
export function nestedIterators(depth: number, length: number): HostileCase;
export function mergingReduce(length: number): HostileCase;
export function worstCases(): HostileCase[];
