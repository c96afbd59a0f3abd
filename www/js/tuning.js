// The run page's tuning block: the server's summary of the search and, at
// each size of a tuning run, its sentence on the fastest configuration, its margin over the catalog's
// settings and, for the model's strategy, how its ranking held. Nothing here
// judges; it only shows.
import { el } from './format.js';

export function renderTuning(run) {
  const box = document.getElementById('tuning');
  const t = run.tuning;
  box.hidden = !t;
  if (!t) return;
  box.replaceChildren(
    el('h2', { id: 'tuning-h' }, 'Tuning'),
    el('p', { class: 'muted' }, t.summary),
    el('ul', { class: 'tuning-sizes' }, ...t.sizes.map((s) => el('li', {}, s.sentence))));
}
