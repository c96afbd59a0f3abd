// The run page's timing table: one number per cell — the rate (GB/s or
// Gop/s; the time where a result has no rate), the verified mark (○ where
// its experiment checks nothing), and ★ on
// the fastest of its point as the server judged it — with the interval on
// hover and, behind the "show" toggle, every other figure the result carries
// (time ± interval, share of the copy ceiling, energy per useful byte, the
// model's line, the hardware's counts, the previous run). Points are rows and variants
// columns, or the other way round where the variants outnumber the points,
// so the table stays narrow; a custom kernel stands next to the variant it
// is like. The first column stays in view when the table scrolls.
import { countedLine } from './counted.js';
import { energyLine } from './energy.js';
import { el, fmtCount, fmtMs, fmtNumber, fmtPct, timeUnit } from './format.js';
import { predictionLine } from './model.js';
import { metricOf, paramNames, pointRows, runVariants, timeStands, variantTitle } from './results.js';
import { standing } from './verdict.js';

// The run's variants, each custom kernel right after the built-in it is like.
export function orderedVariants(run, experiment) {
  const all = runVariants(run, experiment);
  const builtins = all.filter((v) => !v.custom);
  const out = [];
  for (const b of builtins) out.push(b, ...all.filter((v) => v.custom && v.like === b.id));
  return [...out, ...all.filter((v) => !out.includes(v))];
}

// A kernel's own bytes (the distinct bytes its code touches, from its
// trace) and their rate, beside the rate of the bytes counted for it: a
// custom kernel's like variant's, or an experiment of one's own that gives
// no cost.bytes, whose buffers' (the server says which).
function ownBytesLine(run, r, metric) {
  const p = r.prediction;
  const counted = r.custom ? `the bytes ${r.like} must move` :
    run.own_experiment && run.own_experiment.bytes_from === 'buffers' ? 'the bytes its buffers say a launch must move' : null;
  if (!counted || metric.key !== 'gbps' || !p || !p.traffic || p.own_gbps === undefined) return null;
  return el('span', { class: 'sub own-bytes', title: `The GB/s counts ${counted} (each input read once, each output written once); this kernel's own traffic — the distinct bytes its code touches, ${fmtNumber(p.traffic.own_bytes / 1e6, 3)} MB — moves at this rate.` },
    `own bytes: ${fmtNumber(p.own_gbps)} GB/s`);
}

function previousLine(run, r) {
  if (!r.previous || !run.previous) return null;
  const change = r.previous.change_pct === null ? '' : ` (${r.previous.change_pct >= 0 ? '+' : '−'}${fmtNumber(Math.abs(r.previous.change_pct), 2)}%)`;
  return el('span', { class: `sub prev ${r.previous.verdict}`, 'data-verdict': r.previous.verdict },
    `vs #${run.previous.run}: ${r.previous.verdict === 'same' ? 'same within noise' : r.previous.verdict}${change}`);
}

// Every figure of r beyond the one number: shown with the toggle.
function detailLines(run, r, unit, metric) {
  const sub = (text, attrs = {}) => el('span', { class: 'sub', ...attrs }, text);
  return [
    sub(`${fmtMs(r.median_ms, unit)}${r.ci_pct !== null && r.ci_pct !== undefined ? ` ±${fmtPct(r.ci_pct)}%` : ''}`, { class: 'sub time' }),
    r.ceiling_pct !== null && r.ceiling_pct !== undefined ? sub(`${fmtNumber(r.ceiling_pct, 3)}% of copy`) : null,
    r.peak_pct !== null && r.peak_pct !== undefined ? sub(`${fmtNumber(r.peak_pct, 3)}% of peak`) : null,
    energyLine(r, metric),
    ownBytesLine(run, r, metric),
    r.in_cache ? sub('in cache', { class: 'sub in-cache', title: 'hot: the working set fits in the device\'s measured cache' }) : null,
    r.stopped === 'budget' ? sub(`budget: ${r.reps} samples`, { class: 'sub warn', title: 'the time budget ran out before the noise target was reached' }) : null,
    previousLine(run, r),
    r.discarded ? sub(`${r.discarded} throttled samples dropped`, { class: 'sub warn', title: 'samples taken while the GPU reported a power or thermal cap' }) : null,
    r.slowdown !== null && r.slowdown !== undefined ? sub(`${fmtNumber(r.slowdown, 3)}× c=1`) : null,
    predictionLine(r), countedLine(r),
  ].filter(Boolean).map((e) => { e.classList.add('detail'); return e; });
}

function intervalTitle(r, unit) {
  const parts = [`median ${fmtMs(r.median_ms, unit)}`];
  if (r.ci_pct !== null && r.ci_pct !== undefined) parts.push(`±${fmtPct(r.ci_pct)}% (95% interval of the median, ${r.reps} samples, spread ${fmtNumber(100 * (r.spread || 0), 2)}%, stopped on ${r.stopped})`);
  if (r.note) parts.push(r.note);
  if (r.error) parts.push(r.error);
  return parts.join('; ');
}

// ✓ verified, ✗ not, ○ not checked (verified null: its experiment's check
// is "none").
function checkMark(r) {
  if (r.verified === null) {
    return el('span', { class: 'unchecked', role: 'img', 'aria-label': 'not checked', title: 'not checked: this experiment\'s check is "none"' }, '○');
  }
  return el('span', { class: r.verified ? 'ok' : 'bad', role: 'img', 'aria-label': r.verified ? 'verified' : 'not verified' }, r.verified ? '✓' : '✗');
}

