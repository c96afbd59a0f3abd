// The model's record on the home page, per device: how many of its points the
// model predicted within 2×, 1.5× and 1.25×, and the median and geometric-mean
// factor it is off by, per family — all as GET /api/model/accuracy gives them
// (the server scores the runs and counts; this only lays the figures out). A
// family the server calls poor is marked: the run pages claim no cause for it.
// While the server still scores runs, the page says how many and asks again.
import { getJSON } from './api.js';
import { el, fmtNumber } from './format.js';

const COLUMNS = ['Family', 'Points', 'Within 2×', 'Within 1.5×', 'Within 1.25×', 'Median factor', 'Geometric mean'];
// Reads again while runs are being scored, a little later each time.
const RETRY_MS = [2000, 4000, 8000, 16000];

const factor = (v) => (v === null || v === undefined ? '–' : `${fmtNumber(v, 3)}×`);
const share = (n, of) => `${n} (${Math.round((100 * n) / of)}%)`;

function familyRow(f) {
  const cells = [
    el('th', { scope: 'row' }, f.family, f.poor ? el('span', { class: 'sub bad' }, 'poor: no cause claimed') : null),
    el('td', { class: 'num' }, String(f.points)),
    el('td', { class: 'num' }, share(f.within_2x, f.points)),
    el('td', { class: 'num' }, share(f.within_1_5x, f.points)),
    el('td', { class: 'num' }, share(f.within_1_25x, f.points)),
    el('td', { class: 'num' }, factor(f.median_factor)),
    el('td', { class: 'num' }, factor(f.geomean_factor)),
  ];
  // Each cell carries its column's name: on a phone the rows are cards.
  cells.forEach((c, i) => c.setAttribute('data-label', COLUMNS[i]));
  return el('tr', { 'data-family': f.family, class: f.poor ? 'poor' : '' }, ...cells);
}

function deviceRecord(d, name) {
  const a = d.all;
  return el('article', { class: 'record', 'data-device': d.device },
    el('h3', { title: d.device }, name),
    el('p', { class: 'record-summary' },
      `${a.points} point${a.points === 1 ? '' : 's'}: ${a.within_2x} within 2×, ${a.within_1_5x} within 1.5×, `
      + `${a.within_1_25x} within 1.25×; median ${factor(a.median_factor)} off, geometric mean ${factor(a.geomean_factor)}.`),
    el('table', { class: 'grid numbers record-table' },
      el('caption', { class: 'sr-only' }, `The model's record on ${name}, per family`),
      el('thead', {}, el('tr', {}, ...COLUMNS.map((c, i) => el('th', { scope: 'col', class: i ? 'num' : '' }, c)))),
      el('tbody', {}, ...d.families.map(familyRow))));
}

// Render body (GET /api/model/accuracy) into box, naming devices as names
// (id -> name) has them.
export function renderRecord(box, body, names) {
  const note = [];
  if (body.runs_pending > 0) note.push(el('p', { class: 'muted record-pending' }, `${body.runs_pending} run${body.runs_pending === 1 ? ' is' : 's are'} still being scored; the figures follow.`));
  if (body.devices.length === 0) {
    box.replaceChildren(...note, el('p', { class: 'muted' }, 'No prediction is scored yet: the record fills as runs finish.'));
    return;
  }
  box.replaceChildren(...note, ...body.devices.map((d) => deviceRecord(d, names.get(d.device) || d.device)));
}

let timer = null;

// Fetch and render the record into box, again while the server scores runs.
export async function loadRecord(box, devices, attempt = 0) {
  clearTimeout(timer);
  const names = new Map(devices.map((d) => [d.id, d.name]));
  try {
    const body = await getJSON('/api/model/accuracy');
    renderRecord(box, body, names);
    if (body.runs_pending > 0 && attempt < RETRY_MS.length) timer = setTimeout(() => loadRecord(box, devices, attempt + 1), RETRY_MS[attempt]);
  } catch (err) {
    box.replaceChildren(el('p', { class: 'error' }, `Cannot load the model's record: ${err.message}`));
  }
}
