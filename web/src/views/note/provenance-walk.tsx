import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { Provenance } from '../../api/types.js';
import { Badge, Hash } from '../../ui/badges.js';
import { artifactTone } from '../../ui/states.js';
import { UserText } from '../../ui/user-text.js';
import { noteHref } from './dependents.js';

interface Actor {
  readonly id: string;
  readonly role: string;
}

/** `{ id, role }` read as untrusted JSON (the document types it loosely), or null. */
function actor(value: unknown): Actor | null {
  const v = value as { id?: unknown; role?: unknown } | null | undefined;
  return typeof v?.id === 'string' && typeof v.role === 'string'
    ? { id: v.id, role: v.role }
    : null;
}

interface Source {
  readonly message_id: string;
  readonly quote: string;
  readonly speaker: string;
  readonly actor: string;
}

function sources(value: unknown): Source[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((s) => {
    const v = s as Record<string, unknown>;
    return typeof v.message_id === 'string' && typeof v.quote === 'string'
      ? [
          {
            message_id: v.message_id,
            quote: v.quote,
            speaker: typeof v.speaker === 'string' ? v.speaker : 'unknown',
            actor: typeof v.actor === 'string' ? v.actor : 'unknown',
          },
        ]
      : [];
  });
}

const isPerson = (role: string) => role === 'owner' || role === 'editor' || role === 'viewer';

function Who({ a }: { a: Actor }) {
  return (
    <>
      {a.id} <Badge tone={isPerson(a.role) ? 'person' : 'model'}>{a.role}</Badge>
    </>
  );
}

function Question({ q, children }: { q: string; children: ReactNode }) {
  return (
    <>
      <dt>{q}</dt>
      <dd>{children}</dd>
    </>
  );
}

const EPISTEMIC: Record<Provenance['epistemic'], string> = {
  fact: 'A fact',
  preference: 'A preference',
  policy: 'A policy (a rule that binds)',
  decision: 'A decision',
  inference: 'An inference (not stated, concluded)',
  uncertainty: 'Unresolved uncertainty',
  dispute: 'Disputed: competing claims, none current',
  other: 'Other',
};

/**
 * The provenance walk (LCSM §8): the nine questions a person asks of a note, each answered from
 * its versions, sources, the proposal and signed verdict that authorized it, the journal and the
 * artifacts built on it.
 */
export function ProvenanceWalk({ p }: { p: Provenance }) {
  const proposer = actor(p.authorized_by.proposer);
  const approver = actor(p.authorized_by.approver);
  const cited = sources(p.why.sources);
  const since = p.current_since;
  const seq = Number(String(since.receipt_ref ?? '').split('#')[1]);
  const stale = p.stale_if_changed;
  const previous = p.replaced.previous_version;
  return (
    <section aria-labelledby="walk-h">
      <h2 id="walk-h">Provenance</h2>
      <dl className="walk" data-testid="provenance">
        <Question q="Why does the project believe this?">
          <q>
            <UserText text={p.why.statement ?? ''} />
          </q>{' '}
          — confidence <Badge>{p.why.confidence ?? 'asserted'}</Badge>
        </Question>
        <Question q="When did this become current?">
          Version {since.version_id} at <time dateTime={since.timestamp}>{since.timestamp}</time>
          {Number.isSafeInteger(seq) ? (
            <>
              {' '}
              — journal <Link href={`/journal#entry-${seq}`}>#{seq}</Link>, receipt{' '}
              <Hash value={since.receipt?.receipt_hash} />
            </>
          ) : null}
        </Question>
        <Question q="Who authorized it?">
          {proposer ? (
            <>
              proposed by <Who a={proposer} />
            </>
          ) : (
            'no proposer recorded'
          )}
          {approver ? (
            <>
              , approved by <Who a={approver} />
            </>
          ) : proposer && !isPerson(proposer.role) ? (
            ', committed by the gate with no person approving'
          ) : null}
          {p.authorized_by.gate ? (
            <>
              {' '}
              · gate <Badge>{p.authorized_by.gate}</Badge>
            </>
          ) : null}
          {p.authorized_by.stakes ? (
            <>
              {' '}
              · stakes <Badge>{p.authorized_by.stakes}</Badge>
            </>
          ) : null}
          {p.authorized_by.gate_event ? (
            <>
              {' '}
              · signed event <Hash value={p.authorized_by.gate_event} />
            </>
          ) : null}
        </Question>
        <Question q="Which source supports it?">
          {cited.length === 0 ? (
            <Badge tone="warn">no source</Badge>
          ) : (
            <ul className="sources">
              {cited.map((s) => (
                <li key={`${s.message_id}:${s.quote}`}>
                  <q>{s.quote}</q> — said by {s.actor} ({s.speaker}){' '}
                  <code className="muted">{s.message_id}</code>
                </li>
              ))}
            </ul>
          )}
        </Question>
        <Question q="What did it replace?">
          {previous ? (
            <>
              Version {previous.version_id}:{' '}
              <q>
                <UserText text={previous.content.text} />
              </q>
            </>
          ) : (
            'Nothing: this is its first version.'
          )}
          {(p.replaced.superseded_objects ?? []).length > 0 ? (
            <>
              {' '}
              It superseded{' '}
              {(p.replaced.superseded_objects ?? []).map((o, i) => (
                <span key={o.object_id}>
                  {i > 0 ? ', ' : ''}
                  <Link href={noteHref(o.object_id)}>{o.object_id}</Link>
                </span>
              ))}
              .
            </>
          ) : null}
        </Question>
        <Question q="Which artifact was built from the old version?">
          {p.built_from_old.length === 0
            ? 'None.'
            : p.built_from_old.map((a) => `${a.artifact_id} (from v${a.version_id})`).join(', ')}
        </Question>
        <Question q="What becomes stale if this changes?">
          {(stale.objects ?? []).length === 0 && (stale.artifacts ?? []).length === 0 ? (
            'Nothing rests on this version.'
          ) : (
            <ul className="items">
              {(stale.objects ?? []).map((id) => (
                <li key={id}>
                  note <Link href={noteHref(id)}>{id}</Link> would need revision
                </li>
              ))}
              {(stale.artifacts ?? []).map((a) => (
                <li key={a.manifest.artifact_id}>
                  artifact {a.manifest.artifact_id}, now{' '}
                  <Badge tone={artifactTone(a.state)}>{a.state.replace(/_/g, ' ')}</Badge>
                </li>
              ))}
              {stale.cut ? (
                <li className="muted" data-testid="dependents-cut">
                  and more than are listed here: the dependents graph below reads on
                </li>
              ) : null}
            </ul>
          )}
        </Question>
        <Question q="Can it be restored?">
          {p.restorable.length === 0
            ? 'No earlier version to restore.'
            : p.versions > p.history.length
              ? `Yes: to any of its ${p.versions - 1} earlier versions (see Versions; a restore appends a new version).`
              : `Yes: to ${p.restorable.map((r) => `v${r.version_id}`).join(', ')} (see Versions; a restore appends a new version).`}
        </Question>
        <Question q="Is it fact, preference, policy, inference, or unresolved uncertainty?">
          {EPISTEMIC[p.epistemic]} <span className="muted">({p.object.object_type})</span>
        </Question>
      </dl>
    </section>
  );
}
