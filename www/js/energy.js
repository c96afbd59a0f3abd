// Energy per useful byte on the run page: each result's energy
// as the server derived it (r.energy: joules per launch as picojoules per
// useful byte — the bytes the GB/s counts — and per byte DRAM moved, the
// average power; or null, and r.energy_error where the device has no energy
// counter), as a line under each rate behind the table's toggle, a chart of
// it over the swept parameter, and one line above the table where the run
// asked for energy and the device could not measure it. Nothing here
// computes a figure.
import { barChart, fillDataTable, lineChart } from './charts.js';
import { el, fmtNumber } from './format.js';
import { isMultiplying, metricOf, runVariants, sweptParam, timeStands, variantLabel } from './results.js';

const known = (v) => v !== null && v !== undefined;

// The figure a run's energy is read in, by its metric (results.js's
// metricOf): per useful byte where the experiment counts bytes, per
// operation where it counts operations.
export function energyFigure(metric) {
  return metric.key === 'gops'
    ? { key: 'nj_per_op', unit: 'nJ/op', words: 'nJ per operation', title: 'Energy per operation' }
    : { key: 'pj_per_useful_byte', unit: 'pJ/B', words: 'pJ per useful byte', title: 'Energy per useful byte' };
}

// The line a table cell gets beside its rate: energy per unit of work, per
// byte moved where known, and the average power over the burst.
export function energyLine(r, metric) {
  const e = r.energy;
  if (!e) return null;
  const f = energyFigure(metric);
  const parts = [known(e[f.key]) ? `${fmtNumber(e[f.key])} ${f.words}` : `${fmtNumber(e.j_per_launch)} J per launch`];
  if (known(e.pj_per_moved_byte)) parts.push(`${fmtNumber(e.pj_per_moved_byte)} per byte moved (${e.moved_bytes_from === 'counters' ? 'counted' : 'model'})`);
  parts.push(`${fmtNumber(e.avg_w)} W`);
  return el('span', {
    class: `sub energy${e.throttled ? ' warn' : ''}`, 'data-energy': known(e[f.key]) ? String(e[f.key]) : '',
    title: `${fmtNumber(e.j_per_launch)} J per launch (${known(e.pj_per_useful_byte_above_idle) ? `${fmtNumber(e.pj_per_useful_byte_above_idle)} pJ per useful byte above the idle ${fmtNumber(e.idle_w)} W` : `idle ${fmtNumber(e.idle_w)} W`}), from ${e.launches} launches back to back in ${fmtNumber(e.burst_ms)} ms${e.throttled ? '; the GPU was throttled during the burst' : ''}`,
  }, `energy: ${parts.join(' · ')}${e.throttled ? ' (throttled)' : ''}`);
}

// The one line above the table where the run asked for energy and got
// none: every distinct reason the server gave, once.
export function renderEnergyNote(run) {
  const note = document.getElementById('energy-note');
  const reasons = [...new Set(run.results.map((r) => r.energy_error).filter(Boolean))];
  note.hidden = reasons.length === 0;
  note.textContent = reasons.length
    ? `Energy was asked for but not measured${run.results.some((r) => r.energy) ? ' for some results' : ''}: ${reasons.join('; ')}.`
    : '';
}

// The chart of energy per unit of work over the swept parameter (bars for a
// run of one point), with its numbers as a table; the section stays hidden
// where no result has energy. Returns the chart, to update next time.
export function renderEnergyChart(run, experiment, chart) {
  const section = document.getElementById('energy');
  const f = energyFigure(metricOf(experiment));
  const measured = run.results.filter((r) => timeStands(r) && r.energy && known(r.energy[f.key]));
  section.hidden = measured.length === 0;
  if (section.hidden) return chart;
  const x = sweptParam(run, experiment);
  const def = experiment && experiment.params[x];
  const canvas = document.getElementById('energy-chart');
  const series = runVariants(run, experiment).map((v, i) => ({
    label: variantLabel(v, experiment), style: i, dash: v.custom ? 1 : 0,
    points: measured.filter((r) => r.variant === v.id).map((r) => ({ x: r.params[x], y: r.energy[f.key], meta: `${fmtNumber(r.energy.avg_w)} W, ${fmtNumber(r.energy.j_per_launch)} J per launch` }))
      .sort((a, b) => a.x - b.x),
  }));
  const drawn = series.filter((s) => s.points.length);
  const onePoint = new Set(measured.map((r) => JSON.stringify(r.params))).size <= 1;
  const title = onePoint ? `${f.title} of each variant` : `${f.title} vs ${x}`;
  document.getElementById('energy-title').textContent = title;
  if (onePoint) {
    chart = barChart(canvas, chart, { labels: drawn.map((s) => s.label), groups: [{ label: f.unit, values: drawn.map((s) => s.points[0]) }], xTitle: 'variant', yTitle: f.unit });
    fillDataTable(document.getElementById('energy-chart-data'), { series: drawn.map((s) => ({ label: s.label, points: [{ x: 'measured', y: s.points[0].y }] })), xTitle: '', yTitle: f.unit, format: (v) => fmtNumber(v) });
  } else {
    chart = lineChart(canvas, chart, { series, xTitle: def && def.title ? `${x} — ${def.title}` : x, yTitle: f.unit, logX: isMultiplying(run, x) });
    fillDataTable(document.getElementById('energy-chart-data'), { series, xTitle: x, yTitle: f.unit, format: (v) => fmtNumber(v) });
  }
  canvas.setAttribute('aria-label', `${onePoint ? 'Bar' : 'Line'} chart: ${title.toLowerCase()} in ${f.unit}, ${onePoint ? 'a bar' : 'a line'} per variant; the numbers are in the table below it.`);
  return chart;
}
