/** Types of `check.js` for the TypeScript tests. */
import type { AirPacket } from '../../../src/air/index.js';
import type { WindowSignals } from '../../../src/dpe/index.js';
import type { Injection } from './plan.js';
export function words(text: string): string[];
export function key(text: string): string;
export function sixGrams(sentence: string): string[];
export function detected(inj: Injection, signals: WindowSignals): boolean;
export function targeted(inj: Injection, packet: AirPacket | null, prompt: string): boolean | null;
export function promptOf(prepared: { messages: readonly { content: string }[] }): string;
