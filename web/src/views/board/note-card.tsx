import { Link } from 'wouter';
import type { BoardObject } from '../../api/types.js';
import { Badge, type Tone } from '../../ui/badges.js';
import { UserText } from '../../ui/user-text.js';
import { authorityOf } from './authority.js';

const STATUS_TONE: Record<BoardObject['status'], Tone> = {
  active: 'good',
  provisional: 'neutral',
  disputed: 'bad',
  superseded: 'neutral',
  retired: 'neutral',
};

/** Confidence from weakest to strongest (the server's order); the weak two are marked. */
const WEAK_CONFIDENCE = new Set(['uncertain', 'inferred']);

function AuthorityBadge({ basis }: { basis: unknown }) {
  const a = authorityOf(basis);
  if (a.kind === 'decision') {
    const who = a.approver ?? a.proposer!;
    return (
      <Badge tone="person" title={`gate ${a.gate ?? '?'}; proposed by ${a.proposer?.id ?? '?'}`}>
        ● decision · {who.id} ({who.role})
      </Badge>
    );
  }
  if (a.kind === 'proposal') {
    return (
      <Badge
        tone="model"
        title={`committed by the gate (${a.gate ?? '?'}) with no person approving`}
      >
        ◇ model proposal · {a.proposer!.id} ({a.proposer!.role})
      </Badge>
    );
  }
  return <Badge>authority unknown</Badge>;
}

/** One note of the board: what it says and, in badges, how far to trust it. */
export function NoteCard({ note }: { note: BoardObject }) {
  const authority = authorityOf(note.authority_basis);
  const sources = note.source_refs ?? [];
  const confidence = note.confidence_state ?? 'asserted';
  const marks = [
    note.status === 'disputed' ? 'disputed' : null,
    note.effective === 'expired' ? 'expired' : null,
    note.dependency_state ? 'needs-revision' : null,
  ].filter((m) => m !== null);
  return (
    <article
      className={`note note-${authority.kind}${marks.length > 0 ? ' note-flagged' : ''}`}
      data-object-id={note.object_id}
      data-status={note.status}
      data-authority={authority.kind}
      data-marks={marks.join(' ')}
      aria-labelledby={`note-${note.object_id}`}
    >
      <h4 id={`note-${note.object_id}`}>
        <Link href={`/notes/${encodeURIComponent(note.object_id)}`}>
          <UserText text={note.title || note.object_id} />
        </Link>{' '}
        <code className="muted">{note.object_id}</code>
      </h4>
      <p className="note-text">{note.text}</p>
      <p className="badges">
        <Badge tone={STATUS_TONE[note.status]}>{note.status}</Badge>
        <AuthorityBadge basis={note.authority_basis} />
        <Badge tone={WEAK_CONFIDENCE.has(confidence) ? 'warn' : 'neutral'}>{confidence}</Badge>
        <Badge
          tone={sources.length === 0 ? 'warn' : 'neutral'}
          title={sources.map((s) => `“${s.quote}” (${s.message_id})`).join('\n')}
        >
          {sources.length === 0
            ? 'no source'
            : `${sources.length} source${sources.length > 1 ? 's' : ''}`}
        </Badge>
        <Badge>v{note.version_id}</Badge>
        {note.effective === 'expired' ? <Badge tone="bad">expired</Badge> : null}
        {note.effective === 'not_yet_effective' ? (
          <Badge tone="warn">not yet in effect</Badge>
        ) : null}
        {note.dependency_state ? (
          <Badge tone="bad" title={note.dependency_state.cause}>
            needs revision
          </Badge>
        ) : null}
      </p>
      {note.dependency_state ? (
        <p className="why">Needs revision: {note.dependency_state.cause}</p>
      ) : null}
      {note.claims && note.claims.length > 0 ? (
        <ul className="claims" aria-label="Open claims">
          {note.claims.map((c) => (
            <li key={c.claim_id}>
              “<UserText text={c.statement} />” — held by{' '}
              {c.holders.map((h) => h.principal.id).join(', ')}
            </li>
          ))}
        </ul>
      ) : null}
    </article>
  );
}
