/** The `canonry` command's name, description and version, shared by every program built. */
export const PROGRAM = {
  name: 'canonry',
  description: 'governed state for LLM systems: the model proposes, the kernel decides',
  version: '0.1.0',
} as const;
