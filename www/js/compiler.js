// The compiler's account in each variant's Source panel, from GET
// /api/runs/{id}/compiler: what the device's compiler reported for the
// variant's kernel (registers, local and private memory, spills, barriers),
// the occupancy the server computed from it, and on NVIDIA the kernel's PTX
// beside its source — each source line linked to the PTX lines it became and
// back, global and local (shared) loads and stores marked with their width.
// The server reads and computes every figure; this file only lays them out.
import { el, fmtNumber } from './format.js';

// A small PTX grammar for Prism (it ships none): comments, directives,
// registers, labels, memory instructions, numbers.
function ptxGrammar() {
  if (!window.Prism) return null;
  if (!window.Prism.languages.ptx) {
    window.Prism.languages.ptx = {
      comment: /\/\/.*/,
      string: /"[^"]*"/,
      'memory-op': /\b(?:ld|st|atom|red)\.(?:global|shared|local|const)[\w.:]*/,
      keyword: /(?:^|\s)\.[a-z_]\w*/,
      variable: /%[a-z_]\w*(?:<\d+>)?/i,
      function: /\b[a-z][\w]*(?:\.[\w:]+)+/,
      label: /\$?L__\w+:?|\$\w+/,
      number: /\b(?:0[xXfFdD][\da-fA-F]+|\d+(?:\.\d+)?)\b/,
      punctuation: /[{}[\](),;]/,
    };
  }
  return window.Prism.languages.ptx;
}

// A byte count as people read it: "4,228 B".
const bytes = (v) => (v === null || v === undefined ? 'not reported' : `${Number(v).toLocaleString('en-US')} B`);
const known = (v, f = String) => (v === null || v === undefined ? 'not reported' : f(v));

function occupancyText(o) {
  if (!o) return 'not known';
  if (o.unknown_why) return `not known: ${o.unknown_why}`;
  if (o.cannot_run) return `none: ${o.cannot_run}`;
  const by = (o.limited_by || []).map((x) => x.replace('_', ' ')).join(' and ');
  const unknown = (o.unknown || []).length ? ` (${o.unknown.map((x) => x.replace('_', ' ')).join(', ')} not reported: at most this)` : '';
  return `${o.groups} work-group${o.groups === 1 ? '' : 's'}, ${o.warps} of ${o.max_warps} warps per compute unit (${fmtNumber(100 * o.fraction, 3)}%), limited by ${by}${unknown}`;
}

// What each figure means, one sentence each (also in docs/api.md).
const MEANINGS = [
  ['registers', 'Registers each work-item holds, as ptxas allocated them; more registers per work-item leave room for fewer warps on a compute unit.'],
  ['local memory', 'Local (CUDA: shared) memory one work-group occupies: what the kernel declares plus what its arguments give; it bounds how many work-groups share a compute unit.'],
  ['private memory', 'Memory per work-item outside registers (the stack frame): arrays indexed at run time and spilled registers live there, in slow off-chip memory.'],
  ['spills', 'Bytes per work-item the compiler stored to and loaded from the stack because registers ran out; any spill costs memory traffic no access model counts.'],
  ['barriers', 'Named barriers the kernel uses (barrier() calls share one).'],
  ['occupancy', 'Work-groups and warps resident on one compute unit at once for this work-group size, from the architecture\'s limits, and which limit stops more; more resident warps hide more memory latency.'],
];

function figuresTable(b) {
  const f = b.figures || {};
  const spill = (f.spill_store_bytes || 0) + (f.spill_load_bytes || 0);
  const rows = [
    ['registers', known(f.registers, (r) => `${r} per work-item`)],
    ['local memory', f.local_bytes === null || f.local_bytes === undefined ? 'not reported'
      : `${bytes(f.local_bytes)} per work-group${f.local_dynamic_bytes ? ` (${bytes(f.local_static_bytes)} declared, ${bytes(f.local_dynamic_bytes)} through arguments${(b.launches || []).length > 1 ? ` at ${b.launches[0].at}` : ''})` : ''}`],
    ['private memory', known(f.private_bytes, (p) => `${bytes(p)} per work-item${f.stack_bytes !== null && f.stack_bytes !== undefined ? ` (stack frame ${bytes(f.stack_bytes)})` : ''}`)],
    ['spills', f.spill_store_bytes === null || f.spill_store_bytes === undefined ? 'not reported'
      : spill ? `${bytes(f.spill_store_bytes)} stored, ${bytes(f.spill_load_bytes)} loaded per work-item (ptxas spills after the PTX is made: its spill code is not in the PTX below)` : 'none'],
    ['barriers', known(f.barriers)],
    ['work-group', b.work_group ? `${b.work_group.join(' × ')} = ${f.work_group_items} work-items (the driver allows up to ${known(f.max_work_group)}, in multiples of ${known(f.preferred_multiple)})` : 'chosen by the driver'],
    ['occupancy', (b.launches || []).length > 1
      ? el('ul', { class: 'launches' }, b.launches.map((l) => el('li', {}, `${l.at}: ${bytes(l.local_bytes)} of local memory, ${occupancyText(l.occupancy)}`)))
      : occupancyText(b.occupancy)],
  ];
  return el('table', { class: 'grid compiler-figures', 'data-options': b.options },
    el('caption', {}, `${b.kernel} from source ${b.source_hash}, built with ${b.options ? `"${b.options}"` : 'no options'}: ${f.reported_by === 'ptxas' ? `as ptxas reported it for ${f.target || 'the device'}` : 'as the OpenCL driver reports it'}`),
    el('tbody', {}, rows.map(([k, v]) => el('tr', { class: k === 'spills' && spill ? 'spills' : null, 'data-figure': k },
      el('th', { scope: 'row' }, k), el('td', {}, v)))));
}

