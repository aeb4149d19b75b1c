import { useState } from 'react';
import { Link } from 'wouter';
import {
  useRelayChain,
  useRelayQuality,
  useRelaySession,
  useRelayWindow,
} from '../../api/queries.js';
import type { RelayChainReport, RelaySession, RelayWindowQuality } from '../../api/types.js';
import { Badge } from '../../ui/badges.js';
import { QueryState } from '../../ui/query-state.js';
import { CsoGraph, type CsoShape } from './cso-graph.js';
import { CsoList } from './cso-list.js';
import { IapPanel } from './iap-panel.js';
import { QualityCharts } from './quality-charts.js';
import { statusTone } from './status.js';

function Chain({ report }: { report: RelayChainReport }) {
  return report.ok ? (
    <Badge tone="good">chain verified ({report.windows} windows)</Badge>
  ) : (
    <Badge tone="bad">
      chain broken at window {report.broken?.window_number}: {report.broken?.reason}
    </Badge>
  );
}

function WindowRows({
  rows,
  shown,
  choose,
}: {
  rows: readonly RelayWindowQuality[];
  shown: number;
  choose: (n: number) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="checks windows-table">
        <caption className="sr-only">The session's windows</caption>
        <thead>
          <tr>
            <th scope="col">Window</th>
            <th scope="col">Kind</th>
            <th scope="col">Repaired</th>
            <th scope="col">IAP</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.window_number} data-window={r.window_number}>
              <th scope="row">
                <button
                  type="button"
                  className="quiet"
                  aria-pressed={r.window_number === shown}
                  onClick={() => choose(r.window_number)}
                >
                  Window {r.window_number}
                </button>
              </th>
              <td>
                {r.kind}
                {r.revision_target ? ` of ${r.revision_target}` : ''}
              </td>
              <td>{r.repaired}</td>
              <td>{r.air?.injection ? `${r.air.tokens} tokens` : 'none'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The AIR settings the session runs under and, when they came from a promotion, which one and on
 * which arm (a canary's candidate, the baseline beside it, or a promoted artifact).
 */
function AirBadge({ session }: { session: RelaySession }) {
  if (!session.air) return null;
  const { mode, iap_budget } = session.air;
  const p = session.promotion;
  const from = p
    ? ` · ${p.arm} of promotion ${p.promotion_id}${p.project === session.project ? '' : ` (${p.project})`}`
    : '';
  return (
    <Badge
      tone={p?.arm === 'canary' ? 'warn' : 'neutral'}
      title={p ? `AIR settings ${p.address}` : undefined}
    >
      <span data-air-arm={p?.arm ?? ''}>
        AIR {mode}, budget {iap_budget}
        {from}
      </span>
    </Badge>
  );
}

function WindowDetail({ session, row }: { session: string; row: RelayWindowQuality }) {
  const window = useRelayWindow(session, row.window_number);
  return (
    <section aria-labelledby="window-h" className="relay-window" data-window={row.window_number}>
      <h2 id="window-h">Window {row.window_number}</h2>
      <QueryState query={window}>
        {(w) => {
          const cso = w.cso as unknown as CsoShape;
          return (
            <>
              <p className="badges">
                <Badge>{w.kind}</Badge>
                <Badge tone={row.preservation < 1 ? 'warn' : 'good'}>
                  preservation {row.preservation.toFixed(2)}
                </Badge>
                {w.verification && (w.verification as { repaired?: string[] }).repaired?.length ? (
                  <span className="muted">
                    re-injected {(w.verification as { repaired: string[] }).repaired.join(', ')}
                  </span>
                ) : null}
              </p>
              <h3>The state it relayed: facts and decisions</h3>
              <CsoGraph cso={cso} label={`Dependency graph after window ${row.window_number}`} />
              <CsoList cso={cso} />
              <h3>Its IAP</h3>
              <IapPanel row={row} />
              {w.output ? (
                <details>
                  <summary>The window's text</summary>
                  <pre className="json">{w.output.text}</pre>
                </details>
              ) : null}
            </>
          );
        }}
      </QueryState>
    </section>
  );
}

/**
 * One relay session (CRP-030, CRP-018): where it stands and whether its chain verifies, its quality
 * per window as charts, its windows, and for the chosen one (the latest unless another is picked)
 * the CSO as a dependency graph and the IAP the next window carried.
 */
export function RelaySessionPage({ params }: { params: { session: string } }) {
  const id = params.session;
  const session = useRelaySession(id);
  const quality = useRelayQuality(id);
  const chain = useRelayChain(id);
  const [chosen, choose] = useState<number | null>(null);
  return (
    <article className="relay" data-session={id}>
      <p>
        <Link href="/relay">← All sessions</Link>
      </p>
      <h1>
        Relay session <code>{id}</code>
      </h1>
      <QueryState query={session}>
        {(s) => (
          <>
            <p>{s.session.objective}</p>
            <p className="badges">
              <Badge tone={statusTone(s.status)}>{s.status}</Badge>
              <Badge>{s.session.mode}</Badge>
              <Badge>{s.windows} windows</Badge>
              {chain.data ? <Chain report={chain.data} /> : null}
              <AirBadge session={s.session} />
              {s.session.remaining.length > 0 ? (
                <span className="muted">work: {s.session.remaining.join(', ')}</span>
              ) : null}
            </p>
          </>
        )}
      </QueryState>
      <QueryState query={quality}>
        {(q) => {
          const rows = q.windows;
          const shown = rows.find((r) => r.window_number === chosen) ?? rows.at(-1);
          return (
            <>
              <section aria-labelledby="quality-h">
                <h2 id="quality-h">Quality per window</h2>
                <QualityCharts rows={rows} />
              </section>
              <section aria-labelledby="windows-h">
                <h2 id="windows-h">Windows ({rows.length})</h2>
                {shown ? (
                  <WindowRows rows={rows} shown={shown.window_number} choose={choose} />
                ) : (
                  <p className="muted">No window completed yet.</p>
                )}
              </section>
              {shown ? <WindowDetail session={id} row={shown} /> : null}
            </>
          );
        }}
      </QueryState>
    </article>
  );
}
