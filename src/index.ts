/**
 * canonry: governed state for LLM systems. Each module is also its own subpath export
 * (`canonry/core`, `canonry/trust`, `canonry/kernel`, `canonry/store`, `canonry/journal`,
 * `canonry/app`, `canonry/server`).
 */
export * from './app/index.js';
export * from './auth/index.js';
export * from './canon/index.js';
export * from './core/index.js';
export * from './journal/index.js';
export * from './kernel/index.js';
export * from './models/index.js';
export * from './server/index.js';
export * from './store/index.js';
export * from './trust/index.js';
