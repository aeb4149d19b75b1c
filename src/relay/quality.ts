import {
  type AirPacket,
  type AirPolicy,
  type AirState,
  airStep,
  initialAirState,
} from '../air/index.js';
import type { ContextFact, DpeJudge, WindowSignals } from '../dpe/index.js';
import { EXTRACTED_CONFIDENCE } from './extract/index.js';
import { UNCAPTURED_CONFIDENCE } from './limits.js';
import type { RelayWindowRecord, WindowKind } from './session-types.js';
import type { CognitiveStateObject, EstablishedFact, GoalState, ToolResult } from './types.js';

/** How many earlier windows' texts a window's repetition is measured against. */
export const REPETITION_WINDOWS = 8;

/** What AIR made of a window, journaled with it so a session's quality history replays. */
export interface WindowQuality {
  readonly policy: AirPolicy;
  /** Who measured the window (`deterministic`, `model:<name>`). */
  readonly judge: string;
  /** AIR's state after this window (what the next window's step starts from). */
  readonly state: AirState;
  /** The IAP built from this window's signals (null when off or at the loop's bound). */
  readonly packet: AirPacket | null;
  /** The text the next window's prompt carries (null when nothing is injected, passive included). */
  readonly injection: string | null;
  readonly tokens: number;
}

/**
 * The facts a window is checked against: the state it was given, and the tool results it used —
 * but not what the relay took over from earlier windows' own prose (CONVERSATION facts of a
 * `window:N` at the confidence the extractor and verification give what they absorb): a model's
 * unsupported claim must not ground its own repetition in a later window.
 */
export function contextOf(
  prior: CognitiveStateObject | null,
  tools: readonly ToolResult[],
): ContextFact[] {
  return [
    ...(prior?.established_facts ?? [])
      .filter((f) => !absorbed(f))
      .map((f) => ({
        id: f.fact_id,
        statement: f.statement,
        source: f.provenance === 'TOOL' ? 'tool' : 'cso',
      })),
    ...tools.map((t) => ({ id: t.scratch_id, statement: t.summary, source: 'tool' })),
  ];
}

/**
 * The DPE's signals for one window (CRP-018 §1–§2.2), from the relay's judge (the deterministic
 * engine unless a model judge was plugged in), and AIR's step over them (§2.1): the IAP the next
 * window carries and the CRP-AIR-* headers. The earlier windows' texts and AIR state come from the
 * session's own records.
 */
export async function windowQuality(
  judge: DpeJudge,
  input: {
    readonly windowNumber: number;
    readonly output: string;
    readonly prior: CognitiveStateObject | null;
    /** The state this window sealed: the next window's context, which AIR's quarantine must not forbid. */
    readonly next: CognitiveStateObject;
    readonly tools: readonly ToolResult[];
    readonly goal: GoalState;
    /** A revision window's remaining items are ids its contribution was held to (see below). */
    readonly kind: WindowKind;
    readonly objective: string;
    readonly earlier: readonly Pick<RelayWindowRecord, 'output' | 'quality'>[];
    readonly policy: AirPolicy;
  },
): Promise<{
  signals: WindowSignals;
  quality: WindowQuality;
  headers: Readonly<Record<string, string>>;
}> {
  const context = contextOf(input.prior, input.tools);
  // A revision window's `remaining` is the decision to revise and what rests on it, as ids: no
  // prose covers an id word for word, so read as text every revision window would score
  // completeness 0 and send a goal residual on. What it had to do was checked on its structure
  // instead — a relayed revision window revised its target (`completeWindow` refuses one that did
  // not), and each dependent gets a revision window of its own — so nothing of it remains to cover.
  const remaining = input.kind === 'revision' ? [] : input.goal.remaining;
  const signals = await judge.judge({
    window_number: input.windowNumber,
    text: input.output,
    context,
    remaining,
    earlier: input.earlier.slice(-REPETITION_WINDOWS).map((w) => w.output.text),
  });
  const previous = input.earlier.at(-1)?.quality?.state ?? initialAirState();
  const step = airStep(
    previous,
    {
      signals,
      context,
      // The tool results this window used stay known: a correction naming one still holds.
      next_context: contextOf(input.next, input.tools),
      task: { objective: input.objective, remaining },
    },
    input.policy,
  );
  return {
    signals,
    quality: {
      policy: step.policy,
      judge: judge.name,
      state: step.state,
      packet: step.packet,
      injection: step.injection,
      tokens: step.tokens,
    },
    headers: step.headers,
  };
}

/** A fact the relay took over from a window's prose rather than from its structured contribution. */
function absorbed(f: EstablishedFact): boolean {
  return (
    f.provenance === 'CONVERSATION' &&
    f.provenance_ref.startsWith('window:') &&
    f.confidence <= Math.max(UNCAPTURED_CONFIDENCE, EXTRACTED_CONFIDENCE)
  );
}
