/** Token counting lives in core (every module budgets with it); models re-exports it for callers. */
export { countTokens, TOKEN_ENCODING } from '../core/index.js';
