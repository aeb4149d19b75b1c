import { Badge } from '../../ui/badges.js';
import { ErrorNote } from '../../ui/query-state.js';
import type { Verification } from './verification.js';

/**
 * The server's verification of every stored event on request: each event's schema, policy hash,
 * signature from the server's pinned root and governance against its sources; each event's own
 * result shows on its row.
 */
export function VerifyPanel({
  run,
  pending,
  result,
  error,
}: {
  run: () => void;
  pending: boolean;
  result: Verification | undefined;
  error: unknown;
}) {
  const r = result?.report;
  return (
    <section aria-labelledby="evo-verify-h" className="chain">
      <h2 id="evo-verify-h">Signatures and governance</h2>
      <p className="badges">
        <button type="button" onClick={run} disabled={pending}>
          {pending ? 'Verifying…' : 'Verify every event'}
        </button>
      </p>
      <div role="status" aria-live="polite">
        {r ? (
          <p className="badges verify-result" data-ok={r.ok}>
            <Badge tone={r.ok ? 'good' : 'bad'}>
              {r.ok ? 'all verified' : `${r.failed.length} failed`}
            </Badge>
            <span>
              {r.verified} of {r.checked} event{r.checked === 1 ? '' : 's'} verified from the
              server's root
            </span>
          </p>
        ) : null}
      </div>
      {error ? <ErrorNote error={error} /> : null}
    </section>
  );
}
