import { useMemo } from 'react';
import type { RelayWindowQuality } from '../../api/types.js';
import { ScrollRegion } from '../../ui/scroll-region.js';
import { type ChartSeries, UplotChart } from './uplot-chart.js';

interface ChartSpec {
  readonly id: string;
  readonly title: string;
  readonly caption: string;
  /** The y range; none for counts, which run from 0 to the largest (at least 1). */
  readonly range?: readonly [number, number];
  readonly series: (rows: readonly RelayWindowQuality[]) => ChartSeries[];
}

const CHARTS: readonly ChartSpec[] = [
  {
    id: 'preservation',
    title: 'Preservation',
    caption:
      'Valid prior facts each window kept, before repair (CRP-030 §5); below 1 the relay re-injected what it dropped.',
    range: [0, 1],
    series: (rows) => [
      { label: 'preservation', colour: '#3b2f8f', values: rows.map((r) => r.preservation) },
    ],
  },
  {
    id: 'repetition',
    title: 'Repetition',
    caption: "Repeated 6-grams over the window's 6-grams (CRP-018 §1); AIR acts above 0.03.",
    range: [0, 1],
    series: (rows) => [
      { label: 'repetition', colour: '#8a1c12', values: rows.map((r) => r.repetition_ratio) },
    ],
  },
  {
    id: 'fabrications',
    title: 'Fabrications and distortions',
    caption:
      'Claims with a value no context fact holds (fabrications) or contradicting one (distortions), per window.',
    series: (rows) => [
      { label: 'fabrications', colour: '#8a1c12', values: rows.map((r) => r.fabrication_count) },
      {
        label: 'distortions',
        colour: '#6b4500',
        dash: [6, 4],
        values: rows.map((r) => r.distortion_count),
      },
    ],
  },
  {
    id: 'completeness',
    title: 'Completeness',
    caption: 'How much of what each window was meant to cover it covered; AIR acts below 0.70.',
    range: [0, 1],
    series: (rows) => [
      { label: 'completeness', colour: '#16502a', values: rows.map((r) => r.completeness) },
    ],
  },
  {
    id: 'session-iq',
    title: 'Session IQ',
    caption: 'CRP-018 §5.2 after each window, 0–100.',
    range: [0, 100],
    series: (rows) => [
      { label: 'session IQ', colour: '#27307a', values: rows.map((r) => r.session_iq) },
    ],
  },
];

const fixed = (v: number | null, digits = 2) => (v === null ? '—' : v.toFixed(digits));

/**
 * A session's quality per window as charts (uPlot, canvas), each in a figure with its caption, and
 * the same values in one table for whoever does not read the charts.
 */
export function QualityCharts({ rows }: { rows: readonly RelayWindowQuality[] }) {
  const windows = useMemo(() => rows.map((r) => r.window_number), [rows]);
  const charts = useMemo(
    () =>
      CHARTS.map((c) => {
        const series = c.series(rows);
        const top = Math.max(1, ...series.flatMap((s) => s.values.map((v) => v ?? 0)));
        return { ...c, series, range: c.range ?? ([0, top] as const) };
      }),
    [rows],
  );
  if (rows.length === 0) return <p className="muted">No window completed yet.</p>;
  return (
    <>
      <div className="charts">
        {charts.map((c) => (
          <figure key={c.id} className="chart-figure" data-chart={c.id}>
            <figcaption>
              <strong>{c.title}</strong> <span className="muted">{c.caption}</span>
            </figcaption>
            <UplotChart windows={windows} series={c.series} range={c.range} />
          </figure>
        ))}
      </div>
      <ScrollRegion className="table-wrap" label="Quality per window, as a table (scrollable)">
        <table className="checks quality-table">
          <caption>Quality per window (the charts' values)</caption>
          <thead>
            <tr>
              <th scope="col">Window</th>
              <th scope="col">Kind</th>
              <th scope="col">Preservation</th>
              <th scope="col">Repaired</th>
              <th scope="col">Repetition</th>
              <th scope="col">Fabrications</th>
              <th scope="col">Distortions</th>
              <th scope="col">Completeness</th>
              <th scope="col">Session IQ</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.window_number} data-window={r.window_number}>
                <th scope="row">{r.window_number}</th>
                <td>{r.kind}</td>
                <td data-metric="preservation">{fixed(r.preservation)}</td>
                <td data-metric="repaired">{r.repaired}</td>
                <td data-metric="repetition">{fixed(r.repetition_ratio, 3)}</td>
                <td data-metric="fabrications">{r.fabrication_count ?? '—'}</td>
                <td data-metric="distortions">{r.distortion_count ?? '—'}</td>
                <td data-metric="completeness">{fixed(r.completeness)}</td>
                <td data-metric="session-iq">{fixed(r.session_iq, 1)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </>
  );
}