// What the marks mean in this run: a catalog experiment's results are
// checked against the CPU reference, an own experiment's against the
// variant its definition names, or not at all.
function checkWords(run) {
  const def = run.request.definition;
  if (!def) return '✓ verified against the CPU reference, ✗ not';
  if (def.check === 'none') return '○ not checked (this experiment\'s check is "none": its times stand, its outputs unread)';
  return `✓ matched ${def.check && def.check.against}'s outputs within the check's tolerance, ✗ not`;
}

function cell(run, r, metric, unit) {
  if (!r) return el('td', { class: 'num muted' }, '…');
  if (r.median_ms === null) return el('td', { class: 'num bad', title: r.error || '' }, '✗ failed');
  const rate = r[metric.key];
  const stand = standing(run, r);
  const mark = stand === 'fastest' ? el('span', { class: 'star', title: 'the fastest at this point, beyond the noise' }, '★ ')
    : stand === 'tied' || stand === 'first' ? el('span', { class: 'tie', title: 'within noise of the fastest at this point' }, '≈ ') : null;
  return el('td', {
    class: `num${r.verified || r.verified === null ? '' : ' unverified'}${stand === 'fastest' || stand === 'first' ? ' fastest' : ''}${stand === 'tied' ? ' tied' : ''}${r.custom ? ' custom' : ''}`,
    'data-variant': r.variant, 'data-point': JSON.stringify(r.params), 'data-median-ms': String(r.median_ms), 'data-rate': rate === null ? '' : String(rate),
    'data-standing': stand || '', title: intervalTitle(r, unit),
  },
  mark, el('span', { class: 'value' }, rate === null || rate === undefined ? fmtMs(r.median_ms, unit) : fmtNumber(rate)), ' ',
  checkMark(r),
  detailLines(run, r, unit, metric));
}

// A point as its row or column header: the swept values alone where one
// param is swept (the corner names it), else "name = value" each.
function pointLabel(params, names, swept) {
  if (swept.length === 1) return fmtCount(params[swept[0]]);
  const shown = swept.length ? swept : names;
  return shown.map((n) => `${n} = ${fmtCount(params[n])}`).join(', ');
}

function variantHeader(v, experiment, scope) {
  return el('th', { class: `${v.custom ? 'custom' : ''}`, scope, 'data-variant': v.id },
    v.title, v.custom ? el('span', { class: 'sub' }, `custom, like ${variantTitle(experiment, v.like)}`) : null);
}

export function renderTable(run, experiment) {
  const metric = metricOf(experiment);
  const variants = orderedVariants(run, experiment);
  const names = paramNames(run, experiment);
  const rows = pointRows(run, names);
  const swept = names.filter((n) => new Set(run.results.map((r) => r.params[n])).size > 1);
  const unit = timeUnit(run.results.map((r) => r.median_ms));
  const table = document.getElementById('table');
  table.classList.toggle('show-detail', document.getElementById('show-detail').checked);
  const byVariant = variants.length > rows.length;
  table.dataset.orientation = byVariant ? 'variants' : 'points';
  const corner = el('th', { scope: 'col' }, byVariant ? 'variant' : swept.length ? swept.join(', ') : 'point');
  let head;
  let body;
  if (byVariant) {
    head = el('tr', {}, corner, rows.map((p) => el('th', { class: 'num', scope: 'col' }, pointLabel(p.params, names, swept))));
    body = variants.map((v) => el('tr', {}, variantHeader(v, experiment, 'row'), rows.map((p) => cell(run, p.cells[v.id], metric, unit))));
  } else {
    head = el('tr', {}, corner, variants.map((v) => variantHeader(v, experiment, 'col')));
    body = rows.map((p) => el('tr', {}, el('th', { scope: 'row', class: 'num' }, pointLabel(p.params, names, swept)),
      variants.map((v) => cell(run, p.cells[v.id], metric, unit))));
  }
  if (rows.length === 0) {
    body = [el('tr', {}, el('td', { colspan: String(variants.length + 1), class: 'muted' },
      run.status === 'queued' ? 'Waiting for a runner…' : run.status === 'running' ? 'The first point is being measured…' : 'This run has no results.'))];
  }
  table.replaceChildren(el('caption', { class: 'sr-only' }, `${metric.title} in ${metric.unit}, ${byVariant ? 'a variant per row' : 'a point per row'}`),
    el('thead', {}, head), el('tbody', {}, body));
  const fixed = swept.length === 0 && names.length && run.results[0] ? ` at ${names.map((n) => `${n} = ${fmtCount(run.results[0] ? run.results[0].params[n] : '')}`).join(', ')}` : '';
  document.getElementById('table-note').textContent = `${metric.unit}${fixed}, the median of the timed launches; ${checkWords(run)}; ★ the fastest at its point beyond the noise, ≈ within noise of the fastest. Hover a cell for its time and interval.`;
  const problems = run.results.filter((r) => !timeStands(r));
  document.getElementById('problems').hidden = problems.length === 0;
  document.getElementById('problem-list').replaceChildren(...problems.map((r) =>
    el('li', {}, el('strong', {}, `${variantTitle(experiment, r.variant)}, ${names.map((n) => `${n}=${r.params[n]}`).join(', ')}: `),
      /build log:/.test(r.error || '') ? `${r.error.split('\n')[0]} (the log is in the Source section)` : r.error || 'not verified')));
}
