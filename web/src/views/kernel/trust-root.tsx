import { useTrust } from '../../api/queries.js';
import { Badge, Hash } from '../../ui/badges.js';
import { QueryState } from '../../ui/query-state.js';

interface Issuer {
  readonly fingerprint?: string;
  readonly active?: boolean;
  readonly revoked?: boolean;
}

/** The root events are verified against (`GET /v1/trust`) and the issuers it certified. */
export function TrustRoot() {
  const trust = useTrust();
  return (
    <section aria-labelledby="root-h" className="trust-root">
      <h2 id="root-h">Pinned root</h2>
      <QueryState query={trust}>
        {(t) => (
          <dl className="facts">
            <dt>Root</dt>
            <dd data-root={t.root_fingerprint ?? ''}>
              <Hash value={t.root_fingerprint} />{' '}
              {t.development_root ? (
                <Badge tone="warn">development root: its key is on this server</Badge>
              ) : (
                <Badge tone="good">offline root</Badge>
              )}
            </dd>
            <dt>Issuers</dt>
            <dd>
              {(t.issuers as Issuer[]).map((i) => (
                <span key={i.fingerprint} className="issuer">
                  <Hash value={i.fingerprint} />{' '}
                  {i.revoked ? (
                    <Badge tone="bad">revoked</Badge>
                  ) : i.active ? (
                    <Badge tone="good">active</Badge>
                  ) : (
                    <Badge>retired</Badge>
                  )}{' '}
                </span>
              ))}
            </dd>
          </dl>
        )}
      </QueryState>
    </section>
  );
}
