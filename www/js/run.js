// The run page, /runs/{id}: the share URL. It opens with the verdict — who
// won, by how much and why, as the server judged it — over the timing
// table, then the metric over the swept parameter (bars for a run of one
// point; partition-camping drops marked for transpose sweeps), the energy
// per useful byte where the run measured it (energy.js), the
// memory-access model's prediction beside the measurement (model.js) and the
// sources; the device, sampling and request are folded under the verdict.
// Status and progress are pushed by the run's event stream until it ends
// (polled when the stream fails). Everything shown comes from GET
// /api/runs/{id} and the stream's events, which carry the same objects; a
// finished run renders from GET alone, the same on every load.
import { ApiError, banner, getJSON, liveStream } from './api.js';
import { barChart, fillDataTable, lineChart } from './charts.js';
import { el, fmtCount, fmtNumber } from './format.js';
import { isMultiplying, metricOf, runVariants, sweptParam, timeStands, variantLabel, variantTitle } from './results.js';
import { renderModel } from './model.js';
import { renderCeilings } from './ceilings.js';
import { renderEnergyChart, renderEnergyNote } from './energy.js';
import { renderSources } from './sources.js';
import { renderHead } from './run_details.js';
import { renderTable } from './timing_table.js';
import { renderVerdict } from './verdict.js';
import { renderTuning } from './tuning.js';
import { watchCancel } from './cancel.js';

const runId = (location.pathname.match(/^\/runs\/(\d+)$/) || [])[1];
let chart = null;
let chart2 = null;
let chart3 = null;
let energyChart = null;
let experiment = null;

function showMissing(title) {
  document.title = `${title} · warplab`;
  document.getElementById('missing-title').textContent = title;
  document.getElementById('missing').hidden = false;
  document.getElementById('content').hidden = true;
}

// A chart point: the rate, its interval as error bars, and what the tooltip
// says of how it was measured.
function pointOf(r, x, metric) {
  const p = { x: r.params[x], y: r[metric.key] };
  const lo = r[`${metric.key}_low`];
  const hi = r[`${metric.key}_high`];
  if (lo !== null && lo !== undefined && hi !== null && hi !== undefined) {
    p.yMin = lo;
    p.yMax = hi;
  }
  const mode = run0 ? run0.request.cache || 'hot' : '';
  p.meta = `${r.reps} samples, spread ${fmtNumber(100 * (r.spread || 0), 2)}%, ${mode}${r.in_cache ? ' (in cache)' : ''}`;
  return p;
}

// The drops list: only once the run is done and its sweep has three points
// or more to judge (the server leaves drops null before).
function renderDrops(run, x, campaign) {
  const list = document.getElementById('drops');
  const drops = Array.isArray(run.drops) ? run.drops : null;
  list.hidden = !campaign || !drops;
  if (list.hidden) return;
  list.replaceChildren(...(drops.length === 0
    ? [el('li', {}, `No drops: this device shows no partition camping over this sweep of ${x}.`)]
    : drops.map((d) => el('li', {}, `${variantTitle(experiment, d.variant)} at ${x} = ${fmtCount(d.value)} (a multiple of ${d.pow2}): ${fmtNumber(d[metricOf(experiment).key])} ${metricOf(experiment).unit}, ${fmtNumber(d.below_pct, 3)}% below its neighbours`))));
}

