import { SchemaError } from './schema-error.js';
import type { SchemaNode } from './types.js';

/**
 * Refuses schemas that would apply themselves to the same instance location forever: a cycle of
 * in-place applicators (`$ref`, `allOf`, `not`, `if`…) that never steps into the instance.
 */
export function assertNoInPlaceCycle(nodes: Iterable<SchemaNode>): void {
  const DONE = 2;
  const ACTIVE = 1;
  const state = new Map<SchemaNode, number>();
  for (const start of nodes) {
    if (state.has(start)) continue;
    // Depth-first with an explicit stack of [node, index of the next in-place child to visit].
    const stack: [SchemaNode, number][] = [[start, 0]];
    state.set(start, ACTIVE);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [node, next] = top;
      if (next >= node.inPlace.length) {
        state.set(node, DONE);
        stack.pop();
        continue;
      }
      top[1] = next + 1;
      const target = node.inPlace[next]!;
      if (typeof target === 'boolean') continue;
      const seen = state.get(target);
      if (seen === ACTIVE) {
        throw new SchemaError(
          target.path.startsWith('#') ? target.path.slice(1) : '',
          `the schema at ${target.path} applies itself to the same value without end ($ref cycle)`,
        );
      }
      if (seen === undefined) {
        state.set(target, ACTIVE);
        stack.push([target, 0]);
      }
    }
  }
}
