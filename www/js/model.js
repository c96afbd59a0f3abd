// The memory-access model on the run page: each result's prediction (which
// the server derives from the variant's declared accesses) in its table cell,
// a chart of predicted against measured over the swept parameter, each
// variant's accesses with what the model makes of them, and a sentence for
// every place the measurement departs from the prediction by more than 2×.
// Nothing here recomputes a figure the server provides.

import { bindingText } from './ceilings.js';
import { countedTable } from './counted.js';
import { barChart, fillDataTable, lineChart } from './charts.js';
import { el, fmtCountOf, fmtNumber } from './format.js';
import { metricOf, runVariants, sweptParam, timeStands, variantLabel, variantTitle } from './results.js';

const known = (v) => v !== null && v !== undefined;

// The line a table cell gets under its measurement.
export function predictionLine(r) {
  const p = r.prediction;
  if (p && p.pending) return el('span', { class: 'sub muted' }, 'model: computing…');
  if (!p || p.error) return p && p.error ? el('span', { class: 'sub muted', title: p.error }, 'no prediction here') : null;
  const parts = [];
  if (known(p.ceiling_pct)) parts.push(`${fmtNumber(p.ceiling_pct, 3)}% of copy`);
  else if (known(p.pct)) parts.push(`${fmtNumber(p.pct, 3)}% of copy`);
  if (known(p.sectors_per_request)) parts.push(`${fmtCountOf(p.sectors_per_request, 'sector')}/req`);
  if (known(p.conflict_degree)) parts.push(`${fmtNumber(p.conflict_degree, 3)}-way`);
  if (p.binding) parts.push(bindingText(p));
  return el('span', {
    class: `sub predicted${p.departure ? ' departs' : ''}`, 'data-efficiency': known(p.efficiency) ? String(p.efficiency) : '',
    title: p.departure || 'the model: one work-group\'s warps over the declared accesses',
  }, `model: ${parts.join(' · ')}${p.departure ? ' ⚠' : ''}`);
}

// What the chart compares: the measured and predicted share of the copy
// ceiling (bandwidth), the rates (throughput), or slowdown against the baseline.
function comparison(run, experiment) {
  if (experiment && experiment.baseline && run.results.some((r) => r.prediction && known(r.prediction.slowdown))) {
    return {
      title: `Slowdown vs ${experiment.baseline.param}, beside the slowdown the model predicts`,
      unit: 'slowdown (×)', measured: (r) => r.slowdown, predicted: (r) => r.prediction.slowdown,
      note: `Solid: measured time over the time at ${experiment.baseline.param} = ${experiment.baseline.value}. Dashed: the model's time at the point — its local-memory passes (the conflict degree over 32 banks × 4 bytes, warps of ${lanesOf(run)}) at this device's measured pace, never less than the baseline's own time — over the baseline's time; without the device's facts, the conflict degree over the degree there.`,
    };
  }
  const metric = metricOf(experiment);
  if (metric.key === 'gbps') {
    return {
      title: `Predicted beside measured: % of the copy ceiling vs ${sweptParam(run, experiment)}`,
      unit: '% of copy', measured: (r) => r.ceiling_pct,
      predicted: (r) => (known(r.prediction.ceiling_pct) ? r.prediction.ceiling_pct : r.prediction.pct),
      note: `Solid: measured, as a share of this device's copy ceiling. Dashed: the model's time — from its ceilings plus the launch, below — as the same share; without the device's facts, the useful share of the bytes the predicted sectors move (32-byte sectors, warps of ${lanesOf(run)}).`,
    };
  }
  return {
    title: `Predicted beside measured: ${metric.unit} vs ${sweptParam(run, experiment)}`,
    unit: metric.unit, measured: (r) => r[metric.key], predicted: (r) => r.prediction[metric.key],
    note: `Solid: measured. Dashed: the model's time — from its ceilings plus the launch, below; without the device's facts, the bytes the predicted sectors move at this device's copy ceiling (warps of ${lanesOf(run)}).`,
  };
}

function lanesOf(run) {
  const p = run.results.map((r) => r.prediction).find((x) => x && x.lanes);
  return p ? `${p.lanes} lanes` : '32 lanes';
}

