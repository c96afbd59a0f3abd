// What the hardware counted: a CUDA run's results carry the
// counters of one more launch of each variant, and the server sets them
// beside the model's figures (`counted`). Each cell gets a line; the model
// section gets a table per variant, where a counted figure the model does
// not match is flagged as the model's error. Nothing here computes a figure.

import { el, fmtCountOf, fmtNumber } from './format.js';
import { runVariants, variantLabel } from './results.js';

const known = (v) => v !== null && v !== undefined;
const fig = (v) => (known(v) ? fmtNumber(v, 3) : '–');

// The line a table cell gets under the model's.
export function countedLine(r) {
  const c = r.counted;
  if (!c) return null;
  if (c.error) return el('span', { class: 'sub muted counted', title: c.error }, `counters unavailable: ${c.error}`);
  if (c.pending) return el('span', { class: 'sub muted counted' }, 'counters coming: profiled in the runner\'s idle time');
  const parts = [];
  if (known(c.load_sectors_per_request)) parts.push(`${fmtCountOf(c.load_sectors_per_request, 'sector')}/load`);
  if (known(c.store_sectors_per_request)) parts.push(`${fmtCountOf(c.store_sectors_per_request, 'sector')}/store`);
  if (known(c.local_conflict_degree)) parts.push(`${fig(c.local_conflict_degree)}-way`);
  parts.push(`DRAM ${fmtNumber(c.dram_bytes / 1e6, 3)} MB${known(c.predicted.dram_bytes) ? ` (predicted ${fmtNumber(c.predicted.dram_bytes / 1e6, 3)})` : ''}`);
  const differs = c.model_differs.length > 0;
  return el('span', { class: `sub counted${differs ? ' departs' : ''}`, title: differs ? c.model_differs.join('\n') : 'counted by the hardware (CUPTI) on one more launch' },
    `counted: ${parts.join(' · ')}${differs ? ' ⚠ model' : ''}`);
}

// Per variant, counted beside predicted: at the first point where they
// differ, else at its last point.
export function countedTable(run, experiment) {
  const rows = [];
  for (const v of runVariants(run, experiment)) {
    const rs = run.results.filter((r) => r.variant === v.id && r.counted && !r.counted.pending);
    if (!rs.length) continue;
    const r = rs.find((x) => x.counted.model_differs && x.counted.model_differs.length) || rs[rs.length - 1];
    const c = r.counted;
    const at = Object.entries(r.params).map(([k, val]) => `${k} = ${val}`).join(', ');
    if (c.error) {
      rows.push(el('tr', { 'data-variant': v.id }, el('td', {}, variantLabel(v, experiment)), el('td', {}, at), el('td', { colspan: '6', class: 'muted' }, `counters unavailable: ${c.error}`)));
      continue;
    }
    const p = c.predicted;
    rows.push(el('tr', { 'data-variant': v.id, class: c.model_differs.length ? 'disagrees' : null },
      el('td', {}, variantLabel(v, experiment)),
      el('td', {}, at),
      el('td', { class: 'num' }, `${fig(c.load_sectors_per_request)} / ${fig(p.load_sectors_per_request)}`),
      el('td', { class: 'num' }, `${fig(c.store_sectors_per_request)} / ${fig(p.store_sectors_per_request)}`),
      el('td', { class: 'num' }, `${fig(c.local_conflict_degree)} / ${fig(p.local_conflict_degree)}`),
      el('td', { class: 'num' }, `${fmtNumber(c.dram_bytes / 1e6, 3)} / ${known(p.dram_bytes) ? fmtNumber(p.dram_bytes / 1e6, 3) : '–'} MB`),
      el('td', { class: 'num' }, `${fmtNumber(c.l2_hit_pct, 3)}% / ${known(p.l2_hit_pct) ? `${fmtNumber(p.l2_hit_pct, 3)}%` : '–'}`),
      el('td', {}, c.model_differs.length ? c.model_differs.join('; ') : 'agree')));
  }
  if (!rows.length) return null;
  return el('table', { class: 'grid numbers', id: 'counted' },
    el('thead', {}, el('tr', {}, ['variant', 'at', 'sectors per load request, counted / predicted', 'per store request', 'local conflict degree', 'DRAM read and written', 'L2 hits', 'the model']
      .map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows));
}
