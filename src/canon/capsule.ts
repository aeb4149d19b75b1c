import type { DisputedNote } from './disputes.js';
import type { WorkingNote, WorkingSet } from './working-set.js';

type Mutation = WorkingSet['prior_mutations'][number];

/**
 * One note: `id vN [status] confidence type: text`, then how it became current, who stands behind
 * it, and its exact source. Tokens are what the capsule is for, so nothing is said twice and
 * adjectives replace brackets and commas: the status only when it is not
 * `active`, the mutation's target version is the note's own and its base the version before (named
 * only if it were not), a quote equal to the text is a bare span.
 */
function line(n: WorkingNote, how: Mutation | undefined): string {
  const cites = n.sources.map((s) => {
    const span = `${s.message_id}[${s.span[0]}:${s.span[1]}]`;
    return s.quote === n.text ? span : `${span} "${s.quote}"`;
  });
  const status = n.status === 'active' ? '' : `${n.status} `;
  let change = '';
  if (how) {
    const of = how.restored_version !== null ? ` of v${how.restored_version}` : '';
    const from =
      how.from_version !== null && how.from_version !== n.version_id - 1
        ? ` from v${how.from_version}`
        : '';
    // A resolved dispute says why its claim stands: the reason a later reader must not undo.
    const settled = how.resolution
      ? ` (stands: ${how.resolution.rationale}; ${how.resolution.set_aside} claim(s) set aside)`
      : '';
    change = `${how.stakes} ${how.intent}${settled}${of}${from} `;
  }
  return [
    `- ${n.object_id} v${n.version_id} ${status}${n.confidence} ${n.object_type}: ${n.text}`,
    `  ${change}by ${n.authority}${cites.length ? `; source ${cites.join(', ')}` : ''}`,
  ].join('\n');
}

/** Cites a source span, with its quote when the quote is not the statement itself. */
function cite(s: WorkingNote['sources'][number], statement: string): string {
  const span = `${s.message_id}[${s.span[0]}:${s.span[1]}]`;
  return s.quote === statement ? span : `${span} "${s.quote}"`;
}

/**
 * A disputed object: its heading, then each claim once with who holds it and on what source. No
 * claim is written as the note's text, so none reads as current canon.
 */
function disputeLines(d: DisputedNote): string[] {
  return [
    `- ${d.object_id} v${d.version_id} ${d.object_type} "${d.title}": disputed, ${d.claims.length} claim(s), none is canon`,
    ...d.claims.map((c) => {
      const who = c.held_by
        .map((h) => {
          const cites = h.sources.map((s) => cite(s, c.statement));
          return `${h.principal}/${h.role} ${h.confidence_state}${cites.length ? ` (source ${cites.join(', ')})` : ''}`;
        })
        .join('; ');
      return `  ${c.claim_id ?? 'claim'}: "${c.statement}" held by ${who}`;
    }),
  ];
}

/** The prompt capsule: the working set as text a model reads instead of the transcript. */
export function renderCapsule(set: Omit<WorkingSet, 'capsule' | 'tokens'>): string {
  // The objective is the caller's own text: the capsule does not spend tokens repeating it.
  const out = [
    `# Working set: project ${set.project}`,
    'Authoritative current canon; superseded positions omitted: do not revive them.',
  ];
  const how = new Map(set.prior_mutations.map((m) => [m.object_id, m]));
  const notes = (rows: readonly WorkingNote[]) => rows.map((n) => line(n, how.get(n.object_id)));
  const section = (title: string, rows: readonly string[]) => {
    if (rows.length > 0) out.push('', `## ${title}`, ...rows);
  };
  section(
    'Needs revision: rests on something that moved (not current canon until revised)',
    set.needs_revision.map(
      (n) => `${line(n, how.get(n.object_id))}\n  needs revision: ${n.cause} (depth ${n.depth})`,
    ),
  );
  section('Current notes', notes(set.notes));
  section('Applicable policy and constraints', notes(set.policies));
  section('Active dependencies', notes(set.dependencies));
  section(
    'Dependencies out of effect (not current canon)',
    set.lapsed_dependencies.map(
      (l) =>
        `- ${l.object_id} depends on ${l.depends_on}: ${l.effective === 'expired' ? `expired ${l.since}` : `not in effect until ${l.since}`}`,
    ),
  );
  section(
    'Open contradictions and pending proposals (not canon)',
    set.contradictions.map(
      (c) => `- ${c.object_id}: ${c.status}${c.needs ? ` (needs ${c.needs})` : ''}: ${c.text}`,
    ),
  );
  section('Disputed (competing claims, none is current canon)', set.disputes.flatMap(disputeLines));
  section('Open uncertainty', notes(set.uncertainty));
  section(
    'Artifacts',
    set.artifacts.map(
      (a) =>
        `- ${a.artifact_id}: ${a.state}, ${a.acceptance}${a.reasons.length ? ` — ${a.reasons.join('; ')}` : ''}`,
    ),
  );
  return out.join('\n');
}
