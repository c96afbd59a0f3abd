// The runs page, /runs: every run newest first, filtered by experiment,
// device, status and a piece of the label, a page at a time. The filters and
// the page live in the address (?experiment=&device=&status=&label=&before=),
// so a filtered list is a link to send; the rows come from GET /api/runs.
import { banner, getJSON } from './api.js';
import { el } from './format.js';
import { runCells } from './run_rows.js';

const FILTERS = ['experiment', 'device', 'status', 'label'];
const PAGE = 50;

// The address of the runs page for these filters (empty ones left out).
function pageURL(filters, before) {
  const q = new URLSearchParams();
  for (const k of FILTERS) if (filters[k]) q.set(k, filters[k]);
  if (before) q.set('before', String(before));
  const s = q.toString();
  return s ? `/runs?${s}` : '/runs';
}

function fillSelect(select, values, chosen) {
  for (const [value, text] of values) select.append(el('option', { value }, text));
  select.value = chosen || '';
}

async function main() {
  const query = new URLSearchParams(window.location.search);
  const filters = Object.fromEntries(FILTERS.map((k) => [k, query.get(k) || '']));
  const before = query.get('before');
  const form = document.getElementById('filters');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const chosen = Object.fromEntries(FILTERS.map((k) => [k, form.elements[k].value.trim()]));
    window.location.assign(pageURL(chosen));
  });
  document.getElementById('f-status').value = filters.status;
  document.getElementById('f-label').value = filters.label;
  try {
    const [cat, devices] = await Promise.all([getJSON('/api/experiments'), getJSON('/api/devices')]);
    fillSelect(document.getElementById('f-experiment'), cat.experiments.map((e) => [e.id, e.title]), filters.experiment);
    fillSelect(document.getElementById('f-device'), devices.devices.map((d) => [d.id, d.name || d.id]), filters.device);
  } catch (err) {
    banner(`Cannot load the filters: ${err.message}`);
  }
  const api = new URLSearchParams({ limit: String(PAGE) });
  for (const k of FILTERS) if (filters[k]) api.set(k, filters[k]);
  if (before) api.set('before', before);
  const body = document.querySelector('#runs tbody');
  try {
    const page = await getJSON(`/api/runs?${api}`);
    body.replaceChildren(...(page.runs.length
      ? page.runs.map((r) => el('tr', { 'data-run': String(r.id) }, ...runCells(r)))
      : [el('tr', {}, el('td', { colspan: '7', class: 'muted' }, 'No runs match.'))]));
    const older = document.getElementById('older');
    if (page.next && page.runs.length) {
      older.href = pageURL(filters, page.runs[page.runs.length - 1].id);
      older.hidden = false;
    }
    const newest = document.getElementById('newest');
    newest.href = pageURL(filters);
    newest.hidden = !before;
  } catch (err) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: '7', class: 'error' }, err.message)));
    banner(err.status === 0 ? 'The warplab server cannot be reached.' : '');
  }
}

main();
