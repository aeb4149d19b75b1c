import type { ModelPort, ModelRequest, ModelResponse } from '../../models/index.js';
import type {
  CognitiveStateObject,
  Decision,
  EstablishedFact,
  PreparedWindow,
  RelaySessionView,
} from '../../relay/index.js';

/**
 * A deterministic relay author for `canonry relay run --model scripted` and `canonry demo relay`:
 * a model port that answers each window with a valid contribution (the strict
 * `canonry_window_contribution` JSON). A work window writes the next section — one fact that it is
 * drafted and one decision with its rationale resting on that fact — and restates every prior fact;
 * a revision window (§6.2) revises its target given the new fact, keeping what still stands.
 *
 * It reads the window it answers from the relay (what `prepare_window` and `relay_state` give), not
 * from the prompt text, so its answers do not depend on how the prompt is worded.
 */

/** Where the author reads the session it writes for. */
export interface AuthorView {
  prepare(): Promise<PreparedWindow>;
  state(): Promise<RelaySessionView>;
}

/** Lapses a demo asks for, by window number; the plain author makes none. */
export interface AuthorPlot {
  /** This work window forgets one prior fact: verification re-injects it (§5). */
  readonly dropAt?: number;
  /** This work window rewrites the previous section: a new fact supersedes the one its decision rests on. */
  readonly supersedeAt?: number;
}

/** The author's answers name this model. */
export const SCRIPTED_AUTHOR_MODEL = 'canonry-scripted-author';

type Answer = {
  output: string;
  facts: Record<string, unknown>[];
  decisions: Record<string, unknown>[];
  open_questions: string[];
  resolved_questions: string[];
  constraints: string[];
  completed: string[];
  invalidates: string[];
  tool_results: never[];
};

const RATIONALE_CHARS = 1_000;

/** A section's id part: its place in the outline and its name, as relay ids allow. */
function sectionKey(section: string, outline: readonly string[]): string {
  const place = outline.indexOf(section) + 1;
  const slug = section
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return `s${Math.max(place, 0)}${slug ? `_${slug}` : ''}`;
}

type FactLike = Pick<EstablishedFact, 'fact_id' | 'statement' | 'provenance'> & {
  readonly provenance_ref?: string | null;
  readonly confidence?: number | null;
};

const restate = (f: FactLike, extra: { supersedes?: string[] } = {}) => ({
  fact_id: f.fact_id,
  statement: f.statement,
  provenance: f.provenance,
  provenance_ref: f.provenance_ref ?? null,
  confidence: f.confidence ?? null,
  supersedes: extra.supersedes ?? [],
});

const decisionOf = (d: {
  decision_id: string;
  choice: string;
  rationale: string;
  alternatives?: readonly string[];
  depends_on: readonly string[];
  revises?: string;
}) => ({
  decision_id: d.decision_id,
  choice: d.choice,
  rationale: d.rationale.slice(0, RATIONALE_CHARS),
  alternatives: d.alternatives ?? [],
  depends_on: d.depends_on,
  revisable: null,
  provenance: null,
  provenance_ref: null,
  revises: d.revises ?? null,
});

const empty = (): Omit<Answer, 'output' | 'facts' | 'decisions' | 'completed'> => ({
  open_questions: [],
  resolved_questions: [],
  constraints: [],
  invalidates: [],
  tool_results: [],
});

/** The latest fact of this author's a decision rests on: what a rewrite supersedes. */
function rewriteTarget(cso: CognitiveStateObject): EstablishedFact | null {
  const restedOn = new Set(cso.decisions.flatMap((d) => d.depends_on));
  const candidates = cso.established_facts.filter(
    (f) => restedOn.has(f.fact_id) && /^f_s\d+/.test(f.fact_id),
  );
  return candidates.at(-1) ?? null;
}

