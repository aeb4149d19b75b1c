/** Types of `harness.js` for the TypeScript tests. */
import type { ContextFact } from '../../src/dpe/index.js';
export type Arm = 'AIR adaptive' | 'AIR off' | 'text summary';
export const ARMS: readonly Arm[];
export interface ProtocolTask {
  objective: string;
  sections: string[];
  context: ContextFact[];
}
export interface ArmMeasure {
  windows: {
    repetition: number;
    duplicates: number;
    fabrications: number;
    distortions: number;
    claims: number;
  }[];
  repetition: number;
  duplicateRatio: number;
  fabricationRate: number;
  distortionRate: number;
  claims: number;
  completeness: number;
  flow: number;
  sessionIq: number;
}
export function protocolTask(seed: number, windows: number): ProtocolTask;
export function measureArm(texts: string[], task: ProtocolTask): ArmMeasure;
export function runProtocol(options: {
  baseURL: string;
  modelName?: string;
  windows?: number;
  seed?: number;
  timeoutMs?: number;
  completionTokens?: number;
  log?: (s: string) => void;
}): Promise<{
  model: string;
  baseURL: string;
  windows: number;
  task: ProtocolTask;
  arms: Record<Arm, ArmMeasure & { texts: string[]; iap: number[] }>;
}>;
export function protocolTables(run: Awaited<ReturnType<typeof runProtocol>>): string[];
