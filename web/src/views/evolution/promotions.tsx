import type { PromotionView } from '../../api/evolution.js';
import { Badge, Hash, type Tone } from '../../ui/badges.js';
import { LineChart } from '../../ui/line-chart.js';
import { QueryState } from '../../ui/query-state.js';
import { UserText } from '../../ui/user-text.js';
import { fixed, runningMeans } from './canary-metrics.js';
import { PromotionStepper } from './promotion-stepper.js';
import { usePromotions } from './queries.js';

const TONE: Readonly<Record<string, Tone>> = {
  promoted: 'good',
  rolled_back: 'bad',
  rejected: 'bad',
  canary: 'warn',
};

function CanaryChart({ promotion: p }: { promotion: PromotionView }) {
  const rows = runningMeans(p.observations);
  if (rows.length === 0) {
    return <p className="muted">No canary observation yet.</p>;
  }
  // A point where an arm was observed: its mean after that observation.
  const line = (arm: 'canary' | 'baseline') =>
    rows.flatMap((r) => {
      const y = arm === 'canary' ? r.canaryMean : r.baselineMean;
      return r.observation.arm === arm && y !== null ? [{ x: r.n, y }] : [];
    });
  return (
    <div className="canary-chart">
      <LineChart
        title={`${p.metric.name || 'metric'} of ${p.id}: canary against baseline`}
        description={`Each arm's mean after each of ${rows.length} observation${rows.length === 1 ? '' : 's'}; now canary ${fixed(p.canaryMean)}, baseline ${fixed(p.baselineMean)}. The canary rolls back when it falls below the baseline by more than ${p.metric.margin} once both arms have ${p.metric.minSamples} samples in ${p.metric.minObservations} observation${p.metric.minObservations === 1 ? '' : 's'}.`}
        xLabel="observation"
        series={[
          { name: 'canary', dash: 'solid', points: line('canary') },
          { name: 'baseline', dash: 'dashed', points: line('baseline') },
        ]}
      />
      <details>
        <summary>The observations of {p.id} as a table</summary>
        <div className="table-wrap">
          <table className="checks observations">
            <caption className="muted">
              Each observation and each arm's mean after it (<UserText text={p.metric.name} />)
            </caption>
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Arm</th>
                <th scope="col">Value</th>
                <th scope="col">Samples</th>
                <th scope="col">Canary mean</th>
                <th scope="col">Baseline mean</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.n}>
                  <th scope="row">{r.n}</th>
                  <td>{r.observation.arm}</td>
                  <td>{r.observation.value}</td>
                  <td>{r.observation.samples}</td>
                  <td>{fixed(r.canaryMean)}</td>
                  <td>{fixed(r.baselineMean)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}

function Promotion({ promotion: p }: { promotion: PromotionView }) {
  return (
    <article className="promotion" data-promotion-id={p.id} data-stage={p.stage}>
      <h3>
        <code>{p.id}</code>
      </h3>
      <p className="badges">
        <Badge tone={TONE[p.stage] ?? 'neutral'}>{p.stage.replace(/_/g, ' ')}</Badge>
        <span>{p.artifactKind.replace(/_/g, ' ')}</span>
        <span>
          address <Hash value={p.address} />
        </span>
      </p>
      {p.reason ? (
        <p className={p.stage === 'promoted' ? '' : 'warn-note'}>
          <UserText text={p.reason} />
        </p>
      ) : null}
      <PromotionStepper promotion={p} />
      <dl className="facts">
        <dt>Canary</dt>
        <dd>
          {Math.round(p.canary.share * 1000) / 10}% of sessions
          {p.canary.projects.length > 0
            ? `, and every session of ${p.canary.projects.join(', ')}`
            : ''}
        </dd>
        <dt>Judged by</dt>
        <dd>
          {p.metric.name ? <UserText text={p.metric.name} /> : 'a metric'}: rolled back when below
          the baseline by more than {p.metric.margin} after {p.metric.minSamples} samples in{' '}
          {p.metric.minObservations} observation{p.metric.minObservations === 1 ? '' : 's'} on each
          arm
        </dd>
        <dt>Means now</dt>
        <dd>
          canary {fixed(p.canaryMean)}, baseline {fixed(p.baselineMean)}
        </dd>
      </dl>
      <CanaryChart promotion={p} />
    </article>
  );
}

/**
 * Promotions of canonry's own adaptive artifacts (agentic protocols, gate policies, AIR settings):
 * each with its stage as a stepper and its canary's metric against the baseline's over time.
 */
export function Promotions() {
  const promotions = usePromotions();
  return (
    <section aria-labelledby="evo-promotions-h">
      <h2 id="evo-promotions-h">Promotions</h2>
      <QueryState query={promotions}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted">
              No promotion yet: a candidate protocol, gate policy or AIR settings starts one.
            </p>
          ) : (
            <div className="promotions">
              {[...list].reverse().map((p) => (
                <Promotion key={p.id} promotion={p} />
              ))}
            </div>
          )
        }
      </QueryState>
    </section>
  );
}
