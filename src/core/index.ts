export { Backoff, type BackoffOptions } from './backoff.js';
export {
  canonicalBytes,
  canonicalize,
  canonicalizeFixed,
  canonicalString,
  type JsonObject,
  type JsonValue,
  MAX_CANONICAL_DEPTH,
} from './canonical-json.js';
export { compareCodeUnits } from './compare.js';
export {
  CanonryError,
  ERROR_CODES,
  type ErrorCode,
  type ErrorDetails,
  httpStatusOf,
  isCanonryError,
  toCanonryError,
} from './errors.js';
export { errnoCause, errnoOf, isNoSpace } from './file-errors.js';
export {
  type ContentHash,
  contentHash,
  hashBytes,
  isContentHash,
  parseContentHash,
  sha256Hex,
} from './hash.js';
export { parseInstant } from './instant.js';
export {
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_JSON_KEYS,
  DEFAULT_MAX_JSON_VALUES,
  duplicateMemberName,
  type JsonTextLimits,
  type JsonTextShape,
  jsonTextDepth,
  jsonTextShape,
  parseJsonText,
} from './json-text.js';
export { LruCache } from './lru.js';
export { makeDirectory } from './make-directory.js';
export { isProjectName, PROJECT_NAME } from './project-name.js';
export { fail, ok, type Result } from './result.js';
export { TextCache } from './text-cache.js';
export { headOf } from './text-head.js';
export { spawnThread } from './thread.js';
export { countTokens, TOKEN_ENCODING } from './tokens.js';
export { nextTurn, TurnPacer } from './turn.js';
