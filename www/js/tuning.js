// The run page's tuning block: at each size of a tuning run, the server's
// sentence on the fastest configuration, its margin over the catalog's
// settings and, for the model's strategy, how its ranking held. Nothing here
// judges; it only shows.
import { el } from './format.js';

export function renderTuning(run) {
  const box = document.getElementById('tuning');
  const t = run.tuning;
  box.hidden = !t;
  if (!t) return;
  const how = t.strategy === 'model' ? `the model's best ${t.budget} of each size`
    : t.strategy === 'random' ? `${t.budget} at random at each size` : 'every configuration the restrictions allow';
  box.replaceChildren(
    el('h2', { id: 'tuning-h' }, 'Tuning'),
    el('p', { class: 'muted' }, `${t.params.join(' × ')} tuned, ${t.space} configuration${t.space === 1 ? '' : 's'} at each size; measured: ${how}.`),
    el('ul', { class: 'tuning-sizes' }, ...t.sizes.map((s) => el('li', {}, s.sentence))));
}