function rangeOf(values) {
  const v = [...new Set(values)].sort((a, b) => a - b);
  return v.length <= 4 ? v.join(', ') : `${v[0]} … ${v[v.length - 1]} (${v.length} points)`;
}

// The run's departures as the server lists them: one per variant, direction
// and sentence, over the swept values where that sentence is said.
function departures(run, experiment) {
  return (run.departures || []).map((d) => {
    const where = Object.entries(d.where || {}).map(([k, v]) => `${k} = ${v}`).join(', ');
    const at = d.param ? `at ${d.param} = ${rangeOf(d.at)}` : '';
    const place = [at, where && (at ? `(${where})` : `at ${where}`)].filter(Boolean).join(' ');
    return el('li', { 'data-variant': d.variant },
      el('strong', {}, `${variantTitle(experiment, d.variant)}${place ? ` ${place}` : ''}: `), d.sentence);
  });
}

// The accesses of each variant with a prediction — declared in the catalog
// or the request, else traced — and the model's figures for them at the
// variant's last point, with the trace's figure beside a declared one.
function accessTable(run, experiment, x) {
  const rows = [];
  for (const v of runVariants(run, experiment)) {
    const rs = run.results.filter((r) => r.variant === v.id && r.prediction && r.prediction.accesses);
    if (!rs.length) continue;
    const last = rs[rs.length - 1];
    // Agreement is judged where the trace was taken.
    const atTrace = rs.find((r) => typeof r.prediction.trace_agrees === 'boolean');
    const agrees = atTrace ? atTrace.prediction.trace_agrees : null;
    const decl = v.custom
      ? ((run.request.kernels || []).find((k) => k.name === v.id) || {}).accesses
      : (((experiment && experiment.variants.find((d) => d.id === v.id)) || {}).model || {}).accesses;
    const p = last.prediction;
    const traced = p.source === 'traced';
    // Beside each declared access, the traced site of the same kind in the
    // same order (the n-th global load with the n-th, ...).
    const sites = traced ? [] : ((p.traced && p.traced.accesses) || []);
    const seen = new Map();
    p.accesses.forEach((a, i) => {
      const d = (decl || [])[i] || {};
      const kind = `${a.space} ${a.op}`;
      const n = seen.get(kind) || 0;
      seen.set(kind, n + 1);
      const t = sites.filter((s) => `${s.space} ${s.op}` === kind)[n];
      const figure = (s) => (!s ? '–' : s.space === 'local' ? `${fmtNumber(s.conflict_degree, 3)}-way` : fmtCountOf(s.sectors_per_request, 'sector'));
      rows.push(el('tr', { 'data-variant': v.id, class: agrees === false ? 'disagrees' : null },
        el('td', {}, i === 0 ? variantLabel(v, experiment) : ''),
        el('td', {}, kind),
        el('td', {}, traced ? `line ${a.line || '?'} (traced)` : [el('code', {}, `${a.array}[${d.index || '?'}]`),
          d.when ? el('span', { class: 'sub' }, `when ${d.when}`) : null,
          (d.loops || []).length ? el('span', { class: 'sub' }, d.loops.map((l) => `${l.var} = ${l.from}; ${l.while}; ${l.var} = ${l.next}`).join(' / ')) : null]),
        el('td', { class: 'num' }, fmtNumber(a.sectors_per_request, 3)),
        el('td', { class: 'num' }, fmtNumber(a.lines_per_request, 3)),
        el('td', { class: 'num' }, known(a.efficiency) ? `${fmtNumber(100 * a.efficiency, 3)}%` : '–'),
        el('td', { class: 'num' }, known(a.conflict_degree) ? `${fmtNumber(a.conflict_degree, 3)}-way` : '–'),
        el('td', { class: 'num' }, traced ? 'this is the trace' : p.traced ? figure(t) : 'not traced'),
        el('td', { class: 'num' }, i === 0 ? `${x} = ${last.params[x]}` : '')));
    });
    if (agrees === false) {
      rows.push(el('tr', { class: 'disagrees warn', 'data-variant': v.id },
        el('td', { colspan: '9' }, `${variantLabel(v, experiment)}: the declared accesses disagree with the trace of its code (traced at ${Object.entries(p.traced.traced_at).map(([k, val]) => `${k}=${val}`).join(', ')}): the prediction is the declaration's; the trace says ${fmtCountOf(p.traced.sectors_per_request, 'sector')} per request${known(p.traced.conflict_degree) ? `, ${fmtNumber(p.traced.conflict_degree, 3)}-way conflicts` : ''}.`)));
    }
  }
  if (!rows.length) return null;
  return el('table', { class: 'grid numbers', id: 'accesses' },
    el('thead', {}, el('tr', {}, ['variant', 'access', 'index or line', 'sectors/request', 'lines/request', 'useful bytes', 'bank conflict', 'traced', 'at']
      .map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows));
}

// The section: hidden when no result has a prediction. Returns the chart.
export function renderModel(run, experiment, chart) {
  const section = document.getElementById('model');
  const any = run.results.some((r) => r.prediction && !r.prediction.error);
  section.hidden = !any;
  if (!any) return chart;
  const x = sweptParam(run, experiment);
  const c = comparison(run, experiment);
  document.getElementById('model-title').textContent = c.title;
  document.getElementById('model-note').textContent = c.note;
  const series = [];
  runVariants(run, experiment).forEach((v, i) => {
    const rs = run.results.filter((r) => r.variant === v.id && timeStands(r)).sort((a, b) => a.params[x] - b.params[x]);
    const withPrediction = rs.filter((r) => r.prediction && !r.prediction.error && known(c.predicted(r)));
    series.push({ label: `${variantLabel(v, experiment)}: measured`, style: i, dash: 0,
      points: rs.filter((r) => known(c.measured(r))).map((r) => ({ x: r.params[x], y: c.measured(r) })) });
    if (withPrediction.length) {
      series.push({ label: `${variantLabel(v, experiment)}: predicted`, style: i, dash: 1,
        points: withPrediction.map((r) => ({ x: r.params[x], y: c.predicted(r) })) });
    }
  });
  const list = departures(run, experiment);
  const box = document.getElementById('departures');
  box.hidden = list.length === 0;
  document.getElementById('departure-list').replaceChildren(...list);
  document.getElementById('access-table').replaceChildren(...[accessTable(run, experiment, x)].filter(Boolean));
  const counted = countedTable(run, experiment);
  document.getElementById('counted-box').hidden = !counted;
  document.getElementById('counted-table').replaceChildren(...[counted].filter(Boolean));
  const canvas = document.getElementById('model-chart');
  fillDataTable(document.getElementById('model-chart-data'), { series, xTitle: x, yTitle: c.unit, format: (v) => fmtNumber(v, 3) });
  // One point: each variant's measured and predicted bars side by side.
  if (new Set(run.results.map((r) => JSON.stringify(r.params))).size <= 1) {
    document.getElementById('model-title').textContent = c.title.replace(/ vs [^:]*$/, '');
    document.getElementById('model-note').textContent = c.note.replace(/^Solid: measured/, 'Left bar of each pair: measured').replace('Dashed: ', 'Right bar: ');
    const variants = runVariants(run, experiment).filter((v) => series.some((s) => s.label.startsWith(`${variantLabel(v, experiment)}:`) && s.points.length));
    const value = (suffix, v) => {
      const s = series.find((q) => q.label === `${variantLabel(v, experiment)}: ${suffix}`);
      return s && s.points.length ? { y: s.points[0].y } : null;
    };
    canvas.setAttribute('aria-label', `Bar chart: ${c.unit} measured and predicted for each variant; the numbers are in the table below it.`);
    return barChart(canvas, chart, {
      labels: variants.map((v) => variantLabel(v, experiment)), xTitle: 'variant', yTitle: c.unit,
      groups: [{ label: 'measured', style: 0, values: variants.map((v) => value('measured', v)) },
        { label: 'predicted', style: 1, dash: 1, values: variants.map((v) => value('predicted', v)) }],
    });
  }
  canvas.setAttribute('aria-label', `Line chart: ${c.title}; the numbers are in the table below it.`);
  return lineChart(canvas, chart, { series, xTitle: x, yTitle: c.unit });
}
