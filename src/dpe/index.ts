// Minimal face so AIR can import the DPE's types through index.ts; the DPE's own index supersedes it.
export {
  ATTRIBUTIONS,
  type Attribution,
  type ClaimSignal,
  CONTRADICTIONS,
  type CompletenessSignal,
  type ContextFact,
  type Contradiction,
  type ContradictionSignal,
  type DpeInput,
  type RepetitionSignal,
  type WindowSignals,
} from './types.js';
