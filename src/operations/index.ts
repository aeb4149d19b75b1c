export {
  authorizeToken,
  bearerToken,
  canonPrincipal,
  refuseReservedProject,
  roleAtLeast,
} from './authorize.js';
export type { ClassifierView } from './canon-classifier.js';
export { VALIDATE_ERRORS } from './canon-verify.js';
export { checkBody, inlineRefs } from './check-body.js';
export { instantInput, intQuery, onlyQuery, tokenIdArg } from './input.js';
export type {
  CliBinding,
  Invoker,
  Operation,
  OperationContext,
  OperationInput,
  QueryDoc,
} from './operation.js';
export { PAGE, tokenListQuery } from './page-query.js';
export {
  DEFAULT_REMOTE_TIMEOUT_MS,
  operationPath,
  type RemoteOptions,
  remoteInvoker,
} from './remote.js';
export { localInvoker, principalInvoker, runOperation } from './run.js';
export { BODIES, EXAMPLE_HASH, RESPONSES, ref, SCHEMAS } from './schemas.js';
export { OPERATIONS, operationNamed } from './table.js';
export {
  artifactView,
  BOARD_LIMIT,
  type Board,
  type BoardCount,
  type BoardObject,
  boardOf,
  boardView,
  messageView,
  type ObjectView,
  objectView,
  type ProposalView,
  proposalView,
  versionsView,
} from './views.js';
