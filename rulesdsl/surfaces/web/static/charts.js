// Charts drawn as SVG from the figures of a comparison: grouped bars with interval
// whiskers, horizontal bars, and a distribution drawn as lines.

import { h, s } from "./dom.js";

const PALETTE = 6; // the series colours, .fill-0 to .fill-5 in style.css

const pct = (x) => `${Math.round(x * 100)}%`;

/** Round gridlines from 0 past `value`: a step of 1, 2, 2.5 or 5 times a power of ten. */
function scale(value, share) {
  const top = Math.max(value, share ? 0.05 : 1e-9);
  const power = 10 ** Math.floor(Math.log10(top / 4));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => top / s <= 5);
  const ticks = [];
  for (let k = 0; k * step < top + step * 1e-9; k++) ticks.push(k * step);
  if (ticks[ticks.length - 1] < top) ticks.push(ticks.length * step);
  const label = (v) => (share ? `${+(v * 100).toFixed(1)}%` : String(+v.toPrecision(3)));
  return { top: ticks[ticks.length - 1], ticks, label };
}

function legend(series) {
  return h(
    "div",
    { class: "legend" },
    series.map((name, k) =>
      h("span", { class: "legend-item" }, h("span", { class: `swatch swatch-${k % PALETTE}` }), name),
    ),
  );
}

function figure(id, title, svg, series, note) {
  return h(
    "figure",
    { class: "chart", id },
    h("figcaption", {}, title),
    svg,
    series ? legend(series) : null,
    note ? h("p", { class: "chart-note" }, note) : null,
  );
}

function tooltip(text) {
  return s("title", {}, text);
}

/**
 * Grouped vertical bars with whiskers. groups: [{label, values: [{mean, low, high}|null per series]}].
 */
export function groupedBars({ id, title, groups, series, share, note, reference }) {
  const width = 560;
  const height = 260;
  const pad = { left: 48, right: 12, top: 12, bottom: 52 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const { top, ticks, label: tick } = scale(
    Math.max(0, ...groups.flatMap((g) => g.values.filter(Boolean).map((v) => v.high))),
    share,
  );
  const y = (v) => pad.top + plotH - (Math.max(0, v) / top) * plotH;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart-svg", role: "img", "aria-label": title });
  for (const v of ticks) {
    svg.append(
      s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: pad.left - 6, y: y(v) + 4, class: "axis-label", "text-anchor": "end" }, tick(v)),
    );
  }
  if (reference !== undefined) {
    svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(reference), y2: y(reference), class: "reference" }));
  }
  const groupW = plotW / groups.length;
  const barW = Math.min(36, (groupW * 0.8) / series.length);
  groups.forEach((group, g) => {
    const x0 = pad.left + g * groupW + (groupW - barW * series.length) / 2;
    group.values.forEach((v, k) => {
      if (!v) return;
      const x = x0 + k * barW;
      const label = `${series[k]}, ${group.label}: ${share ? (v.mean * 100).toFixed(1) + "%" : v.mean.toPrecision(3)} (${share ? (v.low * 100).toFixed(1) : v.low.toPrecision(3)}..${share ? (v.high * 100).toFixed(1) : v.high.toPrecision(3)})`;
      svg.append(
        s("rect", { x: x + 1, y: y(v.mean), width: barW - 2, height: Math.max(0, y(0) - y(v.mean)), class: `bar fill-${k % PALETTE}` }, tooltip(label)),
        s("line", { x1: x + barW / 2, x2: x + barW / 2, y1: y(v.low), y2: y(v.high), class: "whisker" }),
        s("line", { x1: x + barW / 2 - 5, x2: x + barW / 2 + 5, y1: y(v.low), y2: y(v.low), class: "whisker" }),
        s("line", { x1: x + barW / 2 - 5, x2: x + barW / 2 + 5, y1: y(v.high), y2: y(v.high), class: "whisker" }),
      );
    });
    const words = group.label.split(" ");
    const text = s("text", { x: pad.left + g * groupW + groupW / 2, y: height - pad.bottom + 16, class: "axis-label", "text-anchor": "middle" });
    words.reduce((lines, word) => {
      const last = lines[lines.length - 1];
      if (last && (last + " " + word).length <= 16) lines[lines.length - 1] = last + " " + word;
      else lines.push(word);
      return lines;
    }, []).forEach((line, n) => text.append(s("tspan", { x: pad.left + g * groupW + groupW / 2, dy: n === 0 ? 0 : 13 }, line)));
    svg.append(text);
  });
  svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }));
  return figure(id, title, svg, series, note);
}

