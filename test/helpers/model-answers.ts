// What a fake model answers in the intake suites: the whole message as one decision draft.

/** A classification whose one draft creates `id` with the message's whole text as a decision. */
export function decisionAnswer(text: string, id: string): string {
  return JSON.stringify({
    outcome: 'proposed_decision',
    touched: [id],
    rationale: 'a decision',
    drafts: [
      {
        object_id: id,
        intent: 'create',
        supersedes: [],
        rationale: 'decided',
        candidate: {
          object_type: 'decision',
          title: 'Release day',
          text,
          confidence_state: 'asserted',
          status: 'active',
          visibility: 'project',
          sources: [{ span: [0, text.length], quote: text }],
          dependency_refs: [],
          effective_from: null,
          effective_until: null,
          tags: [],
        },
      },
    ],
  });
}
