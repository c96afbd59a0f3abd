// The run page's tuning block: at each size of a tuning run, the server's
// sentence on the fastest configuration and its margin over the catalog's
// settings, why it wins against another configuration, for the model's
// strategy how its ranking held, "Run again with the best" (the server's
// request for it), the server's summary of the search, and the space
// measured as a chart of measured beside predicted time, with its numbers
// as a table. Nothing here judges; it only shows.
import { barChart, fillDataTable } from './charts.js';
import { el, fmtNumber } from './format.js';

// The chart shows the fastest configurations of a size; its table holds all.
const CHART_MAX = 40;
const charts = [];

function sizeBlock(size, i) {
  const shown = size.space.slice(0, CHART_MAX);
  const canvas = el('canvas', {
    role: 'img',
    'aria-label': `Bar chart of the ${shown.length} fastest configurations at ${Object.entries(size.at).map(([k, v]) => `${k} = ${v}`).join(', ') || 'this size'}: measured and predicted time in ms, fastest first; the numbers are in the table below it.`,
  });
  const table = el('table', { class: 'grid numbers', id: `tuning-data-${i}` });
  const series = [
    { label: 'measured', points: size.space.map((c) => ({ x: c.label, y: c.median_ms })) },
    { label: 'predicted', points: size.space.filter((c) => c.predicted_ms !== null && c.predicted_ms !== undefined).map((c) => ({ x: c.label, y: c.predicted_ms })) },
  ];
  fillDataTable(table, { series, xTitle: 'configuration', yTitle: 'ms', format: (v) => fmtNumber(v) });
  const block = el('li', { class: 'tuning-size' },
    el('p', { class: 'tuning-sentence' }, size.best_sentence),
    size.why ? el('p', { class: 'tuning-why' }, el('strong', {}, 'Why it wins. '), size.why) : '',
    size.model_sentence ? el('p', { class: 'tuning-model' }, size.model_sentence) : '',
    shown.length > 1 ? el('div', { class: 'chart-box' }, canvas) : '',
    shown.length < size.space.length ? el('p', { class: 'muted' }, `The chart shows the ${shown.length} fastest of the ${size.space.length} configurations measured; the table holds all.`) : '',
    el('details', { class: 'chart-data' }, el('summary', {}, 'The space\'s numbers'),
      el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': `the tuning space's numbers, size ${i + 1}` }, table)));
  return { block, canvas, shown };
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
    el('p', { class: 'muted tuning-summary' }, t.summary));
  for (const s of sizes) {
    if (s.shown.length < 2) continue;
    const predicted = s.shown.map((c) => (c.predicted_ms === null || c.predicted_ms === undefined ? null : { y: c.predicted_ms }));
    const groups = [{ label: 'measured', style: 0, values: s.shown.map((c) => ({ y: c.median_ms })) }];
    if (predicted.some(Boolean)) groups.push({ label: 'predicted', style: 1, dash: 1, values: predicted });
    charts.push(barChart(s.canvas, null, { labels: s.shown.map((c) => c.label), groups, xTitle: 'configuration, fastest first', yTitle: 'ms' }));
  }
}
