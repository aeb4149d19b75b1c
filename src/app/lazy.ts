import type { CanonryConfig, ConfigInput } from './config.js';
import type { CanonryRuntime, RuntimeOptions } from './create-canonry.js';
import type { StoryResult, StoryStep } from './lcsm-story.js';

// The runtime's modules (kernel, canon, classifiers, models) load on first use, not when `app` is
// imported: commands that only open the token store (`canonry tokens …`) never pay for them.

/** {@link import('./create-canonry.js').createCanonry}, loading the runtime's modules on first call. */
export async function createCanonry(
  input: ConfigInput | CanonryConfig = {},
  options: RuntimeOptions = {},
): Promise<CanonryRuntime> {
  return (await import('./create-canonry.js')).createCanonry(input, options);
}

/** {@link import('./lcsm-story.js').runLcsmStory}, loaded on first call. */
export async function runLcsmStory(
  runtime: CanonryRuntime,
  onStep?: (step: StoryStep) => void,
): Promise<StoryResult> {
  return (await import('./lcsm-story.js')).runLcsmStory(runtime, onStep);
}

/** {@link import('./classifiers.js').describeClassifier}, loaded on first call. */
export async function describeClassifier(
  runtime: CanonryRuntime,
): Promise<{ fields: Record<string, unknown>; text: string }> {
  return (await import('./classifiers.js')).describeClassifier(runtime);
}
