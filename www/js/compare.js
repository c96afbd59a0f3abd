// The compare page, /compare?runs=1,2,3: the seeds' tables — a kernel per row,
// a device per column — built from the runs as the API returns them. The
// server judges the table (GET /api/compare): each result after the first
// run's is faster or slower only when their 95% intervals lie apart, "same
// within noise" otherwise, with the change of time in %; a row's fastest is
// starred only when it is apart from all the others. The page shows those
// verdicts as they come. The runs' curves are overlaid.
import { ApiError, banner, getJSON } from './api.js';
import { lineChart } from './charts.js';
import { el, fmtMs, fmtNumber, fmtPct, timeUnit } from './format.js';
import { metricOf, paramNames, pointKey, runVariants, sweptParam, variantLabel } from './results.js';

function runIds() {
  const text = new URLSearchParams(window.location.search).get('runs') || '';
  return [...new Set(text.split(',').map((t) => t.trim()).filter((t) => /^[1-9]\d{0,17}$/.test(t)))].slice(0, 12);
}

function columnTitle(run) {
  const d = run.device || {};
  return [el('a', { href: run.url }, `#${run.id}`), el('span', { class: 'sub' }, d.name ? `${d.name} (${d.type})` : run.request.device),
    el('span', { class: 'sub language' }, run.request.language === 'cuda' ? 'CUDA' : 'OpenCL'),
    run.label ? el('span', { class: 'sub' }, run.label) : null];
}

// The server's judgement of a cell: {verdict, change_pct} of run id in the
// row for (experiment, variant, point), and that row's fastest run.
function judgements(compare, names) {
  const rows = new Map();
  for (const row of compare.rows) {
    rows.set(`${row.experiment}|${row.variant}|${pointKey(row.params, names(row.experiment))}`, {
      fastest: row.fastest, cells: new Map(row.cells.map((c) => [c.run, c])),
    });
  }
  return rows;
}

