// Cancel on the run page, asked once: a queued run is cancelled at once, a
// running one within a batch of launches (POST /api/runs/{id}/cancel). Where the server
// asks for an access token, the one the run form saved is sent, or the
// page asks for it.
import { ApiError, postJSON } from './api.js';

const TOKEN_KEY = 'warplab-token';

// Whether the page shows the run ended: its event stream may say so before
// the cancel's own answer comes, and then that answer is no news.
let ended = false;

function say(text) {
  document.getElementById('cancel-said').textContent = text;
}

async function cancel(run, refresh) {
  // Asked once: a click too many would lose a run's remaining points.
  if (!window.confirm(run.status === 'running'
    ? `Cancel run #${run.id}? It stops within a moment, dropping the variant it is measuring; what it measured before is kept.`
    : `Cancel run #${run.id}? It has not started.`)) return;
  const button = document.getElementById('cancel');
  const box = document.getElementById('cancel-token-box');
  const typed = document.getElementById('cancel-token').value.trim();
  const token = typed || localStorage.getItem(TOKEN_KEY) || '';
  button.disabled = true;
  say('Cancelling…');
  try {
    await postJSON(`/api/runs/${run.id}/cancel`, {}, token ? { Authorization: `Bearer ${token}` } : {});
    if (typed) localStorage.setItem(TOKEN_KEY, typed);
    box.hidden = true;
    if (!ended) say(run.status === 'running' ? 'Cancel asked: the run stops within a moment.' : 'Cancelled.');
    refresh();
  } catch (err) {
    button.disabled = false;
    if (err instanceof ApiError && err.status === 401) {
      box.hidden = false;
      document.getElementById('cancel-token').focus();
      say('This server needs an access token to cancel: type it, then press Cancel again.');
    } else {
      say(`Not cancelled: ${err.message}`);
    }
  }
}

// Show the button while run can still be cancelled.
export function watchCancel(run, refresh) {
  const button = document.getElementById('cancel');
  const live = run.status === 'queued' || run.status === 'running';
  button.hidden = !live;
  ended = !live;
  if (!live) {
    document.getElementById('cancel-token-box').hidden = true;
    // The status says how it ended: "Cancel asked…" is past.
    say('');
  }
  button.onclick = () => cancel(run, refresh);
}
