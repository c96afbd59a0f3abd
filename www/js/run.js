// The run page, /runs/{id}: the share URL. Status and progress (pushed by the
// run's event stream until it ends; polled when the stream fails), device and
// request, the metric over the swept parameter with
// one line per variant — with partition-camping drops marked for transpose
// sweeps — the memory-access model's prediction beside the measurement
// (model.js), and the timing table. Everything shown comes from GET /api/runs/{id} and the
// stream's events, which carry the same objects; a finished run renders from
// GET alone, the same on every load.
import { ApiError, banner, getJSON, liveStream } from './api.js';
import { lineChart } from './charts.js';
import { el, fmtBytes, fmtMs, fmtNumber, fmtPct, timeUnit } from './format.js';
import { isMultiplying, metricOf, paramNames, pointRows, runVariants, sweptParam, variantLabel, variantTitle } from './results.js';
import { countedLine } from './counted.js';
import { predictionLine, renderModel } from './model.js';
import { renderCeilings } from './ceilings.js';
import { renderSources } from './sources.js';

const runId = (location.pathname.match(/^\/runs\/(\d+)$/) || [])[1];
let chart = null;
let chart2 = null;
let chart3 = null;
let experiment = null;

function showMissing(title) {
  document.title = `${title} · warplab`;
  document.getElementById('missing-title').textContent = title;
  document.getElementById('missing').hidden = false;
  document.getElementById('content').hidden = true;
}

// Where the run's time went, as the runner counted it.
function budgetText(b) {
  if (!b) return null;
  const s = (ms) => (ms >= 1000 ? `${fmtNumber(ms / 1000, 3)} s` : `${fmtNumber(ms, 3)} ms`);
  const parts = [['kernels', b.kernel_ms], ['launches with warm-ups and flushes', b.launch_ms], ['inputs and CPU reference', b.inputs_ms],
    ['transfers', b.transfer_ms], ['verification', b.verify_ms], ['builds', b.build_ms], ['store', b.store_ms],
    ...(b.counters_ms ? [['hardware counters', b.counters_ms]] : []), ['other', b.other_ms]];
  return `${s(b.total_ms)} in all: ${parts.map(([k, v]) => `${k} ${s(v)} (${fmtNumber(100 * v / b.total_ms, 2)}%)`).join(', ')}`;
}

// The GPU's clocks around the run, as the runner read them from NVML.
function clocksText(c) {
  if (!c) return null;
  if (!c.available) return `unknown (${String(c.why || 'no NVML').replace(/^unknown: /, '')}): no "% of peak" for this device`;
  const at = (s) => s ? `SM ${s.sm_mhz} MHz (max ${s.max_sm_mhz}), memory ${s.mem_mhz} MHz, ${s.temperature_c} °C, ${fmtNumber(s.power_w, 3)} W${s.throttled ? `, throttled (reasons 0x${Number(s.throttle_reasons).toString(16)})` : ''}` : '–';
  return `start: ${at(c.start)}; end: ${at(c.end)}. Theoretical peak memory bandwidth ${fmtNumber(c.peak_gbps, 4)} GB/s.`;
}

