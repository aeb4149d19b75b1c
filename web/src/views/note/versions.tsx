import { useState } from 'react';
import { useOlderVersions } from '../../api/queries.js';
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

/** Older versions are read this many at a time. */
const OLDER_PAGE = 50;

function VersionRow({
  v,
  current,
  mayRestore,
  onRestore,
}: {
  v: NoteVersion;
  current: string;
  mayRestore: boolean;
  onRestore: (v: NoteVersion) => void;
}) {
  const isCurrent = v.version_hash === current;
  return (
    <li
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
        <button type="button" onClick={() => onRestore(v)}>
          Restore v{v.version_id}…
        </button>
      ) : null}
    </li>
  );
}

/**
 * The versions, newest first, the current one marked: the latest the provenance walk holds, then
 * older ones a page at a time on request (`total` is how many there are). A restore control on each
 * earlier version for a role that may propose (not a viewer); restoring appends, so every row stays.
 */
export function Versions({
  objectId,
  history,
  total,
  current,
}: {
  objectId: string;
  history: readonly NoteVersion[];
  total: number;
  current: string;
}) {
  const me = useMe();
  const [restoring, setRestoring] = useState<NoteVersion | null>(null);
  const [older, setOlder] = useState(false);
  const mayRestore = atLeast(me.role, 'agent');
  const latest = Math.max(0, ...history.map((v) => v.version_id));
  const oldest = Math.min(latest, ...history.map((v) => v.version_id));
  const pages = useOlderVersions(objectId, oldest, OLDER_PAGE, older);
  const shown = [
    ...[...history].reverse(),
    ...(pages.data?.pages.flatMap((p) => p.versions) ?? []),
  ];
  const more = shown.length < total && (!older || pages.hasNextPage !== false);
  const showMore = () => (older ? pages.fetchNextPage() : setOlder(true));
  return (
    <section aria-labelledby="versions-h">
      <h2 id="versions-h">Versions ({total})</h2>
      <ol className="timeline" reversed>
        {shown.map((v) => (
          <VersionRow
            key={v.version_hash}
            v={v}
            current={current}
            mayRestore={mayRestore}
            onRestore={setRestoring}
          />
        ))}
      </ol>
      {pages.isError ? <p role="alert">The older versions could not be read.</p> : null}
      {more ? (
        <button type="button" onClick={showMore} disabled={pages.isFetching}>
          {pages.isFetching
            ? 'Reading older versions…'
            : `Show older versions (${total - shown.length})`}
        </button>
      ) : null}
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
