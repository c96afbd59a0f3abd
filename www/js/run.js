// The run page, /runs/{id}: the share URL. It shows the run's status and
// progress (polled until the run ends), its device and request, a chart of the
// metric over the swept parameter with one line per variant, and the timing
// table. A finished run renders the same on every load: everything shown comes
// from GET /api/runs/{id}.
import { ApiError, banner, getJSON } from './api.js';
import { lineChart } from './charts.js';
import { el, fmtBytes, fmtMs, fmtNumber, fmtParams } from './format.js';

const runId = (location.pathname.match(/^\/runs\/(\d+)$/) || [])[1];
let chart = null;
let experiment = null;

function metricOf(exp) {
  return exp && exp.metric === 'throughput'
    ? { key: 'gops', unit: 'Gop/s', title: 'Throughput' }
    : { key: 'gbps', unit: 'GB/s', title: 'Bandwidth' };
}

// Param names in catalog order, and the ones whose value changes across the run.
function paramInfo(run) {
  const names = experiment ? Object.keys(experiment.params) : Object.keys((run.results[0] || {}).params || {});
  const varying = names.filter((k) => new Set(run.results.map((r) => r.params[k])).size > 1);
  return { names, varying };
}

function variantTitle(id) {
  const v = experiment && experiment.variants.find((x) => x.id === id);
  return v ? v.title : id;
}

function renderFacts(run) {
  document.title = `Run #${run.id} · ${run.experiment} · warplab`;
  document.getElementById('title').textContent =
    `Run #${run.id}: ${experiment ? experiment.title : run.experiment}${run.label ? ` — ${run.label}` : ''}`;
  const status = document.getElementById('status');
  status.textContent = run.status;
  status.className = `status ${run.status}`;
  const progress = document.getElementById('progress');
  progress.max = run.progress.total || 1;
  progress.value = run.progress.done;
  document.getElementById('progress-text').textContent = `${run.progress.done} of ${run.progress.total} measurements`;
  const error = document.getElementById('error');
  error.hidden = !run.error;
  error.textContent = run.error || '';
  const d = run.device || {};
  const facts = [
    ['Device', d.name ? `${d.name} (${d.type}, ${d.id})` : run.request.device],
    ['Driver', d.name ? `${d.platform} · ${d.driver} · ${d.opencl}` : null],
    ['Compute units', d.compute_units],
    ['Memory', d.global_mem_bytes ? `${fmtBytes(d.global_mem_bytes)} global, ${fmtBytes(d.local_mem_bytes)} local` : null],
    ['Repeat', `${run.request.repeat} timed launches per point, seed ${run.request.seed}`],
    ['Queued', run.created_at],
    ['Started', run.started_at],
    ['Finished', run.finished_at],
    ['Kernel source', run.source_hash ? `${run.source_hash} (runner ${run.runner_version})` : null],
  ];
  document.getElementById('facts').replaceChildren(
    ...facts.filter(([, v]) => v !== null && v !== undefined).flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]),
  );
  document.getElementById('csv').href = `/api/runs/${run.id}/results.csv`;
  document.getElementById('json').href = `/api/runs/${run.id}`;
  document.getElementById('json').setAttribute('download', `warplab-run-${run.id}.json`);
  document.getElementById('request').textContent = JSON.stringify(run.request, null, 2);
}

