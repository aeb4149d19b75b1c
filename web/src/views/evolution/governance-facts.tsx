import type { EventDetail } from '../../api/evolution.js';
import { Hash } from '../../ui/badges.js';
import { UserText } from '../../ui/user-text.js';
import {
  exportWords,
  inferenceWords,
  replicationWords,
  retentionWords,
  scopeWords,
  setWords,
  trainingWords,
} from './governance-words.js';

/**
 * An event's effective governance: what its sources' policies intersect to, member by member, each
 * value with what it permits in words; the policy hash it hashes to and the source policies it was
 * resolved from.
 */
export function GovernanceFacts({ event }: { event: EventDetail }) {
  const g = event.governance;
  return (
    <section className="gov" aria-label={`Governance of event #${event.seq}`}>
      <h4>Effective governance</h4>
      <dl className="facts">
        <dt>Privacy scope</dt>
        <dd>
          <code>{g.privacyScope || '?'}</code> — {scopeWords(g.privacyScope)}
        </dd>
        <dt>Boundary</dt>
        <dd>
          {g.constraints.length === 0 ? (
            'no constraint (public)'
          ) : (
            <>
              every one must hold:
              <ul className="items constraints">
                {g.constraints.map((c) => (
                  <li key={`${c.kind}:${c.id}`}>
                    {c.kind}{' '}
                    <code>
                      <UserText text={c.id} />
                    </code>
                  </li>
                ))}
              </ul>
            </>
          )}
        </dd>
        <dt>Principals</dt>
        <dd>{setWords(g.principals, 'any principal')}</dd>
        <dt>Roles</dt>
        <dd>{setWords(g.roles, 'any role')}</dd>
        <dt>Replication</dt>
        <dd>
          <code>{g.replication}</code> — {replicationWords(g.replication)}
        </dd>
        <dt>Inference</dt>
        <dd>
          <code>{g.inference}</code> — {inferenceWords(g.inference)}
        </dd>
        <dt>Training</dt>
        <dd>
          <code>{g.training}</code> — {trainingWords(g.training)}
        </dd>
        <dt>Export</dt>
        <dd>
          <code>{g.export}</code> — {exportWords(g.export)}
        </dd>
        <dt>Retention</dt>
        <dd>{retentionWords(g.retention)}</dd>
        <dt>Tags</dt>
        <dd>{g.tags.length === 0 ? 'none' : g.tags.join(', ')}</dd>
        <dt>Policy hash</dt>
        <dd>
          <Hash value={event.policyHash} />
        </dd>
        <dt>Source policies</dt>
        <dd>
          {event.sourcePolicyHashes.length === 0 ? (
            'none'
          ) : (
            <ul className="items">
              {event.sourcePolicyHashes.map((h) => (
                <li key={h}>
                  <Hash value={h} />
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </section>
  );
}
