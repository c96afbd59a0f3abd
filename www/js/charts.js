// Line charts of results with Chart.js (window.Chart from /vendor/chart.umd.js),
// its annotation plugin for marked points and its error-bar plugin
// (window.ChartErrorBars) for each point's 95% interval. Colours are the Okabe-Ito palette, and a grey,
// and every line also has its own point shape (and, for overlaid runs, its own
// dash), so lines stay apart for colour-blind readers and on a washed-out
// projector. Animation is off: a finished run draws the same every time.
// An x axis of whole numbers (the swept size, stride or count) has its ticks
// at the measured points and reads as sizes do: "64 Mi", not "67,108,864".
import { fmtCount } from './format.js';

// A ninth, grey with a dash of its own, for the ninth line (the measured
// rate and eight ceilings) not to take the first's colour and shape.
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442', '#7F7F7F'];
const SHAPES = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross', 'dash'];
const DASHES = [[], [6, 4], [2, 3], [10, 3, 2, 3]];

if (window.Chart && window['chartjs-plugin-annotation']) window.Chart.register(window['chartjs-plugin-annotation']);
const ERROR_BARS = Boolean(window.Chart && window.ChartErrorBars);
if (ERROR_BARS) {
  window.Chart.register(window.ChartErrorBars.LineWithErrorBarsController, window.ChartErrorBars.PointWithErrorBar,
    window.ChartErrorBars.BarWithErrorBarsController, window.ChartErrorBars.BarWithErrorBar);
}

function styleFor(i, dash = 0) {
  return {
    borderColor: PALETTE[i % PALETTE.length],
    backgroundColor: PALETTE[i % PALETTE.length],
    pointStyle: SHAPES[i % SHAPES.length],
    pointRadius: 4,
    borderWidth: 2,
    borderDash: DASHES[dash % DASHES.length],
  };
}

// Marks at points (drops): [{x, y, label}] as annotation-plugin points with
// labels; bands: [{xMin, xMax, label}] as shaded spans of the x axis.
function annotationsFor(marks, bands = []) {
  const out = {};
  bands.forEach((b, i) => {
    out[`band${i}`] = {
      type: 'box', xMin: b.xMin, xMax: b.xMax, backgroundColor: 'rgba(138, 90, 0, 0.08)', borderWidth: 0,
      label: { display: true, content: b.label, position: { x: 'center', y: 'start' }, color: '#8a5a00', font: { size: 11 } },
    };
  });
  marks.forEach((m, i) => {
    out[`mark${i}`] = {
      type: 'point', xValue: m.x, yValue: m.y, radius: 7,
      backgroundColor: 'rgba(179, 38, 30, 0.25)', borderColor: '#b3261e', borderWidth: 2,
    };
    out[`label${i}`] = {
      type: 'label', xValue: m.x, yValue: m.y, yAdjust: 22, content: m.label,
      color: '#b3261e', font: { weight: 'bold', size: 11 }, backgroundColor: 'rgba(255,255,255,0.85)',
    };
  });
  return out;
}

// The most points that each get a tick of their own; past that, a linear
// axis gets about TICKS_BINARY ticks a power of two apart (1024, 2048, ...
// or 8 Mi, 16 Mi, ...), a logarithmic one every point, thinned by Chart.js
// where their labels would overlap.
const POINT_TICKS_MAX = 16;
const TICKS_BINARY = 8;

// A value as the x axis writes it: a whole number as sizes read ("64 Mi",
// "256 Ki", "1536"), anything else as Chart.js would ("0.5").
function xTick(value, index, ticks) {
  if (Number.isInteger(value)) return fmtCount(value);
  const formatters = window.Chart.Ticks.formatters;
  return (this.type === 'logarithmic' ? formatters.logarithmic : formatters.numeric).call(this, value, index, ticks);
}