function renderTable(run) {
  const table = document.getElementById('table');
  const metric = metricOf(experiment);
  const variants = run.request.variants;
  const { names } = paramInfo(run);
  const rows = new Map();
  for (const r of run.results) {
    const key = fmtParams(r.params, names);
    if (!rows.has(key)) rows.set(key, { params: r.params, cells: {} });
    rows.get(key).cells[r.variant] = r;
  }
  const head = el('tr', {}, names.map((n) => el('th', { class: 'num' }, n)),
    variants.map((v) => el('th', { class: 'num', 'data-variant': v }, variantTitle(v))));
  const body = [...rows.values()].map(({ params, cells }) =>
    el('tr', {}, names.map((n) => el('td', { class: 'num' }, String(params[n]))),
      variants.map((v) => {
        const r = cells[v];
        if (!r) return el('td', { class: 'num muted' }, '…');
        if (r.error && r.median_ms === null) return el('td', { class: 'num bad', title: r.error }, '✗ failed');
        return el('td', { class: 'num', 'data-variant': v, 'data-median-ms': String(r.median_ms), title: r.error || r.note || '' },
          `${fmtMs(r.median_ms)} `,
          el('span', { class: r.verified ? 'ok' : 'bad' }, r.verified ? '✓' : '✗'),
          el('span', { class: 'sub' }, r[metric.key] === null ? '' : `${fmtNumber(r[metric.key])} ${metric.unit}`));
      })));
  if (run.results.length === 0) {
    body.push(el('tr', {}, el('td', { colspan: String(names.length + variants.length), class: 'muted' },
      run.status === 'queued' ? 'Waiting for a runner…' : 'No results.')));
  }
  table.replaceChildren(el('thead', {}, head), el('tbody', {}, body));
}

function renderChart(run) {
  const metric = metricOf(experiment);
  const { names, varying } = paramInfo(run);
  const x = varying[0] || names[0];
  const xTitle = experiment && experiment.params[x] && experiment.params[x].title ? `${x} (${experiment.params[x].title})` : x;
  document.getElementById('chart-title').textContent = `${metric.title} vs ${x}`;
  const series = run.request.variants.map((v) => ({
    label: variantTitle(v),
    points: run.results
      .filter((r) => r.variant === v && r[metric.key] !== null)
      .map((r) => ({ x: r.params[x], y: r[metric.key] })),
  }));
  // A multiplying sweep (1, 2, 4, ...) reads best on a log axis.
  const spec = run.request.params[x];
  const logX = Boolean(spec && typeof spec === 'object' && !Array.isArray(spec) && spec.mul);
  chart = lineChart(document.getElementById('chart'), chart, { series, xTitle, yTitle: metric.unit, logX });
}

function showMissing(title) {
  document.title = `${title} · warplab`;
  document.getElementById('missing-title').textContent = title;
  document.getElementById('missing').hidden = false;
  document.getElementById('content').hidden = true;
}

let delay = 1000;
let lastDone = -1;

function render(run) {
  renderFacts(run);
  renderTable(run);
  renderChart(run);
  if (run.status === 'queued' || run.status === 'running') {
    delay = run.progress.done !== lastDone ? 1000 : Math.min(delay * 1.5, 10000);
    lastDone = run.progress.done;
    setTimeout(refresh, delay);
  }
}

// Fetch the run; null (and the page switched to "not found") when it does not
// exist, undefined on a transient failure (shown in the banner).
async function fetchRun() {
  try {
    const run = await getJSON(`/api/runs/${runId}`);
    banner('');
    return run;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      showMissing(`Run #${runId} does not exist`);
      return null;
    }
    banner(`Cannot load the run: ${err.message}`);
    return undefined;
  }
}

// The run's catalog entry (titles, units), once.
async function loadExperiment(run) {
  if (experiment) return;
  try {
    const cat = await getJSON('/api/experiments');
    experiment = cat.experiments.find((e) => e.id === run.experiment) || null;
  } catch (err) {
    banner(`Cannot load the catalog: ${err.message}`);
  }
}

async function refresh() {
  const run = await fetchRun();
  if (run) {
    await loadExperiment(run);
    render(run);
  } else if (run === undefined) {
    delay = Math.min(delay * 2, 30000);
    setTimeout(refresh, delay);
  }
}

async function main() {
  if (!runId) {
    showMissing('Not a run address');
    return;
  }
  const run = await fetchRun();
  if (run === null) return;
  if (run === undefined) {
    setTimeout(refresh, delay);
    return;
  }
  await loadExperiment(run);
  render(run);
}

main();