function renderChart(run) {
  const metric = metricOf(experiment);
  const x = sweptParam(run, experiment);
  const def = experiment && experiment.params[x];
  const xTitle = def && def.title ? `${x} — ${def.title}` : x;
  const campaign = experiment && experiment.drops && experiment.drops.param === x;
  // One point as the run was asked, not as far as it has got.
  const onePoint = new Set(run.results.map((r) => JSON.stringify(r.params))).size <= 1 &&
    !(run.verdict && run.verdict.points_total > 1);
  const canvas = document.getElementById('chart');
  const series = runVariants(run, experiment).map((v, i) => ({
    label: variantLabel(v, experiment), style: i, dash: v.custom ? 1 : 0,
    points: run.results.filter((r) => r.variant === v.id && r[metric.key] !== null && timeStands(r))
      .map((r) => pointOf(r, x, metric)).sort((a, b) => a.x - b.x),
  }));
  if (onePoint) {
    document.getElementById('chart-title').textContent = `${metric.title} of each variant`;
    document.getElementById('chart-note').textContent = 'One point: each variant\'s rate, with its 95% interval.';
    const drawn = series.filter((s) => s.points.length);
    chart = barChart(canvas, chart, { labels: drawn.map((s) => s.label), groups: [{ label: metric.unit, values: drawn.map((s) => s.points[0]) }], xTitle: 'variant', yTitle: metric.unit });
    canvas.setAttribute('aria-label', `Bar chart: ${metric.title.toLowerCase()} in ${metric.unit} of each variant; the numbers are in the table below it.`);
    fillDataTable(document.getElementById('chart-data'), { series: drawn.map((s) => ({ label: s.label, points: [{ x: 'measured', y: s.points[0].y }] })), xTitle: '', yTitle: metric.unit, format: (v) => fmtNumber(v) });
    renderDrops(run, x, false);
    return;
  }
  const title = campaign ? `Partition camping: ${metric.unit} vs ${x}`
    : ['strided', 'offset'].includes(run.experiment) ? `Effective bandwidth vs ${x}` : `${metric.title} vs ${x}`;
  document.getElementById('chart-title').textContent = title;
  document.getElementById('chart-note').textContent = campaign
    ? `Marked: points more than ${Math.round(experiment.drops.threshold * 100)}% below both neighbours, labelled with the largest power of two dividing ${x} (the seed found drops at multiples of 512, 256 and 128).`
    : '';
  const drops = Array.isArray(run.drops) ? run.drops : [];
  const marks = campaign ? drops.map((d) => ({ x: d.value, y: d[metric.key], label: `÷${d.pow2}` })) : [];
  // A hot run's points whose data fit the cache: a shaded span, labelled.
  const cached = run.results.filter((r) => r.in_cache).map((r) => r.params[x]);
  const bands = cached.length ? [{ xMin: Math.min(...cached), xMax: Math.max(...cached), label: 'in cache (hot)' }] : [];
  chart = lineChart(canvas, chart, { series, xTitle, yTitle: metric.unit, logX: isMultiplying(run, x), marks, bands });
  canvas.setAttribute('aria-label', `Line chart: ${title}, a line per variant; the numbers are in the table below it.`);
  fillDataTable(document.getElementById('chart-data'), { series, xTitle: x, yTitle: metric.unit, format: (v) => fmtNumber(v) });
  renderDrops(run, x, campaign);
}

let delay = 1000;
let lastDone = -1;
let healthChecked = 0;

// While the run waits, say so when no online device can run it — the
// server's "warning", as the devices are now. The stream brings no news while
// a run waits, so every 10 s the page asks how many runners are online, and
// reads the run again (for its warning) only when that count has moved.
let runnersTimer = null;
function watchRunners() {
  clearTimeout(runnersTimer);
  if (!run0 || run0.status !== 'queued') return;
  checkRunners(run0);
  runnersTimer = setTimeout(watchRunners, 10000);
}

// What the banner says while the server answers: why this run waits, while
// it waits, else nothing. A run event or a fetch that clears an
// "unreachable" banner puts this back rather than wiping it.
let waitingNote = '';
function noteWhileWaiting(run) {
  if (run && 'warning' in run) waitingNote = run.status === 'queued' && run.warning ? `This run waits: ${run.warning}.` : '';
  if (!run || run.status !== 'queued') waitingNote = '';
  banner(waitingNote);
}

let runnersOnline = null;
async function checkRunners(run) {
  if (run.status !== 'queued' || Date.now() - healthChecked < 9000) return;
  healthChecked = Date.now();
  try {
    const online = (await getJSON('/api/health')).runners_online;
    const moved = runnersOnline !== null && online !== runnersOnline;
    runnersOnline = online;
    if (!moved) return;
    const now = await getJSON(`/api/runs/${runId}`);
    if (run0) run0.warning = now.warning || null;
    noteWhileWaiting(now.status === 'queued' ? now : run0);
  } catch {
    /* the next poll reports an unreachable server */
  }
}

