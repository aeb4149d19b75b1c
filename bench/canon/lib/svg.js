// @ts-check
/**
 * The evaluation's chart as plain SVG text (no plotting library): three bar panels (accepted items
 * retained, superseded positions, leak markers; one bar per strategy) and a scatter of tokens to
 * resume against scenario length, log scale, one colour per strategy.
 */

const COLOURS = ['#d62728', '#ff7f0e', '#9467bd', '#2ca02c'];
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

/** @param {string} s */
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** @param {number} x */
const r1 = (x) => Math.round(x * 10) / 10;

/**
 * @param {{ events: number, results: Record<string, { tokens: number }> }[]} runs
 * @param {readonly { key: string, label: string }[]} strategies
 * @param {Record<string, { retention: number, superseded: number, leaks: number }>} agg
 */
export function plot(runs, strategies, agg) {
  const W = 960;
  const out = [];
  const text = (
    /** @type {number} */ x,
    /** @type {number} */ y,
    /** @type {string} */ s,
    extra = '',
  ) =>
    out.push(
      `<text x="${r1(x)}" y="${r1(y)}" ${FONT}${extra.includes('font-size') ? '' : ' font-size="12"'} ${extra}>${esc(s)}</text>`,
    );

  // ---- bars
  const panels = [
    {
      title: ['Accepted items retained', '(%, mean over scenarios)'],
      max: 100,
      value: (/** @type {string} */ k) => 100 * (agg[k]?.retention ?? 0),
      fmt: (/** @type {number} */ v) => `${v.toFixed(1)}`,
    },
    {
      title: ['Superseded positions in the context', '(mean per scenario)'],
      max: 0,
      value: (/** @type {string} */ k) => agg[k]?.superseded ?? 0,
      fmt: (/** @type {number} */ v) => v.toFixed(1),
    },
    {
      title: ['Distractor leak markers in the context', '(mean per scenario)'],
      max: 0,
      value: (/** @type {string} */ k) => agg[k]?.leaks ?? 0,
      fmt: (/** @type {number} */ v) => v.toFixed(2),
    },
  ];
  const top = 40;
  const barH = 220;
  const panelW = (W - 60) / 3;
  text(
    20,
    24,
    'LCSM §13 evaluation: what each context strategy hands a model resuming the project',
    'font-size="15" font-weight="bold"',
  );
  panels.forEach((p, pi) => {
    const x0 = 50 + pi * panelW;
    const values = strategies.map((s) => p.value(s.key));
    const max = p.max || niceMax(Math.max(...values, 1));
    text(x0, top + 8, /** @type {string} */ (p.title[0]), 'font-size="12" font-weight="bold"');
    text(x0, top + 22, /** @type {string} */ (p.title[1]), 'font-size="11" fill="#555"');
    const y0 = top + 36;
    const plotW = panelW - 60;
    for (let t = 0; t <= 4; t++) {
      const y = y0 + barH - (barH * t) / 4;
      out.push(
        `<line x1="${r1(x0)}" y1="${r1(y)}" x2="${r1(x0 + plotW)}" y2="${r1(y)}" stroke="#ddd"/>`,
      );
      text(x0 - 6, y + 4, tick((max * t) / 4), 'text-anchor="end" font-size="10" fill="#555"');
    }
    const bw = plotW / strategies.length;
    values.forEach((v, i) => {
      const h = (barH * v) / max;
      const x = x0 + i * bw + bw * 0.15;
      out.push(
        `<rect x="${r1(x)}" y="${r1(y0 + barH - h)}" width="${r1(bw * 0.7)}" height="${r1(Math.max(h, 0.5))}" fill="${COLOURS[i]}"/>`,
      );
      text(x + bw * 0.35, y0 + barH - h - 4, p.fmt(v), 'text-anchor="middle" font-size="10"');
    });
    out.push(
      `<line x1="${r1(x0)}" y1="${r1(y0 + barH)}" x2="${r1(x0 + plotW)}" y2="${r1(y0 + barH)}" stroke="#333"/>`,
    );
  });
  // legend
  const ly = top + 36 + barH + 24;
  strategies.forEach((s, i) => {
    const x = 50 + i * 225;
    out.push(`<rect x="${x}" y="${ly - 10}" width="12" height="12" fill="${COLOURS[i]}"/>`);
    text(x + 18, ly, s.label, 'font-size="11"');
  });

  // ---- scatter: tokens vs events, log y
  const sy = ly + 40;
  const sh = 320;
  const sx0 = 70;
  const sw = W - sx0 - 40;
  text(
    20,
    sy - 8,
    'Tokens to resume against scenario length (log scale)',
    'font-size="13" font-weight="bold"',
  );
  const tokens = runs.flatMap((r) => strategies.map((s) => r.results[s.key]?.tokens ?? 1));
  const lo = 10 ** Math.floor(Math.log10(Math.max(1, Math.min(...tokens))));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...tokens)));
  const maxEvents = niceMax(Math.max(...runs.map((r) => r.events)));
  const X = (/** @type {number} */ e) => sx0 + (sw * e) / maxEvents;
  const Y = (/** @type {number} */ t) =>
    sy + sh - (sh * (Math.log10(t) - Math.log10(lo))) / (Math.log10(hi) - Math.log10(lo));
  const longX = X(200);
  out.push(
    `<rect x="${r1(longX)}" y="${sy}" width="${r1(sx0 + sw - longX)}" height="${sh}" fill="#f4f8f4"/>`,
  );
  for (let d = lo; d <= hi; d *= 10) {
    out.push(
      `<line x1="${sx0}" y1="${r1(Y(d))}" x2="${sx0 + sw}" y2="${r1(Y(d))}" stroke="#ddd"/>`,
    );
    text(
      sx0 - 6,
      Y(d) + 4,
      d.toLocaleString('en-US'),
      'text-anchor="end" font-size="10" fill="#555"',
    );
    for (let m = 2; m < 10 && d * m < hi; m++)
      out.push(
        `<line x1="${sx0}" y1="${r1(Y(d * m))}" x2="${sx0 + sw}" y2="${r1(Y(d * m))}" stroke="#f2f2f2"/>`,
      );
  }
  for (let e = 0; e <= maxEvents; e += 50) {
    out.push(
      `<line x1="${r1(X(e))}" y1="${sy + sh}" x2="${r1(X(e))}" y2="${sy + sh + 4}" stroke="#333"/>`,
    );
    text(X(e), sy + sh + 16, `${Math.round(e)}`, 'text-anchor="middle" font-size="10" fill="#555"');
  }
  text(
    longX + 6,
    sy + 26,
    '200+ events: where the 10× token target applies',
    'font-size="10" fill="#555" stroke="white" stroke-width="3" paint-order="stroke"',
  );
  out.push(`<line x1="${sx0}" y1="${sy + sh}" x2="${sx0 + sw}" y2="${sy + sh}" stroke="#333"/>`);
  out.push(`<line x1="${sx0}" y1="${sy}" x2="${sx0}" y2="${sy + sh}" stroke="#333"/>`);
  text(
    sx0 + sw / 2,
    sy + sh + 34,
    'events in the scenario (both projects)',
    'text-anchor="middle" font-size="11"',
  );
  text(
    16,
    sy + sh / 2,
    'tokens (o200k_base)',
    `text-anchor="middle" font-size="11" transform="rotate(-90 16 ${r1(sy + sh / 2)})"`,
  );
  strategies.forEach((s, i) => {
    const pts = runs
      .map((r) => ({ x: r.events, y: r.results[s.key]?.tokens ?? 1 }))
      .sort((a, b) => a.x - b.x);
    for (const p of pts)
      out.push(
        `<circle cx="${r1(X(p.x))}" cy="${r1(Y(p.y))}" r="3.2" fill="${COLOURS[i]}" fill-opacity="0.75"/>`,
      );
  });
  const H = sy + sh + 48;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">\n<title>LCSM §13 evaluation: retention, superseded positions and leakage per context strategy, and tokens to resume against scenario length</title>\n<rect width="${W}" height="${H}" fill="white"/>\n${out.join('\n')}\n</svg>\n`;
}

/** An axis label: at most two decimals, no trailing zeros. @param {number} x */
const tick = (x) => String(Math.round(x * 100) / 100);

/** A round axis maximum at or above `x`. @param {number} x */
function niceMax(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}
