import type { NoteSide } from '../../api/types.js';
import { Badge, Hash } from '../../ui/badges.js';

/** One side of the two-note commit (§5): the note's content, sources and authority, or its absence. */
export function NotePane({ side, heading }: { side: NoteSide; heading: string }) {
  const c = side.content;
  const id = `pane-${heading.toLowerCase()}`;
  return (
    <section className="pane" aria-labelledby={id} data-side={heading.toLowerCase()}>
      <h2 id={id}>{heading}</h2>
      {!c ? (
        <p className="muted">No note: nothing is accepted here yet.</p>
      ) : (
        <>
          <h3>{c.title}</h3>
          <p className="note-text">{c.text}</p>
          <dl className="facts">
            <dt>Type</dt>
            <dd>{c.object_type}</dd>
            <dt>Status</dt>
            <dd>{c.status ?? 'active'}</dd>
            <dt>Confidence</dt>
            <dd>{c.confidence_state ?? 'asserted'}</dd>
            <dt>Authority</dt>
            <dd>
              {side.authority ? (
                <>
                  {side.authority.principal}{' '}
                  <Badge
                    tone={
                      side.authority.role === 'agent' || side.authority.role === 'tool'
                        ? 'model'
                        : 'person'
                    }
                  >
                    {side.authority.role ?? '?'}
                  </Badge>
                </>
              ) : (
                'none'
              )}
            </dd>
            <dt>Visibility</dt>
            <dd>{c.visibility ?? 'project'}</dd>
            <dt>Depends on</dt>
            <dd>
              {(c.dependency_refs ?? []).length === 0
                ? 'nothing'
                : (c.dependency_refs ?? []).map(String).join(', ')}
            </dd>
            <dt>Version</dt>
            <dd>
              <Hash value={side.version_hash} />
            </dd>
          </dl>
          <h4>Sources</h4>
          {(c.sources ?? []).length === 0 ? (
            <p className="muted">No source.</p>
          ) : (
            <ul className="sources">
              {(c.sources ?? []).map((s) => (
                <li key={`${s.message_id}:${s.span.join('-')}`}>
                  <q>{s.quote}</q> <code className="muted">{s.message_id}</code>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
