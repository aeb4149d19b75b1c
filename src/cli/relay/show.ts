import type { RelaySessionView, RelayWindowRecord } from '../../relay/index.js';
import { figuresLine, figuresOf } from './session.js';

const clip = (s: string, n = 100) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** `canonry relay show`: the session, a line per window, and the latest CSO's facts and decisions. */
export function showLines(
  state: RelaySessionView,
  windows: readonly RelayWindowRecord[],
): string[] {
  const { session, cso } = state;
  const lines = [
    `session ${session.session_id} (${session.mode}, ${state.status}) in project ${session.project}, ${state.windows} windows`,
    `  objective   ${clip(session.objective)}`,
    `  outline     ${session.remaining.join(', ') || '(none)'}`,
    `  started     ${session.created_at} by ${session.started_by}; committed as ${session.agent}`,
    `  next goal   ${clip(state.goal_state.objective)}${state.goal_state.remaining.length > 0 ? ` (${state.goal_state.remaining.join(', ')})` : ''}`,
    '',
    'windows:',
    ...windows.map((w) => {
      const notes = [
        ...w.revisions
          .filter((r) => r.revised_by)
          .map(
            (r) =>
              `revised ${r.target} → ${r.revised_by}${r.new_fact ? ` given ${r.new_fact}` : ''}`,
          ),
        ...w.revisions
          .filter((r) => r.escalation)
          .map((r) => `escalated ${r.target} (${r.escalation!.proposal_id})`),
        ...w.invalidations.map(
          (i) =>
            `${i.id} left${i.by ? ` for ${i.by}` : ''}${i.flagged.length ? `, flagging ${i.flagged.join(', ')}` : ''}`,
        ),
        ...(w.verification.repaired.length > 0
          ? [`repaired ${w.verification.repaired.join(', ')}`]
          : []),
      ];
      return `  ${figuresLine(figuresOf(w))}${notes.length ? `\n      ${notes.join('; ')}` : ''}`;
    }),
  ];
  if (!cso) return [...lines, '', 'no CSO yet: no window has completed'];
  return [
    ...lines,
    '',
    `latest CSO ${cso.cso_id} (window ${cso.window_number}), sealed ${cso.cso_hmac.split(':').slice(0, 2).join(':')}:…`,
    '  facts:',
    ...cso.established_facts.map(
      (f) =>
        `    ${f.fact_id.padEnd(24)} ${clip(f.statement, 80)} (${f.provenance}, window ${f.window_origin})`,
    ),
    '  decisions:',
    ...cso.decisions.map(
      (d) =>
        `    ${d.decision_id.padEnd(24)} ${clip(d.choice, 80)}${d.needs_revision ? ' [needs revision]' : ''}${d.revises ? ` (revises ${d.revises})` : ''}\n      because ${clip(d.rationale, 120)}${d.depends_on.length ? `; rests on ${d.depends_on.join(', ')}` : ''}`,
    ),
    ...(cso.open_questions.length > 0
      ? ['  open questions:', ...cso.open_questions.map((q) => `    ${clip(q)}`)]
      : []),
  ];
}
