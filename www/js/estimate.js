// What a run would cost before it is queued (POST /api/runs/estimate), in
// words, as both run forms show it — the lesson form and "Your own
// experiment": points × variants = measurements, the time at the pace of
// the device's last runs of the experiment or, before there are any, the
// kernels' time by the model (or why it would wait: no online device runs
// it), and the server's hint; or, where the request is not yet one the
// server would take, its message (asked with ?refusal=body, so a refusal is
// an answer, not a failed request in the console). Asked 300 ms after the
// last change; an older answer never overwrites a newer one.
import { postJSON } from './api.js';
import { fmtNumber } from './format.js';

// How long the run would take, in words: "about 12 s", "about 4 min".
function duration(s) {
  if (s < 1) return 'under a second';
  if (s < 90) return `about ${fmtNumber(s, 2)} s`;
  if (s < 5400) return `about ${fmtNumber(s / 60, 2)} min`;
  return `about ${fmtNumber(s / 3600, 2)} h`;
}

// The estimate's sentence.
export function costText(e) {
  const count = `${e.points} point${e.points === 1 ? '' : 's'} × ${e.variants} variant${e.variants === 1 ? '' : 's'} = ${e.measurements} measurement${e.measurements === 1 ? '' : 's'}`;
  // A time is no promise where no online device would take the run.
  if (e.warning) return `${count}; it would wait: ${e.warning}.`;
  if (e.estimate_s !== null && e.estimate_s !== undefined) {
    return `${count}: ${duration(e.estimate_s)} on ${e.device}, at the pace of its last ${e.history.runs} ${e.experiment} run${e.history.runs === 1 ? '' : 's'}.`;
  }
  // No run to go by: the model's time of the kernels, from the launches a
  // steady device stops at to every one a noisy device takes — the latter
  // said only where it adds something (a second or more, half again more).
  const k = e.kernels_s;
  if (k) {
    const upTo = k.most >= 1 && k.most > 1.5 * k.least ? ` (up to ${duration(k.most).replace(/^about /, '')} if timings are noisy)` : '';
    return `${count}: by the model, the kernels alone should take ${duration(k.least)} on ${e.device}${upTo}; builds, buffers and checks come on top, and no ${e.experiment} run has finished there yet to time them.`;
  }
  return `${count}${e.device ? `; no ${e.experiment} run has finished on ${e.device} yet to estimate the time from` : ''}.`;
}

export class Estimate {
  // box: holds the .cost-text and .cost-hint to fill; words(message): the
  // server's message in the form's words.
  constructor(box, words) {
    this.box = box;
    this.words = words;
    this.asked = 0;
  }

  // Ask for request() 300 ms from now, unless asked again before.
  soon(request) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.ask(request()), 300);
  }

  async ask(request) {
    const asked = ++this.asked;
    const text = this.box.querySelector('.cost-text');
    const hint = this.box.querySelector('.cost-hint');
    try {
      const e = await postJSON('/api/runs/estimate?refusal=body', request);
      if (asked !== this.asked) return;
      if (e.refused) {
        text.textContent = `Not yet a run this server would take: ${this.words(e.refused.message)}`;
        hint.textContent = '';
        return;
      }
      text.textContent = costText(e);
      hint.textContent = e.hint ? ` ${e.hint}` : '';
    } catch (err) {
      if (asked !== this.asked) return;
      // A refusal comes in the answer: this is the server failing, or gone.
      text.textContent = `The estimate is unavailable: ${this.words(err.message)}`;
      hint.textContent = '';
    }
  }
}