// The device's cache as the runner found it: from the driver, probed, or
// unknown (then said plainly, since a cold figure may then hold cache hits).
function cacheSaid(cache) {
  if (!cache || !cache.bytes) return 'CACHE SIZE UNKNOWN: the most any such device has was flushed';
  if (cache.source === 'driver') return `L2 ${fmtBytes(cache.bytes)}, from the driver`;
  if (cache.source === 'system') return `cache ${fmtBytes(cache.bytes)}, as Linux reports it`;
  return `cache ${fmtBytes(cache.bytes)}, probed`;
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
    ['Device', d.name ? `${d.name} (${d.type}, ${d.id})` : `not chosen yet (asked for "${run.request.device}")`],
    ['Language', run.request.language === 'cuda' ? 'CUDA (the kernels\' CUDA twins, built with NVRTC)' : 'OpenCL'],
    ['Driver', d.name ? `${d.platform} · ${d.driver} · ${d.opencl}` : null],
    ['Compute units', d.compute_units],
    ['Memory', d.global_mem_bytes ? `${fmtBytes(d.global_mem_bytes)} global, ${fmtBytes(d.local_mem_bytes)} local per work-group` : null],
    ['Sampling', run.request.noise !== undefined
      ? `until the median is known to ±${fmtNumber(100 * run.request.noise, 2)}% (95%), at most ${run.request.repeat} timed launches or ${run.request.budget_ms} ms per point, after 2 warm-ups; seed ${run.request.seed}`
      : `${run.request.repeat} timed launches per point after 2 warm-ups; seed ${run.request.seed}`],
    ['Cache', run.request.cache === 'cold'
      ? `cold: ${run.flush_bytes ? `${fmtBytes(run.flush_bytes)} written` : 'the cache flushed'} before each timed launch (${cacheSaid(d.cache)})`
      : run.request.cache === 'hot' ? `hot: launches back to back; points whose data fit the cache (${cacheSaid(d.cache)}) are marked "in cache"` : null],
    ['Queued', run.created_at],
    ['Started', run.started_at],
    ['Finished', run.finished_at],
    ['Attempts', run.attempts > 1 || run.requeues ? `${run.attempts} (requeued ${run.requeues}×)` : null],
    ['Clocks', clocksText(run.clocks)],
    ['Time', budgetText(run.budget)],
    ['Kernel source', run.source_hash ? `hash ${run.source_hash}, runner ${run.runner_version}` : null],
    ['Compared with', run.previous ? `run #${run.previous.run}, the previous one of this experiment on this device in the same cache mode: each point says whether it moved beyond the noise` : null],
  ];
  document.getElementById('facts').replaceChildren(
    ...facts.filter(([, v]) => v !== null && v !== undefined).flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));
  const ceiling = document.getElementById('ceiling');
  const metric = metricOf(experiment);
  if (metric.key !== 'gbps') {
    ceiling.replaceChildren();
  } else if (run.ceiling) {
    ceiling.replaceChildren(`Copy ceiling of this device: ${fmtNumber(run.ceiling.gbps)} GB/s (${run.ceiling.variant}, `,
      el('a', { href: run.ceiling.url }, `run #${run.ceiling.run}`), '); the table shows each result as a share of it.');
  } else {
    ceiling.replaceChildren('No copy run on this device had finished by this run\'s end, so there is no ceiling to compare with; ',
      el('a', { href: '/#queue' }, 'queue a copy run'), ' to have one for later runs.');
  }
  document.getElementById('csv').href = `/api/runs/${run.id}/results.csv`;
  document.getElementById('json').href = `/api/runs/${run.id}`;
  document.getElementById('json').setAttribute('download', `warplab-run-${run.id}.json`);
  document.getElementById('samples').href = `/api/runs/${run.id}/samples`;
  document.getElementById('again').href = `/?again=${run.id}#queue`;
  document.getElementById('link').value = window.location.href;
  document.getElementById('request').textContent = JSON.stringify(run.request, null, 2);
}

// A custom kernel's own bytes (the distinct bytes its trace touches) and
// their rate, beside the GB/s above, which counts its like variant's bytes.
function ownBytesLine(r, metric) {
  const p = r.prediction;
  if (!r.custom || metric.key !== 'gbps' || !p || !p.traffic || p.own_gbps === undefined) return null;
  return el('span', { class: 'sub own-bytes', title: `The GB/s above counts the bytes ${r.like} must move (each input read once, each output written once); this kernel's own traffic — the distinct bytes its code touches, ${fmtNumber(p.traffic.own_bytes / 1e6, 3)} MB — moves at this rate.` },
    `own bytes: ${fmtNumber(p.own_gbps)} GB/s`);
}

