// The run page's head: title, status and progress, and the details folded
// under the verdict — device, driver, sampling, cache, times, clocks, where
// the time went, the copy ceiling and the request — with the download links.
// Everything shown is GET /api/runs/{id} as the server derived it.
import { el, fmtBytes, fmtLocalTime, fmtNumber } from './format.js';
import { metricOf } from './results.js';

// What the page says of the traces, or the hardware counters, that follow
// a done run (run.explain, run.counters_pending).
const EXPLAIN_SAID = {
  pending: 'The measurements are final; the kernels are being traced, and the model\'s traced figures fill in when they arrive.',
  counting: 'The measurements are final; the hardware counters are read in the runner\'s idle time and fill in when they arrive.',
  failed: 'The kernels could not be traced: the figures that need a trace are missing.',
};
const explainSaid = (run) => EXPLAIN_SAID[run.explain === 'pending' && run.counters_pending ? 'counting' : run.explain] || '';

// Where the run's time went, as the runner counted it.
function budgetText(b) {
  if (!b) return null;
  const s = (ms) => (ms >= 1000 ? `${fmtNumber(ms / 1000, 3)} s` : `${fmtNumber(ms, 3)} ms`);
  const parts = [['kernels', b.kernel_ms], ['launches with warm-ups and flushes', b.launch_ms], ['inputs and CPU reference', b.inputs_ms],
    ['transfers', b.transfer_ms], ['verification', b.verify_ms], ['builds', b.build_ms], ['store', b.store_ms],
    ...(b.counters_ms ? [['hardware counters', b.counters_ms]] : []),
    ...(b.energy_ms ? [['energy bursts', b.energy_ms]] : []), ['other', b.other_ms]];
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

function samplingText(req) {
  // The seed makes the inputs: the same seed, the same data, run after run.
  const seed = `inputs from seed ${req.seed} (the same seed gives the same data)`;
  return req.noise !== undefined
    ? `until the median is known to ±${fmtNumber(100 * req.noise, 2)}% (95%), at most ${req.repeat} timed launches or ${req.budget_ms} ms per point, after 2 warm-ups (1 for a kernel of 5 ms or more); ${seed}`
    : `${req.repeat} timed launches per point after 2 warm-ups (1 for a kernel of 5 ms or more); ${seed}`;
}

function factsOf(run) {
  const d = run.device || {};
  const req = run.request;
  return [
    ['Device', d.name ? `${d.name} (${d.type}, ${d.id})` : `not chosen yet (asked for "${req.device}")`],
    ['Language', req.language === 'cuda' ? 'CUDA (the kernels\' CUDA twins, built with NVRTC)' : 'OpenCL'],
    ['Driver', d.name ? `${d.platform} · ${d.driver} · ${d.opencl}` : null],
    ['Compute units', d.compute_units],
    ['Memory', d.global_mem_bytes ? `${fmtBytes(d.global_mem_bytes)} global, ${fmtBytes(d.local_mem_bytes)} local per work-group` : null],
    ['Sampling', samplingText(req)],
    ['Cache', req.cache === 'cold'
      ? `cold: ${run.flush_bytes ? `${fmtBytes(run.flush_bytes)} written` : 'the cache flushed'} before each timed launch (${cacheSaid(d.cache)})`
      : req.cache === 'hot' ? `hot: launches back to back; points whose data fit the cache (${cacheSaid(d.cache)}) are marked "in cache"` : null],
    ['Queued', fmtLocalTime(run.created_at)],
    ['Started', fmtLocalTime(run.started_at)],
    ['Finished', fmtLocalTime(run.finished_at)],
    ['Attempts', run.attempts > 1 || run.requeues ? `${run.attempts} (requeued ${run.requeues}×)` : null],
    ['Clocks', clocksText(run.clocks)],
    ['Time', budgetText(run.budget)],
    [req.language === 'cuda' ? 'Counted' : 'Traced', run.explain === 'done' && run.explain_ms !== null && run.explain_ms !== undefined
      ? `after the run, in ${fmtNumber(run.explain_ms / 1000, 3)} s of the runner's idle time${run.explained_at ? ` (done ${fmtLocalTime(run.explained_at)})` : ''}` : null],
    ['Kernel source', run.source_hash ? `hash ${run.source_hash}, runner ${run.runner_version}` : null],
    ['Compared with', run.previous ? `run #${run.previous.run}, the previous one of this experiment on this device in the same cache mode: each point says whether it moved beyond the noise` : null],
  ];
}

function renderCeiling(run, experiment) {
  const ceiling = document.getElementById('ceiling');
  const metric = metricOf(experiment);
  if (metric.key !== 'gbps') {
    ceiling.replaceChildren();
  } else if (run.ceiling) {
    ceiling.replaceChildren(`Copy ceiling of this device: ${fmtNumber(run.ceiling.gbps)} GB/s (${run.ceiling.variant}, `,
      el('a', { href: run.ceiling.url }, `run #${run.ceiling.run}`), '); results are also shown as a share of it.');
  } else {
    ceiling.replaceChildren('No copy run on this device had finished by this run\'s end, so there is no ceiling to compare with; ',
      el('a', { href: '/#queue' }, 'queue a copy run'), ' to have one for later runs.');
  }
}

export function renderHead(run, experiment) {
  document.title = `Run #${run.id} · ${run.experiment} · warplab`;
  document.getElementById('title').textContent =
    `Run #${run.id}: ${experiment ? experiment.title : run.experiment}${run.label ? ` — ${run.label}` : ''}`;
  const status = document.getElementById('status');
  // A run that ended short says how far it got, in the verdict's count.
  const v = run.verdict;
  status.textContent = (run.status === 'cancelled' || run.status === 'failed') && v && v.points_total > v.points_seen
    ? `${run.status} after ${v.points_seen} of ${v.points_total} points` : run.status;
  status.className = `status ${run.status}`;
  const progress = document.getElementById('progress');
  progress.max = run.progress.total || 1;
  progress.value = run.progress.done;
  document.getElementById('progress-text').textContent = `${run.progress.done} of ${run.progress.total} measurements`;
  document.getElementById('explain').textContent = explainSaid(run);
  const error = document.getElementById('error');
  error.hidden = !run.error;
  error.textContent = run.error || '';
  document.getElementById('facts').replaceChildren(
    ...factsOf(run).filter(([, v]) => v !== null && v !== undefined).flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]));
  renderCeiling(run, experiment);
  document.getElementById('csv').href = `/api/runs/${run.id}/results.csv`;
  document.getElementById('json').href = `/api/runs/${run.id}`;
  document.getElementById('json').setAttribute('download', `warplab-run-${run.id}.json`);
  document.getElementById('samples').href = `/api/runs/${run.id}/samples`;
  document.getElementById('again').href = `/?again=${run.id}#${run.request.definition ? 'own' : 'queue'}`;
  document.getElementById('link').value = window.location.href;
  document.getElementById('request').textContent = JSON.stringify(run.request, null, 2);
}
