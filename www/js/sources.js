// The run page's Source section: the code of every variant that ran, from GET
// /api/runs/{id}/sources — built-ins as they were at the run's source hash,
// an own experiment's from its definition, custom kernels as the request
// sent them — highlighted by Prism
// (window.Prism, vendored from npm) with the file's line numbers. A custom
// kernel also shows its diff against the template of the variant it is "like"
// (jsdiff, window.Diff), and when it did not build, the compiler's log with
// the lines it names marked in the source. Where the run traced a variant,
// each line that touches memory is marked and listed with what one warp
// request of it costs, as a profiler's source view does. Under each, what the
// compiler made of it (compiler.js).
import { getJSON } from './api.js';
import { compilerBlock, compilerMeanings } from './compiler.js';
import { el, fmtCountOf, fmtNumber } from './format.js';

// The source lines a build log names for errors: "error: <source>:12:5: ..."
// (PoCL, as the runner writes it) or "<kernel>:12:5: error: ..." (NVIDIA).
export function loggedLines(log) {
  const lines = new Set();
  const patterns = [/error:\s*<source>:(\d+):/g, /<(?:source|kernel)>:(\d+):(?:\d+:)?\s*(?:fatal )?error/g];
  for (const re of patterns) for (const m of (log || '').matchAll(re)) lines.add(Number(m[1]));
  return [...lines].sort((a, b) => a - b);
}

// A block of code scrolls in its own box where its lines are long: Tab
// reaches it, so the keyboard scrolls it too, and it says what it holds.
const scrollBox = (label) => ({ tabindex: '0', role: 'region', 'aria-label': label });

function codeBlock(text, { start = 1, marked = [], label = 'source' } = {}) {
  return el('pre', {
    class: 'source line-numbers language-opencl', 'data-start': String(start),
    'data-line': marked.length ? marked.join(',') : null, ...scrollBox(label),
  }, el('code', { class: 'language-opencl' }, text));
}

// The diff of a custom kernel against base, line by line: + added, - removed.
function diffBlock(base, text, label) {
  if (!window.Diff || base === null || base === undefined) return el('p', { class: 'muted' }, 'No template to compare with.');
  const parts = window.Diff.diffLines(base, text);
  const rows = [];
  let added = 0;
  let removed = 0;
  for (const p of parts) {
    const lines = p.value.replace(/\n$/, '').split('\n');
    const kind = p.added ? 'add' : p.removed ? 'del' : 'same';
    if (p.added) added += lines.length;
    if (p.removed) removed += lines.length;
    for (const line of lines) rows.push(el('span', { class: `diff-${kind}` }, `${p.added ? '+' : p.removed ? '-' : ' '} ${line}\n`));
  }
  return el('div', {},
    el('p', { class: 'muted diff-summary' }, added || removed ? `${added} line(s) added, ${removed} removed.` : 'Identical to the template.'),
    el('pre', { class: 'diff', ...scrollBox(label) }, rows));
}

// The run's trace of variant id: {sites (those with a line, within first..last),
// point, lanes} or {error}, or null where the run has none.
function traceOf(run, id, first, last) {
  const t = (run.traces || []).find((x) => x.variant === id);
  if (!t) return null;
  if (t.figures.error) return { error: t.figures.error };
  return {
    sites: t.figures.traced.sites.filter((s) => s.line >= first && s.line <= last),
    point: t.figures.point, lanes: t.figures.lanes,
  };
}


