import { Badge } from '../../ui/badges.js';
import { Limited } from '../../ui/limited.js';
import { UserText } from '../../ui/user-text.js';
import type { CsoShape } from './cso-graph.js';

/** The CSO's decisions and facts in words: the graph's text alternative, and what it leaves out. */
export function CsoList({ cso }: { cso: CsoShape }) {
  return (
    <details className="cso-list">
      <summary>
        The state as a list: {cso.decisions.length} decisions, {cso.established_facts.length} facts
      </summary>
      <h4>Decisions</h4>
      <Limited items={cso.decisions} limit={100} noun="decisions">
        {(shown) => (
          <ul className="rows">
            {shown.map((d) => (
              <li key={d.decision_id} data-decision={d.decision_id}>
                <code>{d.decision_id}</code> <UserText text={d.choice} />{' '}
                {d.needs_revision ? <Badge tone="bad">needs revision</Badge> : null}
                {d.escalated ? <Badge tone="warn">escalated</Badge> : null}
                {d.revises ? <span className="muted"> revises {d.revises}</span> : null}
                <div className="muted">
                  Why: <UserText text={d.rationale} />
                  {d.depends_on.length > 0 ? ` · rests on ${d.depends_on.join(', ')}` : ''} · window{' '}
                  {d.window_origin}
                </div>
              </li>
            ))}
          </ul>
        )}
      </Limited>
      <h4>Facts</h4>
      <Limited items={cso.established_facts} limit={100} noun="facts">
        {(shown) => (
          <ul className="rows">
            {shown.map((f) => (
              <li key={f.fact_id} data-fact={f.fact_id}>
                <code>{f.fact_id}</code> <UserText text={f.statement} />{' '}
                <span className="muted">
                  {f.provenance} · confidence {f.confidence.toFixed(2)} · window {f.window_origin}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Limited>
    </details>
  );
}
