import { CanonryError, type ContentHash, contentHash, type JsonValue } from '../core/index.js';
import type { ConformanceEvent } from './event.js';
import type { Kernel } from './kernel.js';
import type { RouteStatus, Switchboard } from './switchboard.js';

/** What an objective hands back: its artifact and, optionally, how it was generated. */
export interface ObjectiveOutput {
  readonly artifact: unknown;
  /** Model, prompt and sampling details; hashed into the conformance event, never judged. */
  readonly metadata?: JsonValue;
}

/** What an objective is given. */
export interface ObjectiveContext {
  /** The run's input for the first objective; the previous conformant step for later ones. */
  readonly input: unknown;
  readonly step: number;
  readonly previous: StepRecord | null;
}

/** A unit of work (a plain function or a model call). It produces an artifact; it decides nothing. */
export type Objective = (context: ObjectiveContext) => Promise<ObjectiveOutput> | ObjectiveOutput;

/** One step of a run, as the operator saw it. */
export interface StepRecord {
  readonly step: number;
  readonly objective: string;
  readonly status: RouteStatus;
  readonly label: string | null;
  readonly next: string;
  /** False when the safe terminal was taken because nothing was mapped. */
  readonly mapped: boolean;
  readonly artifact: unknown;
  readonly artifact_hash: ContentHash | null;
  readonly event: ConformanceEvent | null;
}

/** How a run ended. */
export interface RunResult {
  readonly terminal: string;
  readonly steps: readonly StepRecord[];
  /** Set when the run stopped because it reached `maxSteps`. */
  readonly exhausted: boolean;
}

/** Options for an {@link Operator}. */
export interface OperatorOptions {
  readonly kernel: Kernel;
  readonly switchboard: Switchboard;
  readonly objectives: Readonly<Record<string, Objective>>;
  readonly maxSteps?: number;
  readonly onStep?: (step: StepRecord) => void;
}

/**
 * The control loop of TCP/AP §8. It runs the current objective, has the kernel judge its artifact,
 * and follows the switchboard; it holds no policy. Only a conformant verdict can reach another
 * objective, so a failed, invalid or drifting step ends before any later side effect.
 */
export class Operator {
  readonly #kernel: Kernel;
  readonly #board: Switchboard;
  readonly #objectives: Readonly<Record<string, Objective>>;
  readonly #maxSteps: number;
  readonly #onStep: ((step: StepRecord) => void) | undefined;

  constructor({ kernel, switchboard, objectives, maxSteps = 64, onStep }: OperatorOptions) {
    for (const [name, decl] of Object.entries(switchboard.spec.objectives)) {
      if (typeof objectives[name] !== 'function') {
        throw new CanonryError('INVALID_SWITCHBOARD', `no implementation for objective ${name}`);
      }
      kernel.registry.cached(decl.protocol);
    }
    this.#kernel = kernel;
    this.#board = switchboard;
    this.#objectives = objectives;
    this.#maxSteps = maxSteps;
    this.#onStep = onStep;
  }

  /** Runs from the switchboard's start until a terminal (or `maxSteps`, ending at the safe terminal). */
  async run(input: unknown): Promise<RunResult> {
    const steps: StepRecord[] = [];
    let current = this.#board.spec.start;
    let previous: StepRecord | null = null;
    for (let step = 1; step <= this.#maxSteps; step++) {
      const record = await this.#step(current, step, input, previous);
      steps.push(record);
      this.#onStep?.(record);
      if (this.#board.isTerminal(record.next)) {
        return { terminal: record.next, steps, exhausted: false };
      }
      previous = record;
      current = record.next;
    }
    return { terminal: this.#board.spec.safe_terminal, steps, exhausted: true };
  }

  async #step(
    objective: string,
    step: number,
    input: unknown,
    previous: StepRecord | null,
  ): Promise<StepRecord> {
    const output = await this.#produce(objective, step, input, previous);
    if (output === null) {
      const route = this.#board.route(objective, 'ERROR', null);
      return {
        step,
        objective,
        status: 'ERROR',
        label: null,
        next: route.next,
        mapped: route.mapped,
        artifact: null,
        artifact_hash: null,
        event: null,
      };
    }
    const protocol = await this.#kernel.registry.get(
      this.#board.spec.objectives[objective]!.protocol,
    );
    const { verdict, event } = this.#kernel.evaluate(
      output.artifact,
      protocol,
      output.metadataHash,
    );
    const route = this.#board.route(objective, verdict.class, verdict.label);
    return {
      step,
      objective,
      status: verdict.class,
      label: verdict.label,
      next: route.next,
      mapped: route.mapped,
      artifact: output.artifact,
      artifact_hash: verdict.artifactHash,
      event,
    };
  }

  /** Runs one objective; a throw, a non-object result or unhashable metadata all count as ERROR. */
  async #produce(
    objective: string,
    step: number,
    input: unknown,
    previous: StepRecord | null,
  ): Promise<{ artifact: unknown; metadataHash: ContentHash } | null> {
    try {
      const output = await this.#objectives[objective]!({ input, step, previous });
      if (typeof output !== 'object' || output === null) return null;
      return { artifact: output.artifact, metadataHash: contentHash(output.metadata ?? {}) };
    } catch {
      return null;
    }
  }
}
