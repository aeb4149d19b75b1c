// Minimal face so AIR can import the DPE's types through index.ts; the DPE's own index supersedes it.
export {
  ATTRIBUTIONS,
  type Attribution,
  type ClaimSignal,
  type CompletenessSignal,
  type ContextFact,
  CONTRADICTIONS,
  type Contradiction,
  type ContradictionSignal,
  type DpeInput,
  type RepetitionSignal,
  type WindowSignals,
} from './types.js';
