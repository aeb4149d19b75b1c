import { useVerifyJournal } from '../../api/queries.js';
import { Badge, Hash } from '../../ui/badges.js';
import { ErrorNote } from '../../ui/query-state.js';

/**
 * The chain's status: its head, and on request the server's verification of the whole hash chain
 * and its signed checkpoints — intact or the first seq that breaks it, and how much of it no
 * checkpoint signs yet.
 */
export function VerifyPanel({ head }: { head: { seq: number; hash: string } }) {
  const verify = useVerifyJournal();
  const r = verify.data;
  return (
    <section aria-labelledby="chain-h" className="chain">
      <h2 id="chain-h">Chain</h2>
      <p className="badges">
        <span>
          head #{head.seq} <Hash value={head.hash} />
        </span>
        <button type="button" onClick={() => verify.mutate()} disabled={verify.isPending}>
          {verify.isPending ? 'Verifying…' : 'Verify the chain'}
        </button>
      </p>
      <div role="status" aria-live="polite">
        {r ? (
          <div className="verify-result" data-ok={r.ok}>
            <p className="badges">
              <Badge tone={r.ok ? 'good' : 'bad'}>
                {r.ok ? 'chain intact' : `broken at #${r.broken?.seq ?? '?'}`}
              </Badge>
              <span>
                {r.checked} entries checked to #{r.head.seq}, {r.checkpoints} signed checkpoint
                {r.checkpoints === 1 ? '' : 's'} matched
              </span>
              {r.base ? <span className="muted">pruned before #{r.base + 1}</span> : null}
            </p>
            {r.broken ? (
              <p className="error">
                {r.broken.reason}: {r.broken.detail}
              </p>
            ) : null}
            {r.unsigned ? (
              <p className="muted">
                {r.unsigned.entries === 0
                  ? 'Every entry is under a signed checkpoint.'
                  : `${r.unsigned.entries} entr${r.unsigned.entries === 1 ? 'y' : 'ies'} after the last signed checkpoint${r.unsigned.since ? `, since ${r.unsigned.since}` : ''}.`}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
      {verify.error ? <ErrorNote error={verify.error} /> : null}
    </section>
  );
}
