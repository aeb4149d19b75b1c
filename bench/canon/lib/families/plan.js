// @ts-check
/**
 * Which family scenarios are written, with which seed. Pure: no runtime is consulted, so the
 * expectations are the generators' own.
 */
import { hash32, Rng } from '../rng.js';
import { staleApproval } from './approvals.js';
import { cascade, MOVES } from './cascade.js';
import { dispute } from './disputes.js';
import { HEDGES, hedged } from './hedged.js';
import { TOOL_CASES, toolCorrection } from './tools.js';

export const FAMILY_SEED = 20261202;

/** The scenario plan: family, id, and how to write it. @returns {{ id: string, family: string, write: (rng: Rng) => any }[]} */
function plan() {
  /** @type {{ id: string, family: string, write: (rng: Rng) => any }[]} */
  const out = [];
  for (let depth = 1; depth <= 5; depth++)
    for (let k = 1; k <= 3; k++) {
      // Each way a fact moves, in turn: a correction, a restore, a successor, a dispute.
      const how = /** @type {(typeof MOVES)[number]} */ (
        MOVES[((depth - 1) * 3 + k - 1) % MOVES.length]
      );
      out.push({
        id: `cascade-d${depth}-${k}-${how}`,
        family: 'cascade',
        write: (r) => cascade(r, depth, how),
      });
    }
  for (const resolved of [false, true])
    for (let k = 1; k <= 4; k++)
      out.push({
        id: `dispute-${resolved ? 'resolved' : 'open'}-${k}`,
        family: 'dispute',
        write: (r) => dispute(r, resolved),
      });
  for (const form of HEDGES)
    for (let k = 1; k <= 2; k++)
      out.push({ id: `hedged-${form}-${k}`, family: 'hedged', write: (r) => hedged(r, form) });
  for (const kind of TOOL_CASES)
    for (let k = 1; k <= (kind === 'user-fact' ? 2 : 3); k++)
      out.push({ id: `tool-${kind}-${k}`, family: 'tool', write: (r) => toolCorrection(r, kind) });
  for (const ack of [false, true])
    for (let k = 1; k <= 4; k++)
      out.push({
        id: `approval-${ack ? 'acknowledged' : 'blind'}-${k}`,
        family: 'approval',
        write: (r) => staleApproval(r, ack),
      });
  return out;
}

/** Writes every family scenario (pure: no runtime is consulted). */
export function generateFamilies() {
  return plan().map(({ id, family, write }) => {
    const seed = hash32(`${FAMILY_SEED}:${id}`);
    const s = write(new Rng(seed));
    return { id, family, seed, project: `fam-${id}`, ...s };
  });
}
