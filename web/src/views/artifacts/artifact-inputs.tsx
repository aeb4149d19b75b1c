import { Link } from 'wouter';
import { useVersions } from '../../api/queries.js';
import type { ArtifactManifest } from '../../api/types.js';
import { Badge, Hash } from '../../ui/badges.js';
import { ErrorNote } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';

type Pin = ArtifactManifest['canonical_note_versions'][number];

/** One input of an artifact: the note version it was built on, the note's version now, and the change. */
function Input({ pin }: { pin: Pin }) {
  const versions = useVersions(pin.object_id);
  const href = `/notes/${encodeURIComponent(pin.object_id)}`;
  if (versions.error) {
    return (
      <li data-input={pin.object_id}>
        <Link href={href}>{pin.object_id}</Link> <Hash value={pin.version_hash} />
        <ErrorNote error={versions.error} />
      </li>
    );
  }
  const all = versions.data?.versions ?? [];
  const built = all.find((v) => v.version_hash === pin.version_hash);
  const current = all.find((v) => v.version_hash === versions.data?.current_version_ref);
  const same = built !== undefined && built.version_hash === current?.version_hash;
  return (
    <li data-input={pin.object_id} data-moved={versions.data ? !same : undefined}>
      <Link href={href}>{pin.object_id}</Link>: built on{' '}
      {built ? <strong>v{built.version_id}</strong> : <Hash value={pin.version_hash} />}
      {versions.data === undefined ? (
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
