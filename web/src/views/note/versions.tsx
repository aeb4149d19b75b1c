import { useState } from 'react';
import type { NoteVersion } from '../../api/types.js';
import { atLeast } from '../../session/roles.js';
import { useMe } from '../../session/session-context.js';
import { Badge, Hash } from '../../ui/badges.js';
import { RestoreDialog } from './restore-dialog.js';

interface Authority {
  readonly proposer?: { readonly id?: string; readonly role?: string };
  readonly approver?: { readonly id?: string; readonly role?: string } | null;
  readonly gate?: string;
}

function by(version: NoteVersion): string {
  const a = version.authority as Authority;
  const who = a.approver?.id
    ? `${a.proposer?.id ?? version.actor}, approved by ${a.approver.id}`
    : (a.proposer?.id ?? version.actor);
  return a.gate ? `${who} · ${a.gate}` : who;
}

/**
 * Every version, newest first, the current one marked. A restore control on each earlier version
 * for a role that may propose (not a viewer); restoring appends, so every row stays.
 */
export function Versions({
  objectId,
  history,
  current,
}: {
  objectId: string;
  history: readonly NoteVersion[];
  current: string;
}) {
  const me = useMe();
  const [restoring, setRestoring] = useState<NoteVersion | null>(null);
  const mayRestore = atLeast(me.role, 'agent');
  const latest = Math.max(0, ...history.map((v) => v.version_id));
  return (
    <section aria-labelledby="versions-h">
      <h2 id="versions-h">Versions ({history.length})</h2>
      <ol className="timeline" reversed>
        {[...history].reverse().map((v) => {
          const isCurrent = v.version_hash === current;
          return (
            <li
              key={v.version_hash}
              data-version={v.version_id}
              data-current={isCurrent}
              aria-current={isCurrent ? 'true' : undefined}
            >
              <p className="badges">
                <strong>v{v.version_id}</strong>
                {isCurrent ? <Badge tone="good">current</Badge> : <Badge>earlier</Badge>}
                {v.timestamp ? <time dateTime={v.timestamp}>{v.timestamp}</time> : null}
                <span className="muted">{by(v)}</span>
                <Hash value={v.version_hash} />
              </p>
              <p className="note-text">{v.content.text}</p>
              {!isCurrent && mayRestore ? (
                <button type="button" onClick={() => setRestoring(v)}>
                  Restore v{v.version_id}…
                </button>
              ) : null}
            </li>
          );
        })}
      </ol>
      {restoring ? (
        <RestoreDialog
          objectId={objectId}
          version={restoring}
          latest={latest}
          onClose={() => setRestoring(null)}
        />
      ) : null}
    </section>
  );
}
