import { useId } from 'react';

/** One line of a chart: its name (the legend's and the table's word) and its points. */
export interface Series {
  readonly name: string;
  /** Drawn as `solid` or `dashed`, so the lines differ without colour. */
  readonly dash: 'solid' | 'dashed';
  readonly points: readonly { readonly x: number; readonly y: number }[];
}

const W = 480;
const H = 210;
const PAD = { left: 40, right: 12, top: 10, bottom: 34 };

/**
 * A small line chart of values in [0, 1] (the axis spans their range) drawn as our own SVG: a labelled image (its title and a
 * sentence of what it shows) whose lines differ by dash and marker as well as colour. The numbers
 * themselves are the data table the caller shows beside it.
 */
export function LineChart({
  title,
  description,
  xLabel,
  series,
}: {
  title: string;
  description: string;
  xLabel: string;
  series: readonly Series[];
}) {
  const id = useId();
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  if (xs.length === 0) xs.push(0);
  // Half a step of room either side, so the first and last points sit inside the frame.
  const x0 = Math.min(...xs) - 0.5;
  const x1 = Math.max(...xs) + 0.5;
  const xTicks = [...new Set(xs)].sort((a, b) => a - b);
  const sx = (x: number) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  // The values' range, widened to tenths and kept within [0, 1]: close lines stay apart.
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  if (ys.length === 0) ys.push(0, 1);
  const y0 = Math.max(0, Math.floor((Math.min(...ys) - 0.05) * 10) / 10);
  const y1 = Math.min(1, Math.ceil((Math.max(...ys) + 0.05) * 10) / 10);
  const sy = (y: number) =>
    PAD.top + (1 - (Math.min(y1, Math.max(y0, y)) - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  const ticks = [0, 1, 2, 3, 4].map((k) => Math.round((y0 + ((y1 - y0) * k) / 4) * 1000) / 1000);
  return (
    <figure className="line-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        preserveAspectRatio="xMidYMid meet"
      >
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{description}</desc>
        {ticks.map((t) => (
          <g key={t} className="line-chart-grid">
            <line x1={PAD.left} x2={W - PAD.right} y1={sy(t)} y2={sy(t)} />
            <text x={PAD.left - 6} y={sy(t) + 4} textAnchor="end">
              {t}
            </text>
          </g>
        ))}
        {xTicks.length <= 24
          ? xTicks.map((x) => (
              <text
                key={x}
                className="line-chart-tick"
                x={sx(x)}
                y={H - PAD.bottom + 12}
                textAnchor="middle"
              >
                {x}
              </text>
            ))
          : null}
        <text className="line-chart-axis" x={(W + PAD.left) / 2} y={H - 6} textAnchor="middle">
          {xLabel}
        </text>
        {series.map((s, i) => (
          <g key={s.name} className={`line-chart-series line-chart-s${i}`} data-series={s.name}>
            <polyline
              fill="none"
              strokeDasharray={s.dash === 'dashed' ? '6 4' : undefined}
              points={s.points.map((p) => `${sx(p.x)},${sy(p.y)}`).join(' ')}
            />
            {s.points.map((p) =>
              i % 2 === 0 ? (
                <circle key={p.x} cx={sx(p.x)} cy={sy(p.y)} r={3.5} />
              ) : (
                <rect key={p.x} x={sx(p.x) - 3.5} y={sy(p.y) - 3.5} width={7} height={7} />
              ),
            )}
          </g>
        ))}
      </svg>
      <figcaption className="badges">
        {series.map((s, i) => (
          <span key={s.name} className={`line-chart-key line-chart-s${i}`}>
            <svg width="28" height="10" aria-hidden="true">
              <line
                x1="0"
                x2="28"
                y1="5"
                y2="5"
                strokeDasharray={s.dash === 'dashed' ? '6 4' : undefined}
              />
            </svg>
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