// The x axis's ticks for the points drawn, labelled by xTick; where every x
// is an integer, placed as above rather than at round decimals.
function xTicks(drawn) {
  const xs = [...new Set(drawn.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  const integers = xs.length > 0 && xs.every(Number.isInteger);
  const place = (scale) => {
    if (!integers) return;
    if (xs.length <= POINT_TICKS_MAX || scale.type === 'logarithmic') {
      scale.ticks = xs.map((value) => ({ value }));
      return;
    }
    const step = 2 ** Math.max(0, Math.ceil(Math.log2((scale.max - scale.min) / TICKS_BINARY)));
    const ticks = [];
    for (let v = Math.ceil(scale.min / step) * step; v <= scale.max; v += step) ticks.push({ value: v });
    scale.ticks = ticks;
  };
  return { ticks: { callback: xTick }, afterBuildTicks: place };
}

// What the tooltip says of a point: its value, and where the point carries
// them its interval, samples, spread and cache mode.
function tooltipLines(ctx) {
  const p = ctx.raw || {};
  const lines = [`${ctx.dataset.label}: ${p.y === undefined ? '' : Number(p.y).toPrecision(4)}`];
  if (p.yMin !== undefined && p.yMax !== undefined) lines.push(`95% interval ${Number(p.yMin).toPrecision(4)} … ${Number(p.yMax).toPrecision(4)}`);
  if (p.meta) lines.push(p.meta);
  return lines;
}

// The tooltip's heading: the point's x, as the axis writes it.
function tooltipTitle(items) {
  const x = items.length ? items[0].parsed.x : undefined;
  return Number.isInteger(x) ? fmtCount(x) : items.length ? items[0].label : '';
}

// Create or update a line chart on canvas. series: [{label, points: [{x, y,
// yMin?, yMax?, meta?}], style: index, dash: index}]; marks: [{x, y, label}].
// Points with yMin/yMax get error bars; logY for rates of several orders.
export function lineChart(canvas, existing, { series, xTitle, yTitle, logX = false, logY = false, marks = [], bands = [] }) {
  // A bar chart on this canvas (the run had one point) gives way to lines.
  if (existing && existing.config.type.startsWith('bar')) {
    existing.destroy();
    existing = null;
  }
  // A series with nothing to draw would only crowd the legend.
  const drawn = series.map((s, i) => ({ ...s, style: s.style ?? i })).filter((s) => s.points.length > 0);
  const datasets = drawn.map((s) => ({
    label: s.label,
    data: s.points,
    ...styleFor(s.style, s.dash ?? 0),
  }));
  const annotation = { annotations: annotationsFor(marks, bands) };
  const xAxis = xTicks(drawn);
  if (existing) {
    existing.data.datasets = datasets;
    existing.options.scales.x.afterBuildTicks = xAxis.afterBuildTicks;
    existing.options.scales.x.title.text = xTitle;
    existing.options.scales.y.title.text = yTitle;
    existing.options.scales.x.type = logX ? 'logarithmic' : 'linear';
    existing.options.scales.y.type = logY ? 'logarithmic' : 'linear';
    existing.options.plugins.annotation = annotation;
    existing.update();
    return existing;
  }
  const bars = ERROR_BARS && drawn.some((s) => s.points.some((p) => p.yMin !== undefined));
  return new window.Chart(canvas, {
    type: bars ? 'lineWithErrorBars' : 'line',
    data: { datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      parsing: bars ? undefined : false,
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: { type: logX ? 'logarithmic' : 'linear', title: { display: true, text: xTitle }, ...xAxis },
        y: { type: logY ? 'logarithmic' : 'linear', beginAtZero: !logY, title: { display: true, text: yTitle } },
      },
      plugins: { legend: { position: 'bottom' }, annotation, tooltip: { callbacks: { title: tooltipTitle, label: tooltipLines } } },
    },
  });
}

// Create or update a bar chart on canvas (a run of one point: its variants
// side by side). labels: the bars' names; groups: [{label, style?, dash?,
// values: [{y, yMin?, yMax?} or null]}], one bar per label each — one group
// is coloured bar by bar, several by group with a legend; intervals as
// error bars where given.
export function barChart(canvas, existing, { labels, groups, xTitle, yTitle }) {
  if (existing) existing.destroy();
  const withBars = ERROR_BARS && groups.some((g) => g.values.some((v) => v && v.yMin !== undefined));
  const one = groups.length === 1;
  const datasets = groups.map((g, k) => {
    const colours = one ? labels.map((_, i) => PALETTE[i % PALETTE.length]) : PALETTE[(g.style ?? k) % PALETTE.length];
    return {
      label: g.label,
      data: g.values.map((v) => (!v ? null : withBars ? { y: v.y, yMin: v.yMin ?? v.y, yMax: v.yMax ?? v.y } : v.y)),
      backgroundColor: colours,
      borderColor: colours,
      borderWidth: 2,
      borderDash: DASHES[(g.dash ?? 0) % DASHES.length],
    };
  });
  return new window.Chart(canvas, {
    type: withBars ? 'barWithErrorBars' : 'bar',
    data: { labels, datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      // Bars are read by their length: the axis starts at zero (the error-bar
      // controller's range ignores beginAtZero, so min is set).
      scales: { x: { title: { display: true, text: xTitle } }, y: { min: 0, title: { display: true, text: yTitle } } },
      plugins: { legend: { display: !one, position: 'bottom' } },
    },
  });
}

// Create a scatter chart on canvas: series [{label, points: [{x, y, meta}],
// style?, line?}], a series with line joined point to point in x's order
// (a front); each point's tooltip names it by its meta.
export function scatterChart(canvas, { series, xTitle, yTitle }) {
  const datasets = series.filter((s) => s.points.length > 0).map((s, i) => ({
    label: s.label,
    data: s.line ? [...s.points].sort((a, b) => a.x - b.x) : s.points,
    showLine: Boolean(s.line),
    ...styleFor(s.style ?? i),
  }));
  return new window.Chart(canvas, {
    type: 'scatter',
    data: { datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: { x: { title: { display: true, text: xTitle } }, y: { title: { display: true, text: yTitle } } },
      plugins: {
        legend: { position: 'bottom' },
        tooltip: { callbacks: { title: (items) => (items.length ? items[0].raw.meta || '' : ''), label: (ctx) => `${ctx.dataset.label}: ${Number(ctx.raw.x).toPrecision(4)}, ${Number(ctx.raw.y).toPrecision(4)}` } },
      },
    },
  });
}

// A chart's numbers as a table (its text alternative): a row per x value,
// a column per series (its unit yTitle, or the series' own unit); into
// table (thead and tbody replaced).
export function fillDataTable(table, { series, xTitle, yTitle, format = (v) => String(v) }) {
  const drawn = series.filter((s) => s.points.length > 0);
  const xs = [...new Set(drawn.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : 0));
  const cellOf = (s, x) => {
    const p = s.points.find((q) => q.x === x);
    return p ? format(p.y) : '–';
  };
  const th = (text, attrs = {}) => { const e = document.createElement('th'); e.textContent = text; for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v); return e; };
  const td = (text) => { const e = document.createElement('td'); e.className = 'num'; e.textContent = text; return e; };
  const head = document.createElement('tr');
  // A header cell is never empty: a screen reader would read nothing there.
  head.append(th(xTitle || 'point', { scope: 'col' }), ...drawn.map((s) => th(`${s.label} (${s.unit ?? yTitle})`, { scope: 'col', class: 'num' })));
  const rows = xs.map((x) => {
    const tr = document.createElement('tr');
    tr.append(th(Number.isInteger(x) ? fmtCount(x) : String(x), { scope: 'row' }), ...drawn.map((s) => td(cellOf(s, x))));
    return tr;
  });
  const thead = document.createElement('thead');
  thead.append(head);
  const tbody = document.createElement('tbody');
  tbody.append(...rows);
  table.replaceChildren(thead, tbody);
}
