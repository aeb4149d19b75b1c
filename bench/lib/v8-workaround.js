// @ts-check
/**
 * Node 20 (V8 11.3) aborts with "Fatal error … unreachable code" in
 * Deoptimizer::DoComputeBuiltinContinuation when TurboFan has inlined a JS→Wasm call (cedar-wasm's
 * bindings) and later deoptimizes it; engines.js hit it reliably in its third round. Turning that
 * inlining off only removes the call-wrapper inlining, which is negligible next to a Cedar call.
 * Import this module before @cedar-policy/cedar-wasm.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-turbo-inline-js-wasm-calls');
