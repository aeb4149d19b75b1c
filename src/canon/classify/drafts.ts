import type { CanonLookup, ProposalDraft } from '../classification.js';
import type { ConfidenceState, ObjectStatus, ObjectType, ProposalIntent } from '../types.js';
import type { SubjectConfig } from './config.js';
import { type CueHit, type CueTier, citesSource } from './cues.js';
import { deriveSubject } from './derive.js';

/** A configured subject, compiled: its id, config and keyword pattern. */
export interface Subject {
  readonly id: string;
  readonly config: SubjectConfig;
  readonly pattern: RegExp | null;
}

/** Everything a draft is made from. */
export interface DraftContext {
  readonly tier: CueTier;
  readonly hits: readonly CueHit[];
  /** Assistant, agent or tool: drafts are provisional and inferred. */
  readonly machine: boolean;
  readonly role: string;
  readonly canon: Pick<CanonLookup, 'get'>;
  /** All touched ids (subjects and canon objects), sorted. */
  readonly touched: readonly string[];
}

/** `sourced` only for a fact whose sentence cites a source (a configured fact cue is not a citation). */
function confidence(ctx: DraftContext, sentence: string): ConfidenceState {
  if (ctx.tier.kind === 'fact' && citesSource(sentence)) return 'sourced';
  if (ctx.tier.kind === 'uncertainty') return 'uncertain';
  return ctx.machine ? 'inferred' : 'asserted';
}

function status(ctx: DraftContext): ObjectStatus {
  if (ctx.tier.kind === 'contradiction') return 'disputed';
  return ctx.machine ? 'provisional' : 'active';
}

/** The touched current objects a new subject's draft supersedes: those of the subject's type. */
function supersededBy(subject: Subject, ctx: DraftContext): string[] {
  return ctx.touched.filter(
    (id) => id !== subject.id && ctx.canon.get(id)?.object_type === subject.config.object_type,
  );
}

/** One draft for a touched subject, or null when the tier makes none for it. */
function draftFor(
  subject: Subject,
  ctx: DraftContext,
  superseded: ReadonlySet<string>,
): ProposalDraft | null {
  const current = ctx.canon.get(subject.id);
  let intent: ProposalIntent = current === undefined ? 'create' : 'update';
  let supersedes: string[] = [];
  switch (ctx.tier.kind) {
    case 'restore':
      intent = 'restore';
      break;
    case 'contradiction':
      if (current?.status !== 'active') return null;
      intent = 'dispute';
      break;
    case 'supersede':
      if (current !== undefined && superseded.has(subject.id)) return null;
      if (current === undefined) supersedes = supersededBy(subject, ctx);
      if (supersedes.length > 0) intent = 'supersede';
      break;
  }
  // Only a sentence that both carries the cue and names the subject may change it: a subject merely
  // mentioned elsewhere in the message is not rewritten with another subject's sentence.
  const hit = ctx.hits.find((h) => subject.pattern?.test(h.sentence.text));
  if (hit === undefined) return null;
  let objectType: ObjectType =
    ctx.tier.object_type ?? current?.object_type ?? subject.config.object_type;
  if (ctx.tier.kind === 'uncertainty' && hit.sentence.text.endsWith('?')) objectType = 'question';
  return {
    object_id: subject.id,
    intent,
    candidate: candidateOf(ctx, hit, objectType, subject.config.title, subject.config.tags ?? []),
    ...(intent === 'supersede' ? { supersedes } : {}),
    rationale: `${intent} ${subject.id}: ${ctx.tier.kind} cue "${hit.cue}" in a message from ${ctx.role}`,
  };
}

/** A draft's candidate: the cue sentence itself, sourced on its span, as the message's role may hold it. */
function candidateOf(
  ctx: DraftContext,
  hit: DraftContext['hits'][number],
  objectType: ObjectType,
  title: string,
  tags: readonly string[],
): ProposalDraft['candidate'] {
  return {
    object_type: objectType,
    title,
    text: hit.sentence.text,
    shape: null,
    confidence_state: confidence(ctx, hit.sentence.text),
    status: status(ctx),
    visibility: 'project',
    sources: [{ span: [hit.sentence.start, hit.sentence.end] }],
    dependency_refs: [],
    effective_from: null,
    effective_until: null,
    tags: [...tags],
  };
}

/** The drafts for the touched subjects (sorted by id), per the documented rules. */
export function makeDrafts(subjects: readonly Subject[], ctx: DraftContext): ProposalDraft[] {
  const superseded = new Set<string>();
  if (ctx.tier.kind === 'supersede') {
    for (const s of subjects) {
      if (ctx.canon.get(s.id) === undefined)
        for (const id of supersededBy(s, ctx)) superseded.add(id);
    }
  }
  const drafts: ProposalDraft[] = [];
  for (const subject of subjects) {
    const draft = draftFor(subject, ctx, superseded);
    if (draft !== null) drafts.push(draft);
  }
  return drafts;
}

/** At most this many drafts are derived from one message (one per cue sentence). */
export const MAX_DERIVED = 8;

/**
 * Drafts for a message that touches no configured subject (the rule of `deriveSubject`): one per cue
 * sentence, up to {@link MAX_DERIVED}, each creating (or, said again, updating) the note its
 * sentence derives. A supersede cue's new note supersedes the touched current objects of its type.
 */
export function derivedDrafts(ctx: DraftContext): ProposalDraft[] {
  const type: ObjectType = ctx.tier.object_type ?? 'decision';
  const drafts: ProposalDraft[] = [];
  const seen = new Set<string>();
  for (const hit of ctx.hits) {
    if (drafts.length >= MAX_DERIVED) break;
    const { id, title } = deriveSubject(hit, type);
    if (seen.has(id)) continue;
    seen.add(id);
    const current = ctx.canon.get(id);
    const replaced =
      ctx.tier.kind === 'supersede' && current === undefined
        ? ctx.touched.filter((t) => t !== id && ctx.canon.get(t)?.object_type === type)
        : [];
    const intent: ProposalIntent =
      replaced.length > 0 ? 'supersede' : current === undefined ? 'create' : 'update';
    drafts.push({
      object_id: id,
      intent,
      candidate: candidateOf(ctx, hit, current?.object_type ?? type, current?.title ?? title, []),
      ...(intent === 'supersede' ? { supersedes: replaced } : {}),
      rationale: `${intent} ${id} (derived from the sentence: no subject configured for it): ${ctx.tier.kind} cue "${hit.cue}" in a message from ${ctx.role}`,
    });
  }
  return drafts;
}
