import type { CanonryError } from '../core/index.js';
import type { CanonObject, MessageVisibility, NoteContent, ProposalIntent, Role } from './types.js';

/** The outcomes of classifying one message (LCSM §4). */
export const CLASSIFICATION_OUTCOMES = [
  'no_effect',
  'candidate_fact',
  'candidate_preference',
  'proposed_decision',
  'contradiction',
  'source',
  'instruction',
  'uncertainty',
  'restore_request',
  'supersede_request',
] as const;
export type ClassificationOutcome = (typeof CLASSIFICATION_OUTCOMES)[number];

/** Who a message came from, as captured. */
export type MessageRole = 'user' | 'assistant' | 'agent' | 'tool' | 'system';

/** A message exactly as it was captured: the archive never changes it. */
export interface ArchivedMessage {
  readonly message_id: string;
  readonly project: string;
  readonly text: string;
  readonly role: MessageRole;
  /** The authenticated principal that submitted it. */
  readonly actor: string;
  readonly actor_role: Role;
  readonly captured_at: string;
  /**
   * Who may read it (§14): the project, or only `actor` (`personal`). Absent only from messages
   * archived before messages had a visibility, which are `project` (reads fill it in).
   */
  readonly visibility?: MessageVisibility;
  /** Journal position of the archive entry. */
  readonly seq: number;
}

/** A mutation a classifier drafts from a message; the runtime turns it into a checked proposal. */
export interface ProposalDraft {
  readonly object_id: string;
  readonly intent: ProposalIntent;
  /** The candidate note; sources are spans of the message being classified. */
  readonly candidate: Omit<NoteContent, 'sources'> & {
    readonly sources: readonly { readonly span: readonly [number, number] }[];
  };
  readonly supersedes?: readonly string[];
  readonly rationale: string;
}

/** What a classifier says about a message. It never mutates canon (§4). */
export interface Classification {
  readonly outcome: ClassificationOutcome;
  /** Objects the message touches (existing ids, or ids a draft would create). */
  readonly touched: readonly string[];
  readonly drafts: readonly ProposalDraft[];
  readonly rationale: string;
  /** Which classifier produced it (`scripted`, `model:<route>`). */
  readonly classifier: string;
}

/** What a classifier is given: the message and the current canon it may touch. */
export interface ClassifierInput {
  readonly message: ArchivedMessage;
  /**
   * Current objects of the project (not superseded or retired ones), for touched-object selection.
   * When `lookup` is given, this is read from it whole on first use: a classifier that can work
   * from the lookup should.
   */
  readonly canon: readonly CanonObject[];
  /** The same objects, looked up by id and by title word (intake's index of the current canon). */
  readonly lookup?: CanonLookup;
}

/**
 * The current canon as a classifier consults it without reading all of it: intake hands the one its
 * process keeps (`current-index.ts`), so a message costs what its words touch, not the canon's size.
 */
export interface CanonLookup {
  /** How many current objects there are. */
  readonly size: number;
  /** A current object by id. */
  get(id: string): CanonObject | undefined;
  /** The current objects with a title word (as `titleWords` finds them, folded) among `words`, by id. */
  titled(words: ReadonlySet<string>): CanonObject[];
  /** Every current object, by id. */
  all(): CanonObject[];
}

/**
 * What a classifier answers: the classification, or the reasons it has none. `outage` is set when
 * the reason is that its model could not be asked (MODEL_UNAVAILABLE, MODEL_BUSY) rather than that
 * the output was bad: intake answers those as the outage they are (502/503), not as bad output.
 */
export type ClassifierResult =
  | { readonly ok: true; readonly value: Classification }
  | { readonly ok: false; readonly issues: readonly string[]; readonly outage?: CanonryError };

/**
 * The classifier port. `scripted` (deterministic rules, the embedded default) and `model` (an
 * OpenAI-compatible model, its output validated as untrusted input) implement it. A classifier whose
 * output is invalid returns the reasons; nothing is committed.
 */
export interface Classifier {
  readonly name: string;
  classify(input: ClassifierInput): Promise<ClassifierResult>;
}
