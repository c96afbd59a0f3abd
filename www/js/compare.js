// The compare page, /compare?runs=1,2,3: the seeds' tables — a kernel per row,
// a device per column — built from the runs as the API returns them. The
// server judges the table (GET /api/compare): each result after the first
// run's is faster or slower only when their 95% intervals lie apart, "same
// within noise" otherwise, with the change of time in %; a row's fastest is
// starred only when it is apart from all the others (never a zero, failed
// or unverified time); where runs repeated a row on one device, language and
// cache mode, the spread between their medians; where a run measured
// energy, each cell's energy per useful byte. The page shows those
// verdicts as they come. The runs' curves are overlaid, each line told apart
// by colour, marker and dash, with the chart's numbers in a table.
import { ApiError, banner, getJSON } from './api.js';
import { lineChart } from './charts.js';
import { energyFigure } from './energy.js';
import { el, fmtMs, fmtNumber, fmtPct, timeUnit } from './format.js';
import { metricOf, paramNames, pointKey, runVariants, sweptParam, timeStands, variantLabel } from './results.js';

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
// row for (experiment, variant, point), that row's fastest run and its
// repeats (the spread between runs of one setting).
function judgements(compare, names) {
  const rows = new Map();
  for (const row of compare.rows) {
    rows.set(`${row.experiment}|${row.variant}|${pointKey(row.params, names(row.experiment))}`, {
      fastest: row.fastest, cells: new Map(row.cells.map((c) => [c.run, c])), repeats: row.repeats || [],
    });
  }
  return rows;
}

// The cell of a row's spread between runs: an entry per setting in which
// runs repeated it, as the server judged it.
function spreadCell(row, runs) {
  const repeats = row.judged ? row.judged.repeats : [];
  if (!repeats.length) return el('td', { class: 'num muted spread', 'data-label': 'Spread between runs' }, '–');
  const deviceName = (id) => {
    const run = runs.find((r) => r.device && r.device.id === id);
    return run && run.device.name ? run.device.name : id;
  };
  return el('td', {
    class: `num spread${repeats.some((g) => g.apart) ? ' apart' : ''}`, 'data-label': 'Spread between runs',
    'data-spread-pct': repeats.map((g) => String(g.spread_pct)).join(' '),
    'data-runs': repeats.map((g) => g.runs.join(',')).join(' '),
  }, repeats.map((g) => el('span', { class: 'repeat' },
    `${fmtPct(g.spread_pct)}%`,
    el('span', { class: 'sub' }, `${g.runs.length} runs: ${g.runs.map((id) => `#${id}`).join(', ')}`),
    el('span', { class: 'sub' }, `${deviceName(g.device)}, ${g.language === 'cuda' ? 'CUDA' : 'OpenCL'}, ${g.cache}`),
    el('span', { class: 'sub verdict' }, g.apart ? 'apart: beyond the noise' : 'within noise'))));
}

// A cell's energy as the server gave it (GET /api/compare's cell.energy):
// per useful byte (per operation for a throughput), or nothing.
function energyText(cell, metric) {
  const f = energyFigure(metric);
  const e = cell && cell.energy;
  if (!e || e[f.key] === null || e[f.key] === undefined) return null;
  return el('span', { class: 'sub energy', 'data-energy': String(e[f.key]), title: `${fmtNumber(e.j_per_launch)} J per launch at ${fmtNumber(e.avg_w)} W${e.throttled ? ', throttled' : ''}` },
    `${fmtNumber(e[f.key])} ${f.words}`);
}

// The runs that asked for energy and got none, each once with the
// server's reasons (cell.energy_error).
function energyNote(compare) {
  const reasons = new Map();
  for (const row of compare.rows) {
    for (const c of row.cells) {
      if (!c.energy_error) continue;
      if (!reasons.has(c.run)) reasons.set(c.run, new Set());
      reasons.get(c.run).add(c.energy_error);
    }
  }
  const note = document.getElementById('energy-note');
  note.hidden = reasons.size === 0;
  note.textContent = reasons.size ? `Energy was asked for but not measured: ${[...reasons].map(([run, why]) => `#${run}: ${[...why].join('; ')}`).join('; ')}.` : '';
}

// A style for each line of the overlay, by charts.js's two indices: style
// (colour and marker together, 8 of them) and dash (4). A run keeps one dash
// (solid, dashed, dotted, dash-dot; the fifth run starts again) and the
// lines take the colours and markers in turn, run after run, so the same
// variant of two runs differs in colour, marker and dash, and a run of one
// point (a marker, no line) still stands apart. Where the turn gives a pair
// already taken (a fifth run, or many variants), the next free colour is
// taken, then the next dash: up to 32 lines no two look alike.
function lineStyles(series, variantCount) {
  const taken = new Set();
  return series.map(({ run, variant }) => {
    let style = (run * variantCount + variant) % 8;
    let dash = run % 4;
    for (let tries = 0; tries < 32 && taken.has(`${style}|${dash}`); tries++) {
      style = (style + 1) % 8;
      if (style === (run * variantCount + variant) % 8) dash = (dash + 1) % 4;
    }
    taken.add(`${style}|${dash}`);
    return { style, dash };
  });
}

// The overlay's numbers as a table (its text alternative): a row per run,
// variant and point.
function chartTable(series, x, metric) {
  return [
    el('caption', {}, `${metric.title} (${metric.unit}) of each run and variant at each ${x}`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Run'), el('th', { scope: 'col' }, 'Variant'),
      el('th', { scope: 'col', class: 'num' }, x), el('th', { scope: 'col', class: 'num' }, metric.unit))),
    el('tbody', {}, series.flatMap((s) => (s.points.length ? s.points : [null]).map((p) => el('tr', {},
      el('th', { scope: 'row' }, `#${s.runId}`), el('td', {}, s.variantLabel),
      el('td', { class: 'num' }, p ? String(p.x) : '–'), el('td', { class: 'num' }, p ? fmtNumber(p.y) : 'no verified result'))))),
  ];
}

