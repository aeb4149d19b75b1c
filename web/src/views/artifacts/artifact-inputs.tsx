import { Link } from 'wouter';
import { ApiError } from '../../api/client.js';
import { useObject, useVersion } from '../../api/queries.js';
import type { ArtifactManifest } from '../../api/types.js';
import { Badge, Hash } from '../../ui/badges.js';
import { ErrorNote } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';

type Pin = ArtifactManifest['canonical_note_versions'][number];

/** One input of an artifact: the note version it was built on, the note's version now, and the change. */
function Input({ pin }: { pin: Pin }) {
  const object = useObject(pin.object_id);
  // The version built on, by its hash; one the viewer may not read is UNKNOWN_VERSION.
  const pinned = useVersion(pin.object_id, pin.version_hash);
  const href = `/notes/${encodeURIComponent(pin.object_id)}`;
  const unreadable = pinned.error instanceof ApiError && pinned.error.code === 'UNKNOWN_VERSION';
  const error = object.error ?? (unreadable ? null : pinned.error);
  if (error) {
    return (
      <li data-input={pin.object_id}>
        <Link href={href}>{pin.object_id}</Link> <Hash value={pin.version_hash} />
        <ErrorNote error={error} />
      </li>
    );
  }
  const built = pinned.data?.version;
  const current = object.data?.current;
  const loaded = object.data !== undefined && (pinned.data !== undefined || unreadable);
  const same = built !== undefined && built.version_hash === current?.version_hash;
  return (
    <li data-input={pin.object_id} data-moved={loaded ? !same : undefined}>
      <Link href={href}>{pin.object_id}</Link>: built on{' '}
      {built ? <strong>v{built.version_id}</strong> : <Hash value={pin.version_hash} />}
      {!loaded ? (
        <span className="muted"> …</span>
      ) : same ? (
        <>
          {' '}
          <Badge tone="good">still current</Badge>
        </>
      ) : current ? (
        <>
          , now <strong>v{current.version_id}</strong> <Badge tone="warn">moved</Badge>
          <div className="change">
            <div>
              <span className="muted">then: </span>
              <q>
                <UserText text={built?.content.text ?? 'a version you may not read'} />
              </q>
            </div>
            <div>
              <span className="muted">now: </span>
              <q>
                <UserText text={current.content.text} />
              </q>
            </div>
          </div>
        </>
      ) : null}
    </li>
  );
}

/** Every note version an artifact was built on, each against where the note stands now. */
export function ArtifactInputs({ manifest }: { manifest: ArtifactManifest }) {
  return (
    <ul className="inputs">
      {manifest.canonical_note_versions.map((pin) => (
        <Input key={`${pin.object_id}:${pin.version_hash}`} pin={pin} />
      ))}
    </ul>
  );
}
