import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** One line of a chart: its name, colour and values (null: not measured for that window). */
export interface ChartSeries {
  readonly label: string;
  readonly colour: string;
  readonly values: readonly (number | null)[];
  /** A dashed line, so two series differ by more than their colour. */
  readonly dash?: number[];
}

const HEIGHT = 180;

/**
 * A small uPlot line chart over window numbers, as wide as its container. The canvas is hidden from
 * screen readers: the figure's caption and the data table say what it shows.
 */
export function UplotChart({
  windows,
  series,
  range,
}: {
  windows: readonly number[];
  series: readonly ChartSeries[];
  range: readonly [number, number];
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = () => Math.max(240, Math.floor(el.clientWidth));
    const chart = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        legend: { show: series.length > 1, live: false },
        cursor: { show: false },
        scales: { x: { time: false }, y: { range: [range[0], range[1]] } },
        axes: [{ label: 'window', labelSize: 20, incrs: [1, 2, 5, 10, 20, 50, 100] }, { size: 44 }],
        series: [
          { label: 'window' },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.colour,
            width: 2,
            points: { show: true, size: 6 },
            spanGaps: false,
            ...(s.dash ? { dash: s.dash } : {}),
          })),
        ],
      },
      [windows as number[], ...series.map((s) => s.values as (number | null)[])],
      el,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: width(), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [windows, series, range]);
  return <div ref={box} className="chart" aria-hidden="true" />;
}