function render(runs, catalog, compare) {
  const byId = (id) => catalog.experiments.find((e) => e.id === id) || null;
  const experiments = [...new Set(runs.map((r) => r.experiment))];
  const exp = byId(runs[0].experiment);
  const metric = metricOf(exp);
  document.getElementById('title').textContent = experiments.length === 1
    ? `Compare: ${exp ? exp.title : experiments[0]}` : `Compare: ${experiments.join(', ')}`;
  document.getElementById('intro').textContent = experiments.length === 1
    ? `${runs.length} runs of ${experiments[0]}.`
    : `These runs are of different experiments (${experiments.join(', ')}): rows match only where variant and point are the same.`;
  const judged = judgements(compare, (id) => paramNames(runs.find((r) => r.experiment === id), byId(id)));
  // Rows: every (experiment, variant, point) in first-seen order.
  const rows = new Map();
  for (const run of runs) {
    const names = paramNames(run, byId(run.experiment));
    for (const r of run.results) {
      const key = `${run.experiment}|${r.variant}|${pointKey(r.params, names)}`;
      const v = runVariants(run, byId(run.experiment)).find((x) => x.id === r.variant);
      if (!rows.has(key)) rows.set(key, { experiment: run.experiment, variant: r.variant, custom: Boolean(v && v.custom), title: v ? variantLabel(v, byId(run.experiment)) : r.variant, point: pointKey(r.params, names), judged: judged.get(key), cells: new Map() });
      rows.get(key).cells.set(run.id, r);
    }
  }
  // The seeds' shape: all points of one kernel together, kernels in catalog
  // order, custom kernels after the built-ins.
  const order = (row) => {
    const e = byId(row.experiment);
    const at = e && !row.custom ? e.variants.findIndex((v) => v.id === row.variant) : -1;
    return [experiments.indexOf(row.experiment), at < 0 ? 1000 : at];
  };
  const sorted = [...rows.values()].map((row, i) => ({ row, i })).sort((a, b) => {
    const [ea, va] = order(a.row);
    const [eb, vb] = order(b.row);
    return ea - eb || va - vb || a.i - b.i;
  }).map((x) => x.row);
  const head = el('tr', {}, el('th', { scope: 'col' }, 'Kernel'), el('th', { scope: 'col' }, 'Point'),
    runs.map((run) => el('th', { scope: 'col', class: 'num', 'data-run': String(run.id) }, columnTitle(run))));
  // One unit of time per column (a run), chosen for the column's values.
  const units = new Map(runs.map((run) => [run.id, timeUnit(sorted.map((row) => row.cells.get(run.id) && row.cells.get(run.id).median_ms))]));
  const body = sorted.map((row) => {
    return el('tr', {},
      el('th', { scope: 'row', class: row.custom ? 'custom' : null }, experiments.length > 1 ? `${row.experiment}: ` : '', row.title),
      el('td', {}, row.point),
      runs.map((run) => {
        const r = row.cells.get(run.id);
        if (!r) return el('td', { class: 'num muted' }, '–');
        if (r.median_ms === null) return el('td', { class: 'num bad', title: r.error || '' }, '✗ failed');
        const rate = r[metricOf(byId(run.experiment)).key];
        const fastest = Boolean(row.judged && row.judged.fastest === run.id);
        const cell = row.judged && row.judged.cells.get(run.id);
        const v = cell && cell.verdict ? cell : null;
        const said = v && (v.verdict === 'same' ? 'same within noise' : v.verdict);
        const change = v && v.change_pct !== null ? `${v.change_pct >= 0 ? '+' : '−'}${fmtPct(Math.abs(v.change_pct))}% time, ` : '';
        return el('td', {
          class: `num${fastest ? ' fastest' : ''}${r.verified ? '' : ' unverified'}${v ? ` ${v.verdict}` : ''}`,
          'data-run': String(run.id), 'data-median-ms': String(r.median_ms), 'data-verdict': v ? v.verdict : null, title: r.error || '',
        },
          fastest ? el('span', { class: 'star', 'aria-label': 'fastest' }, '★ ') : null,
          fmtMs(r.median_ms, units.get(run.id)), r.ci_pct !== null && r.ci_pct !== undefined ? el('span', { class: 'pm' }, ` ±${fmtPct(r.ci_pct)}%`) : null,
          r.verified ? '' : ' ✗',
          el('span', { class: 'sub' }, rate === null ? '' : `${fmtNumber(rate)} ${metricOf(byId(run.experiment)).unit}`),
          v ? el('span', { class: 'sub verdict' }, `${change}${said}`) : null);
      }));
  });
  document.getElementById('table').replaceChildren(el('thead', {}, head), el('tbody', {}, body));

  // The overlay: the first run's swept parameter on x, every run's variants.
  const x = sweptParam(runs[0], exp);
  document.getElementById('chart-title').textContent = `${metric.title} vs ${x}, runs overlaid`;
  const variants = [...new Set(runs.flatMap((r) => runVariants(r, exp).map((v) => v.id)))];
  const series = [];
  runs.forEach((run, k) => {
    if (run.experiment !== runs[0].experiment) return;
    for (const v of runVariants(run, exp)) {
      series.push({
        label: `${variantLabel(v, exp)} · #${run.id} ${run.device && run.device.name ? run.device.name : ''}`.trim(),
        style: variants.indexOf(v.id),
        dash: k,
        points: run.results.filter((r) => r.variant === v.id && r.verified && r[metric.key] !== null)
          .map((r) => ({ x: r.params[x], y: r[metric.key] })).sort((a, b) => a.x - b.x),
      });
    }
  });
  const def = exp && exp.params[x];
  lineChart(document.getElementById('chart'), null, {
    series, xTitle: def && def.title ? `${x} — ${def.title}` : x, yTitle: metric.unit,
  });
}

async function main() {
  document.getElementById('copy-link').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      document.getElementById('copied').textContent = 'Link copied.';
    } catch {
      document.getElementById('copied').textContent = window.location.href;
    }
  });
  const ids = runIds();
  if (ids.length < 1) {
    document.getElementById('intro').textContent = 'Name the runs to compare: /compare?runs=1,2 — or select them on the home page.';
    return;
  }
  const runs = [];
  let catalog;
  let compare;
  try {
    catalog = await getJSON('/api/experiments');
    compare = await getJSON(`/api/compare?runs=${ids.join(',')}`);
    for (const id of compare.runs) runs.push(await getJSON(`/api/runs/${id}`));
  } catch (err) {
    banner(err instanceof ApiError ? err.message : `The warplab server cannot be reached (${err.message}).`);
    return;
  }
  if (compare.missing.length) banner(`No such run: ${compare.missing.map((m) => `#${m}`).join(', ')}.`);
  if (runs.length === 0) {
    document.getElementById('intro').textContent = 'None of these runs exists.';
    return;
  }
  render(runs, catalog, compare);
}

main();