// A result's 95% interval as [low, high] in its column's unit: an uneven
// interval read as ±% would say more than it knows.
function intervalText(r, unit) {
  if (r.ci_low_ms === null || r.ci_low_ms === undefined || r.ci_high_ms === null || r.ci_high_ms === undefined) return null;
  return el('span', { class: 'pm' }, ` [${fmtMs(r.ci_low_ms, unit).split(' ')[0]}, ${fmtMs(r.ci_high_ms, unit)}]`);
}

function render(runs, catalog, compare) {
  // An experiment of a run's own comes with the run, as the catalog shows one.
  const byId = (id) => catalog.experiments.find((e) => e.id === id) || (runs.find((r) => r.experiment === id) || {}).own_experiment || null;
  const experiments = [...new Set(runs.map((r) => r.experiment))];
  const exp = byId(runs[0].experiment);
  const metric = metricOf(exp);
  document.getElementById('title').textContent = experiments.length === 1
    ? `Compare: ${exp ? exp.title : experiments[0]}` : `Compare: ${experiments.join(', ')}`;
  document.getElementById('intro').textContent = experiments.length === 1
    ? `${runs.length} runs of ${experiments[0]}.`
    : `These runs are of different experiments (${experiments.join(', ')}): rows match only where variant and point are the same.`;
  // What each run changes against the first, in the server's words.
  const pairs = document.getElementById('pairs');
  pairs.hidden = !(compare.pairs && compare.pairs.length);
  pairs.replaceChildren(...(compare.pairs || []).map((p) => el('li', { 'data-run': String(p.run) }, p.sentence)));
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
  // The spread between runs has a column only where some row was repeated.
  const repeated = compare.rows.some((row) => row.repeats && row.repeats.length);
  const head = el('tr', {}, el('th', { scope: 'col' }, 'Kernel'), el('th', { scope: 'col' }, 'Point'),
    runs.map((run) => el('th', { scope: 'col', class: 'num', 'data-run': String(run.id) }, columnTitle(run))),
    repeated ? el('th', { scope: 'col', class: 'num spread' }, 'Spread between runs',
      el('span', { class: 'sub' }, '(max − min) / median')) : null);
  // One unit of time per column (a run), chosen for the column's values.
  const units = new Map(runs.map((run) => [run.id, timeUnit(sorted.map((row) => row.cells.get(run.id) && row.cells.get(run.id).median_ms))]));
  const body = sorted.map((row) => {
    return el('tr', {},
      el('th', { scope: 'row', class: row.custom ? 'custom' : null }, experiments.length > 1 ? `${row.experiment}: ` : '', row.title),
      el('td', { 'data-label': 'Point' }, row.point),
      runs.map((run) => {
        const r = row.cells.get(run.id);
        // Each cell names its run: on a phone the rows are cards.
        const label = `#${run.id}`;
        if (!r) return el('td', { class: 'num muted', 'data-label': label }, '–');
        if (r.median_ms === null) return el('td', { class: 'num bad', 'data-label': label, 'data-run': String(run.id), 'data-failed': true, title: r.error || '' }, '✗ failed');
        const rate = r[metricOf(byId(run.experiment)).key];
        const fastest = Boolean(row.judged && row.judged.fastest === run.id);
        const cell = row.judged && row.judged.cells.get(run.id);
        const v = cell && cell.verdict ? cell : null;
        const said = v && (v.verdict === 'same' ? 'same within noise' : v.verdict);
        const change = v && v.change_pct !== null ? `${v.change_pct >= 0 ? '+' : '−'}${fmtPct(Math.abs(v.change_pct))}% time, ` : '';
        return el('td', {
          class: `num${fastest ? ' fastest' : ''}${timeStands(r) ? '' : ' unverified'}${v ? ` ${v.verdict}` : ''}`,
          'data-run': String(run.id), 'data-label': label, 'data-median-ms': String(r.median_ms), 'data-verdict': v ? v.verdict : null, title: r.error || '',
        },
          fastest ? [el('span', { class: 'star', 'aria-hidden': 'true' }, '★ '), el('span', { class: 'sr-only' }, 'fastest: ')] : null,
          el('span', { class: 'time' }, fmtMs(r.median_ms, units.get(run.id))), intervalText(r, units.get(run.id)),
          r.verified === null ? el('span', { class: 'unchecked', title: 'not checked: its experiment checks nothing' }, ' ○') : r.verified ? '' : ' ✗',
          el('span', { class: 'sub' }, rate === null ? '' : `${fmtNumber(rate)} ${metricOf(byId(run.experiment)).unit}`),
          energyText(cell, metricOf(byId(run.experiment))),
          v ? el('span', { class: 'sub verdict' }, `${change}${said}`) : null);
      }),
      repeated ? spreadCell(row, runs) : null);
  });
  document.getElementById('table').replaceChildren(el('thead', {}, head), el('tbody', {}, body));
  energyNote(compare);

  // The overlay: the first run's swept parameter on x, every run's variants.
  const x = sweptParam(runs[0], exp);
  document.getElementById('chart-title').textContent = `${metric.title} vs ${x}, runs overlaid`;
  const overlaid = runs.filter((run) => run.experiment === runs[0].experiment);
  const variants = [...new Set(overlaid.flatMap((r) => runVariants(r, exp).map((v) => v.id)))];
  const lines = [];
  overlaid.forEach((run, k) => {
    for (const v of runVariants(run, exp)) {
      lines.push({
        run: k, variant: variants.indexOf(v.id), runId: run.id, variantLabel: variantLabel(v, exp),
        points: run.results.filter((r) => r.variant === v.id && timeStands(r) && r[metric.key] !== null)
          .map((r) => ({ x: r.params[x], y: r[metric.key] })).sort((a, b) => a.x - b.x),
      });
    }
  });
  const styles = lineStyles(lines, variants.length);
  const series = lines.map((line, i) => ({
    label: `#${line.runId} · ${line.variantLabel}`, style: styles[i].style, dash: styles[i].dash, points: line.points,
  }));
  const def = exp && exp.params[x];
  const canvas = document.getElementById('chart');
  const ids = overlaid.map((r) => `#${r.id}`).join(', ');
  canvas.setAttribute('aria-label', `Line chart of ${metric.title.toLowerCase()} in ${metric.unit} against ${x}: `
    + `${variants.length} variant${variants.length === 1 ? '' : 's'} of ${overlaid.length} run${overlaid.length === 1 ? '' : 's'} (${ids}), `
    + `a line for each. Its numbers are in the table "The chart's numbers" below it.`);
  lineChart(canvas, null, {
    series, xTitle: def && def.title ? `${x} — ${def.title}` : x, yTitle: metric.unit,
  });
  document.getElementById('chart-table').replaceChildren(...chartTable(lines, x, metric));
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