function resultCell(r, metric, unit) {
  if (!r) return el('td', { class: 'num muted' }, '…');
  if (r.median_ms === null) return el('td', { class: 'num bad', title: r.error || '' }, '✗ failed');
  const rate = r[metric.key];
  return el('td', {
    class: `num${r.verified ? '' : ' unverified'}`, 'data-variant': r.variant, 'data-median-ms': String(r.median_ms),
    'data-rate': rate === null ? '' : String(rate), title: r.error || r.note || '',
  },
  `${fmtMs(r.median_ms, unit)} `,
  r.ci_pct !== null && r.ci_pct !== undefined ? el('span', { class: 'pm', title: `95% interval of the median, ${r.reps} samples, spread (IQR) ${fmtNumber(100 * r.spread, 2)}%, stopped on ${r.stopped}` }, `±${fmtPct(r.ci_pct)}% `) : null,
  el('span', { class: r.verified ? 'ok' : 'bad', 'aria-label': r.verified ? 'verified' : 'not verified' }, r.verified ? '✓' : '✗'),
  el('span', { class: 'sub' }, rate === null ? '' : `${fmtNumber(rate)} ${metric.unit}`),
  ownBytesLine(r, metric),
  r.in_cache ? el('span', { class: 'sub in-cache', title: 'hot: the working set fits in the device\'s measured cache' }, 'in cache') : null,
  r.stopped === 'budget' ? el('span', { class: 'sub warn', title: 'the time budget ran out before the noise target was reached' }, `budget: ${r.reps} samples`) : null,
  r.previous && run0 && run0.previous ? el('span', { class: `sub prev ${r.previous.verdict}`, 'data-verdict': r.previous.verdict },
    `vs #${run0.previous.run}: ${r.previous.verdict === 'same' ? 'same within noise' : r.previous.verdict}${r.previous.change_pct === null ? '' : ` (${r.previous.change_pct >= 0 ? '+' : '−'}${fmtNumber(Math.abs(r.previous.change_pct), 2)}%)`}`) : null,
  r.ceiling_pct !== null && r.ceiling_pct !== undefined ? el('span', { class: 'sub' }, `${fmtNumber(r.ceiling_pct, 3)}% of copy`) : null,
  r.peak_pct !== null && r.peak_pct !== undefined ? el('span', { class: 'sub' }, `${fmtNumber(r.peak_pct, 3)}% of peak`) : null,
  r.discarded ? el('span', { class: 'sub warn', title: 'samples taken while the GPU reported a power or thermal cap' }, `${r.discarded} throttled samples dropped`) : null,
  r.slowdown !== null && r.slowdown !== undefined ? el('span', { class: 'sub' }, `${fmtNumber(r.slowdown, 3)}× c=1`) : null,
  predictionLine(r), countedLine(r));
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

function renderTable(run) {
  const metric = metricOf(experiment);
  const variants = runVariants(run, experiment);
  const names = paramNames(run, experiment);
  const rows = pointRows(run, names);
  const head = el('tr', {}, names.map((n) => el('th', { class: 'num', scope: 'col' }, n)),
    variants.map((v) => el('th', { class: `num${v.custom ? ' custom' : ''}`, scope: 'col', 'data-variant': v.id },
      v.title, v.custom ? el('span', { class: 'sub' }, `custom, like ${variantTitle(experiment, v.like)}`) : null)));
  // One unit of time per column, chosen for the column's values.
  const units = new Map(variants.map((v) => [v.id, timeUnit(rows.map(({ cells }) => cells[v.id] && cells[v.id].median_ms))]));
  const body = rows.map(({ params, cells }) =>
    el('tr', {}, names.map((n) => el('td', { class: 'num' }, String(params[n]))), variants.map((v) => resultCell(cells[v.id], metric, units.get(v.id)))));
  if (rows.length === 0) {
    body.push(el('tr', {}, el('td', { colspan: String(names.length + variants.length), class: 'muted' },
      run.status === 'queued' ? 'Waiting for a runner…' : run.status === 'running' ? 'The first point is being measured…' : 'This run has no results.')));
  }
  document.getElementById('table').replaceChildren(el('thead', {}, head), el('tbody', {}, body));
  const problems = run.results.filter((r) => !r.verified);
  document.getElementById('problems').hidden = problems.length === 0;
  document.getElementById('problem-list').replaceChildren(...problems.map((r) =>
    el('li', {}, el('strong', {}, `${variantTitle(experiment, r.variant)}, ${names.map((n) => `${n}=${r.params[n]}`).join(', ')}: `),
      /build log:/.test(r.error || '') ? `${r.error.split('\n')[0]} (the log is in the Source section)` : r.error || 'not verified')));
}

function renderChart(run) {
  const metric = metricOf(experiment);
  const x = sweptParam(run, experiment);
  const def = experiment && experiment.params[x];
  const xTitle = def && def.title ? `${x} — ${def.title}` : x;
  const drops = Array.isArray(run.drops) ? run.drops : null;
  const campaign = drops && experiment && experiment.drops && experiment.drops.param === x;
  const title = campaign ? `Partition camping: ${metric.unit} vs ${x}`
    : ['strided', 'offset'].includes(run.experiment) ? `Effective bandwidth vs ${x}` : `${metric.title} vs ${x}`;
  document.getElementById('chart-title').textContent = title;
  document.getElementById('chart-note').textContent = campaign
    ? `Marked: points more than ${Math.round(experiment.drops.threshold * 100)}% below both neighbours, labelled with the largest power of two dividing ${x} (the seed found drops at multiples of 512, 256 and 128).`
    : '';
  const series = runVariants(run, experiment).map((v) => ({
    label: variantLabel(v, experiment),
    dash: v.custom ? 1 : 0,
    points: run.results.filter((r) => r.variant === v.id && r[metric.key] !== null && r.verified)
      .map((r) => pointOf(r, x, metric)).sort((a, b) => a.x - b.x),
  }));
  const marks = campaign ? drops.map((d) => ({ x: d.value, y: d[metric.key], label: `÷${d.pow2}` })) : [];
  // A hot run's points whose data fit the cache: a shaded span, labelled.
  const cached = run.results.filter((r) => r.in_cache).map((r) => r.params[x]);
  const bands = cached.length ? [{ xMin: Math.min(...cached), xMax: Math.max(...cached), label: 'in cache (hot)' }] : [];
  chart = lineChart(document.getElementById('chart'), chart, {
    series, xTitle, yTitle: metric.unit, logX: isMultiplying(run, x), marks, bands,
  });
  const list = document.getElementById('drops');
  list.hidden = !campaign;
  if (campaign) {
    list.replaceChildren(...(drops.length === 0
      ? [el('li', {}, 'No drops: this device shows no partition camping over this sweep.')]
      : drops.map((d) => el('li', {}, `${variantTitle(experiment, d.variant)} at ${x} = ${d.value} (a multiple of ${d.pow2}): ${fmtNumber(d[metric.key])} ${metric.unit}, ${fmtNumber(d.below_pct, 3)}% below its neighbours`))));
  }
}

let delay = 1000;
let lastDone = -1;
let healthChecked = 0;

// While the run waits, say so when no runner is online; asked every 10 s (the
// stream brings no news while a run waits).
let runnersTimer = null;
function watchRunners() {
  clearTimeout(runnersTimer);
  if (!run0 || run0.status !== 'queued') return;
  checkRunners(run0);
  runnersTimer = setTimeout(watchRunners, 10000);
}

async function checkRunners(run) {
  if (run.status !== 'queued' || Date.now() - healthChecked < 9000) return;
  healthChecked = Date.now();
  try {
    const health = await getJSON('/api/health');
    if (health.runners_online === 0) banner('No runner is online: this run waits until warplab-runner starts.');
  } catch {
    /* the next poll reports an unreachable server */
  }
}

let run0 = null;

function renderAll(run) {
  renderFacts(run);
  renderTable(run);
  renderChart(run);
  chart2 = renderModel(run, experiment, chart2);
  chart3 = renderCeilings(run, experiment, chart3);
  renderSources(run, (id) => variantTitle(experiment, id));
}

const isLive = (run) => run.status === 'queued' || run.status === 'running';

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
    banner('');
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
    banner('');
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
  refresh();
}

main();
