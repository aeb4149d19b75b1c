import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useRestore } from '../../api/queries.js';
import type { NoteVersion } from '../../api/types.js';
import { ErrorNote } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';

/**
 * Confirms a restore in a modal dialog (the browser's own: focus kept inside, Escape closes) and
 * says what it does before it does it — a new version is appended with the old one's content; no
 * version is removed — then what the gate made of it.
 */
export function RestoreDialog({
  objectId,
  version,
  latest,
  onClose,
}: {
  objectId: string;
  version: NoteVersion;
  latest: number;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const restore = useRestore(objectId);
  const [rationale, setRationale] = useState(`Back to version ${version.version_id}`);
  useEffect(() => {
    // Opened once mounted; unmounting removes it, which closes it.
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (rationale.trim())
      restore.mutate({ version: version.version_id, rationale: rationale.trim() });
  };
  const outcome = restore.data;
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="restore-h"
      aria-describedby="restore-what"
      onClose={onClose}
    >
      <h2 id="restore-h">
        Restore version {version.version_id} of <code>{objectId}</code>?
      </h2>
      <p id="restore-what">
        This appends version {latest + 1} with the content of version {version.version_id}:{' '}
        <q>
          <UserText text={version.content.text} />
        </q>
        . Versions 1–{latest} stay in the history. The gate decides it like any change: it may wait
        for a person's review.
      </p>
      {outcome ? (
        <div role="status" className="outcome">
          {outcome.committed ? (
            <p>Restored: version {outcome.committed.version_id} appended.</p>
          ) : outcome.proposal.status === 'pending' ? (
            <p>
              Held for review ({outcome.proposal.gate.label}):{' '}
              <Link href={`/review/${outcome.proposal.proposal_id}`}>review the proposal</Link>.
            </p>
          ) : (
            <p>Not restored: the proposal was {outcome.proposal.status}.</p>
          )}
          <button type="button" className="primary" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </div>
      ) : (
        <form onSubmit={submit} className="reject">
          <label>
            Why restore it
            <input
              name="rationale"
              value={rationale}
              onChange={(e) => setRationale(e.target.value)}
              maxLength={2000}
              required
            />
          </label>
          <div className="actions">
            <button
              type="submit"
              className="primary"
              disabled={restore.isPending || rationale.trim() === ''}
            >
              Restore as version {latest + 1}
            </button>
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
          {restore.error ? <ErrorNote error={restore.error} /> : null}
        </form>
      )}
    </dialog>
  );
}
