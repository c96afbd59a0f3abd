// A run as a row of the runs tables (home page and /runs): its link, what it
// measures, where, its status and progress, and when it was queued.
import { el, fmtAge } from './format.js';

export function runCells(r) {
  const { done, total } = r.progress;
  return [
    el('td', {}, el('a', { href: r.url }, `#${r.id}`)),
    el('td', {}, r.experiment),
    el('td', {}, r.label || ''),
    el('td', {}, r.device && (r.device.name || r.device.id) ? `${r.device.name || r.device.id}` : 'auto'),
    el('td', {}, el('span', { class: `status ${r.status}` }, r.status)),
    el('td', {}, el('progress', { max: String(total || 1), value: String(done), 'aria-label': `progress of run ${r.id}` }), ` ${done}/${total}`),
    el('td', { title: r.created_at }, fmtAge(r.created_at)),
  ];
}
