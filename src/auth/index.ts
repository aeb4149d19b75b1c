export { AUTH_MIGRATIONS } from './schema.js';
export {
  type AuthPrincipal,
  checkTokenGrant,
  TOKEN_ID,
  TOKEN_ROLES,
  type TokenEvent,
  type TokenInfo,
  type TokenPageQuery,
  type TokenRecorder,
  type TokenRole,
  TokenStore,
  tokenIdArg,
} from './tokens.js';