// Each traced line with what one warp request of its accesses costs.
function lineFigures(trace) {
  if (!trace) return null;
  if (trace.error) return el('p', { class: 'muted trace-note' }, `Not traced: ${trace.error}.`);
  if (!trace.sites.length) return null;
  // One pass is no conflict: only more than one is called so.
  const conflict = (d) => (d > 1 ? `${fmtNumber(d, 3)}-way bank conflict` : 'no bank conflict (one pass)');
  const cost = (s) => (s.space === 'local' ? conflict(s.conflict_degree)
    : `${fmtCountOf(s.sectors_per_request, 'sector')}, ${fmtCountOf(s.lines_per_request, 'line')}, ${fmtNumber(100 * s.efficiency, 3)}% useful`);
  return el('table', { class: 'grid line-figures' },
    el('caption', {}, `Traced at ${trace.point} in the Oclgrind simulator, ${trace.lanes}-wide warps: each memory access of the first work-group, per warp request.`),
    el('thead', {}, el('tr', {}, ['line', 'access', 'requests', 'per request'].map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, trace.sites.sort((a, b) => a.line - b.line).map((s) => el('tr', { 'data-line': String(s.line) },
      el('td', {}, String(s.line)), el('td', {}, `${s.space} ${s.op}`),
      el('td', { class: 'num' }, fmtNumber(s.requests, 3)), el('td', {}, cost(s))))));
}

function variantPanel(v, builtinTitle, failures, run, account) {
  const log = failures.find((r) => /build log:/.test(r.error || ''));
  const start = v.custom ? 1 : v.line || 1;
  const text = v.source || '';
  const trace = traceOf(run, v.id, start, start + text.split('\n').length - 1);
  const traced = trace && trace.sites ? trace.sites.map((s) => s.line) : [];
  const marked = [...new Set([...(log ? loggedLines(log.error) : []), ...traced])].sort((a, b) => a - b);
  if (!v.custom) {
    return el('details', { class: 'source-panel', 'data-variant': v.id },
      el('summary', {}, `${builtinTitle(v.id)} `, el('span', { class: 'sub-inline' }, v.kernel ? `${v.kernel}, line ${v.line}` : 'source not kept')),
      v.source === null ? el('p', { class: 'muted' }, 'The source this run used is not in the store.') : codeBlock(v.source, { start, marked, label: `source of ${builtinTitle(v.id)}` }),
      lineFigures(trace),
      compilerBlock(account, v.id, v.source, start));
  }
  return el('details', { class: 'source-panel custom', 'data-variant': v.id, open: true },
    el('summary', {}, `${v.id} `, el('span', { class: 'badge' }, 'custom'), el('span', { class: 'sub-inline' }, ` like ${builtinTitle(v.like)}, entry ${v.entry}`)),
    log ? el('div', { class: 'build-log' }, el('h3', {}, 'It did not build: the compiler said'),
      el('pre', { class: 'log', ...scrollBox(`build log of ${v.id}`) }, log.error.replace(/^.*build log:\n/s, ''))) : null,
    codeBlock(v.source, { marked, label: `source of ${v.id}` }),
    lineFigures(trace),
    compilerBlock(account, v.id, v.source, 1),
    el('details', { class: 'diff-panel' }, el('summary', {}, `Diff against the template of ${builtinTitle(v.like)}`), diffBlock(v.like_source, v.source, `diff of ${v.id} against ${builtinTitle(v.like)}`)));
}

let shown = null;

// Render the run's sources once (they never change), then again only when
// new failures arrive, so a log's marks appear as the run goes on.
export async function renderSources(run, builtinTitle) {
  const failures = run.results.filter((r) => r.custom && r.error);
  const key = `${run.id}:${failures.length}:${run.status}:${(run.traces || []).length}`;
  if (shown === key) return;
  let data;
  let account = null;
  try {
    data = await getJSON(`/api/runs/${run.id}/sources`);
    account = await getJSON(`/api/runs/${run.id}/compiler`).catch(() => null);
  } catch (err) {
    document.getElementById('sources-note').textContent = `The sources cannot be loaded: ${err.message}`;
    return;
  }
  shown = key;
  const fam = data.family || {};
  document.getElementById('sources-note').textContent = fam.as_of === 'definition'
    ? `The kernels of this experiment's own source (hash ${fam.hash}), as its request defined it.`
    : fam.hash
    ? `Built-in kernels from ${fam.file} at hash ${fam.hash}${fam.as_of === 'current' ? ' (the current file: the run has not started)' : ', as this run used it'}. Custom kernels as the request sent them.`
    : 'The built-in source of this run is not in the store.';
  const list = document.getElementById('sources');
  list.replaceChildren(...data.variants.map((v) => variantPanel(v, builtinTitle, failures.filter((r) => r.variant === v.id), run, account)),
    ...[compilerMeanings(account)].filter(Boolean));
  // Custom kernels' panels are open, so the marks on their lines are placed
  // on a laid-out block.
  if (window.Prism) window.Prism.highlightAllUnder(list);
}
