import { type AnalyseOptions, analyseWindow } from './analyse.js';
import type { DpeInput, WindowSignals } from './types.js';

/**
 * The port a window's judge sits behind. The default is the deterministic engine; a model judge
 * (an LLM asked to attribute claims) implements the same port and must return signals of the same
 * shape, each with its explanation, so AIR and the relay never know which judged.
 */
export interface DpeJudge {
  /** Names the judge in what the relay records (`deterministic`, `model:<name>`). */
  readonly name: string;
  judge(input: DpeInput): Promise<WindowSignals>;
}

/** The deterministic engine as a judge. */
export function deterministicJudge(options?: AnalyseOptions): DpeJudge {
  return {
    name: 'deterministic',
    judge: async (input) => analyseWindow(input, options),
  };
}