function workAnswer(
  prepared: PreparedWindow,
  view: RelaySessionView,
  plot: AuthorPlot,
): Answer | null {
  const section = prepared.goal_state.remaining[0];
  if (section === undefined) return null;
  const n = prepared.window_number;
  const cso = view.cso;
  const key = sectionKey(section, view.session.remaining);
  let prior = cso?.established_facts ?? [];
  const facts: Record<string, unknown>[] = [];
  // The text says only what the facts say, so the extractor finds nothing uncaptured in it.
  const lines = [`## ${section}`, '', `Section ${section} is drafted.`];
  if (plot.supersedeAt === n && cso) {
    const old = rewriteTarget(cso);
    if (old) {
      prior = prior.filter((f) => f.fact_id !== old.fact_id);
      facts.push({
        ...restate({
          fact_id: `${old.fact_id}_v2`,
          statement: `${old.statement}, and rewritten in window ${n}`,
          provenance: 'CONVERSATION',
          provenance_ref: null,
          confidence: 1,
        }),
        supersedes: [old.fact_id],
      });
      lines.push(
        `${old.statement[0]!.toUpperCase()}${old.statement.slice(1)}, and rewritten in window ${n}.`,
      );
    }
  }
  if (plot.dropAt === n && prior.length > 0) prior = prior.slice(1);
  facts.unshift(...prior.map((f) => restate(f)));
  facts.push(
    restate({
      fact_id: `f_${key}`,
      statement: `section ${section} is drafted`,
      provenance: 'CONVERSATION',
      provenance_ref: null,
      confidence: 1,
    }),
  );
  return {
    output: lines.join('\n'),
    facts,
    decisions: [
      decisionOf({
        decision_id: `d_${key}`,
        choice: `write ${section} as a section of its own`,
        rationale: `${section} is on the outline of "${view.session.objective.slice(0, 200)}", and its draft now exists`,
        alternatives: [`fold ${section} into another section`],
        depends_on: [`f_${key}`],
      }),
    ],
    completed: [section],
    ...empty(),
  };
}

function revisionAnswer(prepared: PreparedWindow, cso: CognitiveStateObject): Answer | null {
  const target = cso.decisions.find((d) => d.decision_id === prepared.revision_target);
  if (!target) return null;
  const given = /given new fact (\S+)/.exec(prepared.goal_state.objective)?.[1];
  const known = new Set<string>([
    ...cso.established_facts.map((f) => f.fact_id),
    ...cso.decisions.filter((d) => !d.needs_revision).map((d) => d.decision_id),
  ]);
  const newFact = cso.established_facts.find((f) => f.fact_id === given);
  const dependsOn = [
    ...target.depends_on.filter((id) => known.has(id)),
    ...(newFact && !target.depends_on.includes(newFact.fact_id) ? [newFact.fact_id] : []),
  ];
  const revision = (target.revisions ?? 0) + 1;
  return {
    output: newFact
      ? `Revisiting ${target.decision_id} now that ${newFact.statement}: the choice still holds.`
      : `Revisiting ${target.decision_id}: its premise changed, and the choice still holds.`,
    facts: cso.established_facts.map((f) => restate(f)),
    decisions: [
      decisionOf({
        decision_id: `${baseId(target)}_r${revision}`,
        choice: target.choice,
        rationale: newFact
          ? `${newFact.statement}; the choice still holds: ${target.rationale}`
          : `its premise changed; the choice still holds: ${target.rationale}`,
        alternatives: target.alternatives,
        depends_on: dependsOn,
        revises: target.decision_id,
      }),
    ],
    completed: [],
    ...empty(),
  };
}

/** A revised decision's line keeps one base id: `d_s3_r2`, not `d_s3_r1_r2`. */
const baseId = (d: Decision) => d.decision_id.replace(/_r\d+$/, '');

/** The scripted relay author as a model port (route `scripted`). */
export function scriptedAuthor(view: AuthorView, plot: AuthorPlot = {}): ModelPort {
  return {
    route: 'scripted',
    async complete(_request: ModelRequest): Promise<ModelResponse> {
      const prepared = await view.prepare();
      const state = await view.state();
      const answer =
        prepared.kind === 'revision' && state.cso
          ? revisionAnswer(prepared, state.cso)
          : workAnswer(prepared, state, plot);
      const fallback: Answer = {
        output: 'Nothing is left to write.',
        facts: (state.cso?.established_facts ?? []).map((f) => restate(f)),
        decisions: [],
        completed: [],
        ...empty(),
      };
      return { text: JSON.stringify(answer ?? fallback), model: SCRIPTED_AUTHOR_MODEL };
    },
  };
}