let run0 = null;

function renderAll(run) {
  renderHead(run, experiment);
  renderVerdict(run);
  renderTuning(run);
  watchCancel(run, refresh);
  renderEnergyNote(run);
  renderTable(run, experiment);
  renderChart(run);
  energyChart = renderEnergyChart(run, experiment, energyChart);
  chart2 = renderModel(run, experiment, chart2);
  chart3 = renderCeilings(run, experiment, chart3);
  renderSources(run, (id) => variantTitle(experiment, id));
}

// A run is followed while it is measured and while its traces are coming.
const isLive = (run) => run.status === 'queued' || run.status === 'running' || run.explain === 'pending';

function render(run) {
  run0 = run;
  renderAll(run);
  // The server computes predictions once, off its request threads: a run
  // read before they are ready is read again shortly.
  if (!isLive(run) && run.predictions_pending) setTimeout(refresh, 1000);
  if (!isLive(run)) return;
  watchRunners();
  if (follow(run)) return;
  delay = run.progress.done !== lastDone ? 1000 : Math.min(delay * 1.5, 10000);
  lastDone = run.progress.done;
  setTimeout(refresh, delay);
}

// Live updates: the run's event stream (see liveStream), continuing from the
// results the page has; when it fails the page polls, trying the stream again
// after a poll succeeds, at most three times.
let stream = null;
let streamFailures = 0;
let renderTimer = null;

// Render at most every 50 ms: a reconnect can bring hundreds of results at once.
function renderSoon() {
  if (renderTimer) return;
  renderTimer = setTimeout(() => {
    renderTimer = null;
    renderAll(run0);
  }, 50);
}

function follow(run) {
  if (stream) return true;
  if (!window.EventSource || streamFailures >= 3) return false;
  const es = liveStream(`/api/runs/${runId}/events?last_event_id=${run.requeues}.${run.results.length}`, () => {
    stream = null;
    streamFailures++;
    delay = 1000;
    setTimeout(refresh, delay);
  });
  stream = es;
  es.addEventListener('result', (e) => {
    run0.results.push(JSON.parse(e.data));
    renderSoon();
  });
  es.addEventListener('reset', () => {
    run0.results = [];
    renderSoon();
  });
  es.addEventListener('run', (e) => {
    run0 = { ...JSON.parse(e.data), results: run0.results };
    noteWhileWaiting(run0);
    renderSoon();
  });
  es.addEventListener('end', (e) => {
    es.close();
    stream = null;
    clearTimeout(renderTimer);
    renderTimer = null;
    render(JSON.parse(e.data));
  });
  return true;
}

// The run; null (and the page switched to "not found") when it does not exist,
// undefined on a transient failure (shown in the banner).
async function fetchRun() {
  try {
    const run = await getJSON(`/api/runs/${runId}`);
    noteWhileWaiting(run);
    return run;
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      showMissing(`Run #${runId} does not exist`);
      return null;
    }
    banner(`The warplab server cannot be reached (${err.message}); retrying.`);
    return undefined;
  }
}

async function loadExperiment(run) {
  if (experiment) return;
  // An experiment of the run's own comes with it, as the catalog shows one.
  if (run.own_experiment) {
    experiment = run.own_experiment;
    return;
  }
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

async function copyLink() {
  const input = document.getElementById('link');
  const said = document.getElementById('copied');
  try {
    await navigator.clipboard.writeText(input.value);
    said.textContent = 'Link copied.';
  } catch {
    // No clipboard (an insecure origin, a locked-down browser): select the
    // link so it can be copied by hand.
    input.focus();
    input.select();
    said.textContent = 'Press Ctrl+C to copy the selected link.';
  }
}

function main() {
  if (!runId) {
    showMissing('Not a run address');
    return;
  }
  document.getElementById('copy-link').addEventListener('click', copyLink);
  document.getElementById('show-detail').addEventListener('change', (e) => {
    document.getElementById('table').classList.toggle('show-detail', e.target.checked);
  });
  refresh();
}

main();
