// The run on this device's ceilings: for one variant at a time,
// its measured rate over the swept parameter beside the rate each of the
// model's ceilings alone would allow (DRAM, the last-level cache, local
// memory, latency, barriers, issue, work-group starts; each with the launch's cost) — a roofline whose roofs are
// the device's measured facts — and a line saying which ceiling binds at
// each point and by how much. The server computes every figure
// (prediction.ceiling_rates, binding, binding_margin); this only draws them.
import { lineChart } from './charts.js';
import { el, fmtCount, fmtNumber } from './format.js';
import { metricOf, runVariants, sweptParam, timeStands, variantLabel } from './results.js';

const NAMES = { dram: 'DRAM', cache: 'last-level cache', l1: 'first-level cache', local: 'local memory', latency: 'latency', barrier: 'barriers', issue: 'instruction issue', groups: 'work-group starts' };

let selected = null;
let current = null;	// the chart, redrawn in place when another variant is picked

// "DRAM-bound (1.4× the next)" for a prediction with ceilings; where the
// waves wait at barriers for their loads, DRAM's time holds those waits,
// and the text says so: "DRAM-bound, with 33.6 µs of barrier drains …".
export function bindingText(p) {
  if (!p || !p.binding) return null;
  const drains = p.binding === 'dram' && p.drain_ms ? `, with ${fmtNumber(p.drain_ms * 1000, 3)} µs of barrier drains` : '';
  return `${NAMES[p.binding] || p.binding}-bound${drains}${p.binding_margin ? ` (${fmtNumber(p.binding_margin, 2)}× the next)` : ''}`;
}

function bindingLine(rs, x) {
  const spans = [];
  for (const r of rs) {
    const last = spans[spans.length - 1];
    const b = r.prediction.binding;
    if (last && last.b === b) last.to = r.params[x];
    else spans.push({ b, from: r.params[x], to: r.params[x] });
  }
  return spans.map((s) => `${NAMES[s.b] || s.b} at ${x} = ${s.from === s.to ? fmtCount(s.from) : `${fmtCount(s.from)} … ${fmtCount(s.to)}`}`).join('; ');
}

// Draw into the model section; returns the chart (or null when no result has ceilings).
export function renderCeilings(run, experiment, chart) {
  const box = document.getElementById('ceilings');
  const withCeilings = run.results.filter((r) => timeStands(r) && r.prediction && r.prediction.ceiling_rates);
  box.hidden = withCeilings.length === 0;
  if (box.hidden) return chart;
  const x = sweptParam(run, experiment);
  const metric = metricOf(experiment);
  const variants = runVariants(run, experiment).filter((v) => withCeilings.some((r) => r.variant === v.id));
  if (!selected || !variants.some((v) => v.id === selected)) selected = variants[0].id;
  const select = document.getElementById('ceilings-variant');
  select.replaceChildren(...variants.map((v) => el('option', { value: v.id, selected: v.id === selected }, variantLabel(v, experiment))));
  select.onchange = () => {
    selected = select.value;
    renderCeilings(run, experiment, current);
  };
  const rs = withCeilings.filter((r) => r.variant === selected).sort((a, b) => a.params[x] - b.params[x]);
  const series = [
    { label: 'measured', style: 0, dash: 0, points: rs.map((r) => ({ x: r.params[x], y: r[metric.key] })) },
    { label: 'predicted (the ceilings + the launch)', style: 0, dash: 1,
      points: rs.map((r) => ({ x: r.params[x], y: r.prediction[metric.key] })) },
  ];
  Object.keys(NAMES).forEach((name, i) => {
    const points = rs.filter((r) => r.prediction.ceiling_rates[name]).map((r) => ({ x: r.params[x], y: r.prediction.ceiling_rates[name] }));
    if (points.length) series.push({ label: `${NAMES[name]} alone`, style: i + 1, dash: 2, points });
  });
  document.getElementById('ceilings-binding').textContent = `Binding ceiling: ${bindingLine(rs, x)}.`;
  // One point: the ceilings' rates in words, no curve to draw.
  const onePoint = rs.length <= 1;
  document.getElementById('ceilings-chart').parentElement.hidden = onePoint;
  if (onePoint) {
    const r = rs[0];
    const rates = r ? Object.keys(NAMES).filter((n) => r.prediction.ceiling_rates[n]).map((n) => `${NAMES[n]} alone ${fmtNumber(r.prediction.ceiling_rates[n])} ${metric.unit}`) : [];
    document.getElementById('ceilings-binding').textContent = `Binding ceiling: ${bindingLine(rs, x)}. ${rates.length ? `Each ceiling's rate were it the only limit: ${rates.join(', ')}; measured ${fmtNumber(r[metric.key])} ${metric.unit}.` : ''}`;
    return current;
  }
  current = lineChart(document.getElementById('ceilings-chart'), chart || current, { series, xTitle: x, yTitle: `${metric.unit} (log scale)`, logY: true });
  return current;
}
