// The run page's tuning block: at each size of a tuning run, the server's
// sentence on the fastest configuration and its margin over the catalog's
// settings, why it wins against another configuration, for the model's
// strategy how its ranking held, "Run again with the best" (the server's
// request for it), the server's summary of the search, and the space
// measured as a chart of measured beside predicted time, with its numbers
// as a table; a search for energy, or time and energy, also the server's
// sentence on energy and the space as time against energy, its front
// joined. Nothing here judges; it only shows.
import { barChart, fillDataTable, scatterChart } from './charts.js';
import { el, fmtNumber } from './format.js';

// The chart shows the fastest configurations of a size; its table holds all.
const CHART_MAX = 40;
const charts = [];

const known = (v) => v !== null && v !== undefined;

function sizeBlock(size, i) {
  // With energy measured the chart is time against energy, every
  // configuration; else the fastest as bars.
  const energy = size.energy && size.energy.measured > 0;
  const shown = energy ? size.space : size.space.slice(0, CHART_MAX);
  const where = Object.entries(size.at).map(([k, v]) => `${k} = ${v}`).join(', ') || 'this size';
  const canvas = el('canvas', {
    role: 'img',
    'aria-label': energy
      ? `Scatter chart of the ${shown.length} configurations at ${where}: time in ms across, energy a launch in mJ up${size.energy.front ? ', the front of those no other beats on both joined' : ''}; the numbers are in the table below it.`
      : `Bar chart of the ${shown.length} fastest configurations at ${where}: measured and predicted time in ms, fastest first; the numbers are in the table below it.`,
  });
  const table = el('table', { class: 'grid numbers', id: `tuning-data-${i}` });
  const row = (c) => (c.front ? `${c.label} (on the front)` : c.label);
  const series = [
    { label: 'measured', points: size.space.map((c) => ({ x: row(c), y: c.median_ms })) },
    { label: 'predicted', points: size.space.filter((c) => known(c.predicted_ms)).map((c) => ({ x: row(c), y: c.predicted_ms })) },
  ];
  if (energy) series.push({ label: 'energy a launch', unit: 'mJ', points: size.space.filter((c) => known(c.energy_j)).map((c) => ({ x: row(c), y: c.energy_j * 1e3 })) });
  fillDataTable(table, { series, xTitle: 'configuration', yTitle: 'ms', format: (v) => fmtNumber(v) });
  const block = el('li', { class: 'tuning-size' },
    el('p', { class: 'tuning-sentence' }, size.best_sentence),
    size.energy && size.energy.sentence ? el('p', { class: 'tuning-energy' }, size.energy.sentence) : '',
    size.why ? el('p', { class: 'tuning-why' }, el('strong', {}, 'Why it wins. '), size.why) : '',
    size.model_sentence ? el('p', { class: 'tuning-model' }, size.model_sentence) : '',
    shown.length > 1 ? el('div', { class: 'chart-box' }, canvas) : '',
    shown.length < size.space.length ? el('p', { class: 'muted' }, `The chart shows the ${shown.length} fastest of the ${size.space.length} configurations measured; the table holds all.`) : '',
    el('details', { class: 'chart-data' }, el('summary', {}, 'The space\'s numbers'),
      el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': `the tuning space's numbers, size ${i + 1}` }, table)));
  return { block, canvas, shown, energy };
}

export function renderTuning(run) {
  const box = document.getElementById('tuning');
  const t = run.tuning;
  box.hidden = !t;
  while (charts.length) charts.pop().destroy();
  if (!t) return;
  const sizes = t.sizes.map(sizeBlock);
  // The best and why it wins come first; what was searched after them.
  box.replaceChildren(
    el('h2', { id: 'tuning-h' }, 'Tuning'),
    el('ul', { class: 'tuning-sizes' }, ...sizes.map((s) => s.block)),
    t.best_request ? el('p', {}, el('a', { id: 'again-best', class: 'button', href: `/?again=${run.id}&best=1#${run.request.definition ? 'own' : 'queue'}` }, 'Run again with the best')) : '',
    el('p', { class: 'muted tuning-summary' }, t.summary,
      t.strategy === 'model' ? [' ', el('a', { id: 'tuning-space-csv', href: `/api/runs/${run.id}/space.csv` }, 'Every configuration, ranked (CSV)')] : ''));
  for (const s of sizes) {
    if (s.shown.length < 2) continue;
    if (s.energy) {
      const point = (c) => ({ x: c.median_ms, y: c.energy_j * 1e3, meta: `${c.label} (${c.variant})` });
      const withEnergy = s.shown.filter((c) => known(c.energy_j));
      charts.push(scatterChart(s.canvas, {
        series: [
          { label: 'configuration', points: withEnergy.filter((c) => !c.front).map(point) },
          { label: 'front: none both faster and of less energy', points: withEnergy.filter((c) => c.front).map(point), line: true, style: 1 },
        ],
        xTitle: 'time, ms',
        yTitle: 'energy a launch, mJ',
      }));
      continue;
    }
    const predicted = s.shown.map((c) => (c.predicted_ms === null || c.predicted_ms === undefined ? null : { y: c.predicted_ms }));
    const groups = [{ label: 'measured', style: 0, values: s.shown.map((c) => ({ y: c.median_ms })) }];
    if (predicted.some(Boolean)) groups.push({ label: 'predicted', style: 1, dash: 1, values: predicted });
    charts.push(barChart(s.canvas, null, { labels: s.shown.map((c) => c.label), groups, xTitle: 'configuration, fastest first', yTitle: 'ms' }));
  }
}
