// A run as a row of the runs tables (home page and /runs): its link, what it
// measures, where, its status and progress, and when it was queued.
import { el, fmtAge, fmtLocalTime } from './format.js';

export function runCells(r) {
  const { done, total } = r.progress;
  return [
    el('td', {}, el('a', { href: r.url }, `#${r.id}`)),
    el('td', {}, r.experiment),
    el('td', {}, r.label || ''),
    el('td', {}, r.device && (r.device.name || r.device.id) ? `${r.device.name || r.device.id}` : 'auto'),
    el('td', {}, el('span', { class: `status ${r.status}` }, r.status)),
    el('td', {}, el('progress', { max: String(total || 1), value: String(done), 'aria-label': `progress of run ${r.id}` }), ` ${done}/${total}`),
    queuedCell(r),
  ];
}

// When a run was queued, on the reader's clock, and how long ago; the ISO
// time stays in the <time> element.
function queuedCell(r) {
  if (!r.created_at) return el('td', {}, '–');
  return el('td', {}, el('time', { datetime: r.created_at }, fmtLocalTime(r.created_at)),
    el('span', { class: 'sub' }, fmtAge(r.created_at)));
}