/** Horizontal grouped bars (one row per label), shares with whiskers. */
export function rowBars({ id, title, rows, series, note }) {
  const rowH = 8 + 12 * series.length;
  const pad = { left: 150, right: 40, top: 8, bottom: 24 };
  const width = 560;
  const height = pad.top + pad.bottom + rows.length * rowH;
  const plotW = width - pad.left - pad.right;
  const x = (v) => pad.left + Math.max(0, Math.min(1, v)) * plotW;
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart-svg", role: "img", "aria-label": title });
  for (let k = 0; k <= 4; k++) {
    svg.append(
      s("line", { x1: x(k / 4), x2: x(k / 4), y1: pad.top, y2: height - pad.bottom, class: "grid" }),
      s("text", { x: x(k / 4), y: height - 8, class: "axis-label", "text-anchor": "middle" }, pct(k / 4)),
    );
  }
  rows.forEach((row, r) => {
    const y0 = pad.top + r * rowH + 4;
    svg.append(s("text", { x: pad.left - 8, y: y0 + (rowH - 8) / 2 + 4, class: "axis-label", "text-anchor": "end" }, row.label));
    row.values.forEach((v, k) => {
      if (!v) return;
      const y = y0 + k * 12;
      svg.append(
        s("rect", { x: pad.left, y, width: x(v.mean) - pad.left, height: 10, class: `bar fill-${k % PALETTE}` }, tooltip(`${series[k]}, ${row.label}: ${(v.mean * 100).toFixed(1)}%`)),
        s("line", { x1: x(v.low), x2: x(v.high), y1: y + 5, y2: y + 5, class: "whisker" }),
      );
    });
  });
  return figure(id, title, svg, series, note);
}

/** Distributions as lines with points: series of {count by x}. */
export function distribution({ id, title, series, names, xLabel }) {
  const width = 560;
  const height = 240;
  const pad = { left: 48, right: 12, top: 12, bottom: 40 };
  const shares = series.map((counts) => {
    const total = Object.values(counts).reduce((a, b) => a + b, 0) || 1;
    return Object.entries(counts).map(([x, n]) => [Number(x), n / total]);
  });
  const xs = shares.flat().map(([x]) => x);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const { top, ticks, label: tick } = scale(Math.max(...shares.flat().map(([, v]) => v)), true);
  const px = (v) => pad.left + ((v - lo) / Math.max(1, hi - lo)) * (width - pad.left - pad.right);
  const py = (v) => pad.top + (1 - v / top) * (height - pad.top - pad.bottom);
  const svg = s("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart-svg", role: "img", "aria-label": title });
  for (const v of ticks) {
    svg.append(
      s("line", { x1: pad.left, x2: width - pad.right, y1: py(v), y2: py(v), class: "grid" }),
      s("text", { x: pad.left - 6, y: py(v) + 4, class: "axis-label", "text-anchor": "end" }, tick(v)),
    );
  }
  const step = Math.max(1, Math.ceil((hi - lo + 1) / 14));
  for (let v = lo; v <= hi; v += step) {
    svg.append(s("text", { x: px(v), y: height - pad.bottom + 16, class: "axis-label", "text-anchor": "middle" }, String(v)));
  }
  svg.append(s("text", { x: (width + pad.left) / 2, y: height - 6, class: "axis-label", "text-anchor": "middle" }, xLabel));
  shares.forEach((points, k) => {
    const sorted = [...points].sort((a, b) => a[0] - b[0]);
    svg.append(s("polyline", { points: sorted.map(([x, v]) => `${px(x)},${py(v)}`).join(" "), class: `line stroke-${k % PALETTE}` }));
    for (const [x, v] of sorted) {
      svg.append(s("circle", { cx: px(x), cy: py(v), r: 3, class: `dot fill-${k % PALETTE}` }, tooltip(`${names[k]}, ${x} ${xLabel}: ${(v * 100).toFixed(1)}%`)));
    }
  });
  svg.append(s("line", { x1: pad.left, x2: width - pad.right, y1: py(0), y2: py(0), class: "axis" }));
  return figure(id, title, svg, names);
}
