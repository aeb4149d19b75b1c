export { aggregate, cumulativeRepetition, initialAirState } from './aggregate.js';
export { type AirStep, airStep } from './air.js';
export { assemble, DROP_ORDER, fullShape, type Knob, type Shape } from './assemble.js';
export { type FittedPacket, fitToBudget } from './budget.js';
export { type Candidates, candidatesFor, type OfferedFact } from './candidates.js';
export { detect } from './detect.js';
export { type AirHeaders, airHeaders } from './headers.js';
export { type AirInput, checkAirInput } from './input.js';
export {
  type AirOptions,
  parseAirBudget,
  parseAirMode,
  parseSafetyPolicy,
  resolveAirPolicy,
  type SafetyPolicy,
} from './policy.js';
export { type RefittedPacket, refitPacket } from './refit.js';
export { renderPacket } from './render.js';
export {
  AIR_PACKET_SCHEMA,
  AIR_STATE_SCHEMA,
  IAP_SCHEMA,
  IAP_SCHEMA_VERSION,
  parseAirPacket,
  parseAirState,
  parseIap,
} from './schema.js';
export { fabricationRate, type SessionIqInputs, sessionIq } from './session-iq.js';
export {
  ADAPTIVE_SIZES,
  AGGRESSIVE_SIZES,
  AGGRESSIVE_THRESHOLDS,
  AIR_LIMITS,
  AIR_THRESHOLDS,
  type AirThresholds,
  DEFAULT_AIR_POLICY,
  DEFAULT_IAP_BUDGET,
  FRESHNESS_DECAY,
  FRESHNESS_FLOOR,
  type InjectionSizes,
  sizesFor,
  thresholdsFor,
} from './thresholds.js';
export * from './types.js';
