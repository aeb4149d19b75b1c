// What a fake model answers: in the intake suites, the whole message as one decision draft; in
// the relay suites, a section and its facts.

/** A classification whose one draft creates `id` with the message's whole text as a decision. */
export function decisionAnswer(text: string, id: string): string {
  return draftsAnswer(text, [{ id, title: 'Release day' }]);
}

/**
 * A classification creating one decision per draft, each quoting the message's whole text (its
 * candidate text the message's unless given). An agent's drafts need `inferred` and `provisional`.
 */
export function draftsAnswer(
  text: string,
  drafts: readonly { id: string; title: string; text?: string }[],
  { confidence = 'asserted', status = 'active' } = {},
): string {
  return JSON.stringify({
    outcome: 'proposed_decision',
    touched: drafts.map((d) => d.id),
    rationale: 'a decision',
    drafts: drafts.map((d) => ({
      object_id: d.id,
      intent: 'create',
      supersedes: [],
      rationale: 'decided',
      candidate: {
        object_type: 'decision',
        title: d.title,
        text: d.text ?? text,
        confidence_state: confidence,
        status,
        visibility: 'project',
        sources: [{ span: [0, text.length], quote: text }],
        dependency_refs: [],
        effective_from: null,
        effective_until: null,
        tags: [],
      },
    })),
  });
}

/**
 * A relay window's answer as a model following the contribution schema writes it: the section
 * done, its facts stated in conversation, nothing else.
 */
export function sectionAnswer(
  section: string,
  facts: readonly { id: string; statement: string }[],
  output = `${section}.`,
): string {
  return JSON.stringify({
    output,
    facts: facts.map((f) => ({
      fact_id: f.id,
      statement: f.statement,
      provenance: 'CONVERSATION',
      provenance_ref: null,
      confidence: 0.9,
      supersedes: [],
    })),
    decisions: [],
    open_questions: [],
    resolved_questions: [],
    constraints: [],
    completed: [section],
    invalidates: [],
    tool_results: [],
  });
}

/** {@link sectionAnswer} with one fact, `f_<section>`. */
export function oneFactAnswer(section: string, statement: string, output?: string): string {
  return sectionAnswer(section, [{ id: `f_${section.toLowerCase()}`, statement }], output);
}
