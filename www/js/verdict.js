// The run page's verdict: who won, by how much and why, as the server
// judged it (run.verdict: the same rule as the compare page's), and which
// cell of each point is the fastest. Nothing here judges; it only shows.
import { el } from './format.js';

// The server's judgement of the point with params, or null.
export function pointVerdict(run, params) {
  const v = run.verdict;
  if (!v || !Array.isArray(v.points)) return null;
  const key = JSON.stringify(params);
  return v.points.find((p) => JSON.stringify(p.params) === key) || null;
}

// How a cell stands at its point: 'fastest' (apart from every other),
// 'first' (the fastest, but within noise of another), 'tied' (within noise
// of the fastest), or null.
export function standing(run, r) {
  const p = pointVerdict(run, r.params);
  if (!p || !p.fastest) return null;
  if (p.fastest === r.variant) return p.apart ? 'fastest' : 'first';
  return p.tied.includes(r.variant) ? 'tied' : null;
}

export function renderVerdict(run) {
  const box = document.getElementById('verdict');
  const v = run.verdict;
  if (!v) {
    box.replaceChildren(el('p', { class: 'verdict-sentence muted' },
      run.status === 'queued' ? 'Waiting for a runner: the verdict comes with the first results.'
        : run.status === 'running' ? 'The first point is being measured…' : 'This run has no results to judge.'));
    return;
  }
  box.replaceChildren(el('p', { class: `verdict-sentence${v.so_far ? ' so-far' : ''}`, 'data-fastest': v.fastest || '' },
    el('strong', {}, v.so_far ? 'So far: ' : 'Verdict: '), v.sentence.replace(/^So far, /, '')));
}
