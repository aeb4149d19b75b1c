import { Link } from 'wouter';
import { useRelaySessions } from '../../api/queries.js';
import { Badge } from '../../ui/badges.js';
import { QueryState } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';
import { statusTone } from './status.js';

/** The project's relay sessions, newest first (the latest 100). */
export function RelayList() {
  const sessions = useRelaySessions();
  return (
    <>
      <h1>Relay</h1>
      <QueryState query={sessions}>
        {({ sessions: all }) =>
          all.length === 0 ? (
            <p className="muted">
              No relay session in this project. <code>canonry demo relay</code> runs one.
            </p>
          ) : (
            <ul className="rows">
              {all.map((s) => (
                <li key={s.session.session_id} data-session={s.session.session_id}>
                  <Link href={`/relay/${s.session.session_id}`}>
                    <code>{s.session.session_id}</code>
                  </Link>{' '}
                  <UserText text={s.session.objective} />{' '}
                  <Badge tone={statusTone(s.status)}>{s.status}</Badge>{' '}
                  <Badge>{s.session.mode}</Badge> <Badge>{s.windows} windows</Badge>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </>
  );
}