// The width badge of a memory instruction: "ld v4 · 16 B".
const widthText = (m) => `${m.space} ${m.op} ${m.vector > 1 ? `v${m.vector}` : 'scalar'} · ${m.bytes} B`;

// Source lines (start.. of text) and PTX lines side by side, linked both
// ways. Each list is a listbox: one stop for Tab, the arrow keys (and Home,
// End) move between its lines, and Enter or Space does what a click does.
function ptxView(ptx, text, start) {
  const grammar = ptxGrammar();
  const memory = new Map(ptx.memory.map((m) => [m.line, m]));
  const srcList = el('ol', { class: 'ptx-source', start: String(start), role: 'listbox', 'aria-label': 'source lines: choose one to mark the PTX it became' });
  const ptxList = el('ol', { class: 'ptx-code', role: 'listbox', 'aria-multiselectable': 'true', 'aria-label': 'PTX lines: choose one to mark its source line' });
  const used = new Set(ptx.source_lines.filter((n) => n > 0));
  text.replace(/\n$/, '').split('\n').forEach((line, i) => {
    const n = start + i;
    srcList.append(el('li', {
      'data-src-line': String(n), class: used.has(n) ? 'has-ptx' : null, title: used.has(n) ? 'show the PTX of this line' : null,
      role: 'option', tabindex: i === 0 ? '0' : '-1', 'aria-label': line.trim() ? null : `line ${n}, blank`,
    }, line || ' '));
  });
  ptx.lines.forEach((line, i) => {
    const m = memory.get(i);
    const code = el('code', {});
    if (grammar) code.innerHTML = window.Prism.highlight(line, grammar, 'ptx');
    else code.textContent = line;
    ptxList.append(el('li', {
      'data-ptx-line': String(i), 'data-src-line': String(ptx.source_lines[i] || 0),
      class: m ? `mem mem-${m.space}` : null, role: 'option', tabindex: i === 0 ? '0' : '-1',
      'aria-label': line.trim() ? null : `PTX line ${i + 1}, blank`,
    }, code, m ? el('span', { class: 'width-badge' }, widthText(m)) : null));
  });
  const view = el('div', { class: 'ptx-view' }, srcList, ptxList);
  const select = (n, from) => {
    view.querySelectorAll('.linked').forEach((x) => { x.classList.remove('linked'); x.removeAttribute('aria-selected'); });
    if (!n) return;
    const targets = [...view.querySelectorAll(`[data-src-line="${n}"]`)];
    targets.forEach((x) => { x.classList.add('linked'); x.setAttribute('aria-selected', 'true'); });
    const other = targets.find((x) => x.parentElement !== from);
    if (other && other.scrollIntoView) other.scrollIntoView({ block: 'nearest' });
  };
  for (const list of [srcList, ptxList]) {
    // The line chosen, by click or key, is where Tab comes back to.
    const choose = (li) => {
      const last = list.querySelector(':scope > li[tabindex="0"]');
      if (last && last !== li) last.tabIndex = -1;
      li.tabIndex = 0;
      select(Number(li.dataset.srcLine), list);
    };
    list.addEventListener('click', (e) => {
      const li = e.target.closest('li');
      if (li && li.parentElement === list) choose(li);
    });
    list.addEventListener('keydown', (e) => {
      const li = e.target.closest('li');
      if (!li || li.parentElement !== list) return;
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        choose(li);
        return;
      }
      const next = { ArrowDown: li.nextElementSibling, ArrowUp: li.previousElementSibling,
        Home: list.firstElementChild, End: list.lastElementChild }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      if (!next) return;
      li.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
    });
  }
  return view;
}

function ptxPanel(b, text, start) {
  if (!b.ptx) return el('p', { class: 'muted ptx-why' }, `${b.ptx_why[0].toUpperCase()}${b.ptx_why.slice(1)}.`);
  const counts = Object.entries(b.ptx.counts).map(([k, n]) => `${k} ×${n}`).join(', ');
  return el('details', { class: 'ptx-panel' },
    el('summary', {}, `PTX beside the source `, el('span', { class: 'sub-inline' }, `${b.ptx.lines.length} lines; memory: ${counts || 'none'}`)),
    el('p', { class: 'muted' }, 'Click a source line (or Tab to the list, move with the arrow keys and press Enter) to mark the PTX it became, or a PTX line to mark its source line. Loads and stores of global and local (shared) memory are marked with their width: v4 is one 16-byte access per work-item.'),
    ptxView(b.ptx, text, start));
}

// The compiler's account of variant id for its Source panel; text and start
// are the source shown there and its first line's number in the file.
export function compilerBlock(account, id, text, start) {
  if (!account) return null;
  if (!account.recorded) return el('p', { class: 'muted compiler-note' }, `What the compiler made of it: ${account.note}.`);
  const v = (account.variants || []).find((x) => x.id === id);
  if (!v || !v.builds.length) return el('p', { class: 'muted compiler-note' }, 'What the compiler made of it: not recorded for this variant (it was not built).');
  return el('div', { class: 'compiler', 'data-variant': id },
    el('h3', {}, 'What the compiler made of it'),
    v.builds.map((b) => el('div', { class: 'compiler-build' }, figuresTable(b), ptxPanel(b, text || '', start))));
}

// One sentence per figure, shown once under the Source section.
export function compilerMeanings(account) {
  if (!account || !account.recorded) return null;
  const arch = account.architecture ? `${account.architecture.name} (compute capability ${account.device.compute_capability})`
    : `unknown: ${account.architecture_why}`;
  return el('details', { class: 'compiler-meanings' },
    el('summary', {}, 'What the compiler\'s figures mean'),
    el('p', {}, `Occupancy is computed for the device's architecture: ${arch}.`),
    el('dl', {}, MEANINGS.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])));
}
