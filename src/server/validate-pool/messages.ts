import type { ContentHash, ErrorDetails } from '../../core/index.js';
import type { Decision } from '../../kernel/index.js';

/** A typed error as it crosses between threads (a CanonryError cannot be cloned as itself). */
export interface WireError {
  readonly code: string;
  readonly message: string;
  readonly details?: ErrorDetails;
  /** For INTERNAL only: what was thrown, for the server's log (never sent to a client). */
  readonly cause?: string;
}

/** From the server's thread to an evaluation thread. */
export type ToWorker =
  /** One request body, its bytes transferred (not copied). */
  | { readonly type: 'decide'; readonly id: number; readonly bytes: ArrayBuffer }
  /** The answer to a `source` question: a registered bundle, or why there is none. */
  | { readonly type: 'source'; readonly hash: ContentHash; readonly bundle: unknown }
  | { readonly type: 'source'; readonly hash: ContentHash; readonly error: WireError };

/** From an evaluation thread to the server's thread. */
export type FromWorker =
  /** The thread has loaded its program (the watchdog counts from here, not from the start). */
  | { readonly type: 'ready' }
  | { readonly type: 'decided'; readonly id: number; readonly decision: Decision }
  | { readonly type: 'refused'; readonly id: number; readonly error: WireError }
  /** The thread needs the bundle registered under `hash` (it compiles and keeps it itself). */
  | { readonly type: 'source'; readonly hash: ContentHash };
