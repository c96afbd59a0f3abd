// The home page: the catalog as cards, the run form (pre-filled from a run with
// ?again=ID), recent runs refreshed while any is queued or running (with
// selection for the compare page), and the devices.
import { banner, getJSON, postJSON } from './api.js';
import { RunForm } from './form.js';
import { el, fmtBytes } from './format.js';
import { runCells } from './run_rows.js';

let form = null;
const selected = new Set();

function renderCatalog(cat) {
  document.getElementById('catalog').replaceChildren(...cat.experiments.map((e) =>
    el('article', { class: 'card', 'data-experiment': e.id },
      el('h3', {}, e.title),
      el('div', { class: 'seed' }, `${e.id} · seed ${e.seed} · ${e.metric === 'throughput' ? 'Gop/s' : 'GB/s'}`),
      el('p', { class: 'lesson' }, e.lesson),
      el('details', { class: 'about' }, el('summary', {}, 'More'), el('p', {}, e.summary)),
      el('p', { class: 'variant-list' }, el('strong', {}, 'Variants: '), e.variants.map((v) => v.title).join(', ')),
      el('button', { type: 'button', class: 'setup', 'data-experiment': e.id }, 'Set up a run'))));
  for (const b of document.querySelectorAll('button.setup')) {
    b.addEventListener('click', () => {
      if (!form) return;
      form.select(b.dataset.experiment);
      document.getElementById('queue').scrollIntoView({ behavior: 'smooth' });
    });
  }
}

function updateCompare() {
  const button = document.getElementById('compare');
  button.disabled = selected.size < 2;
  document.getElementById('compare-hint').textContent = selected.size < 2
    ? 'Select two or more runs to compare them side by side.'
    : `${selected.size} runs selected.`;
}

function renderRuns(runs) {
  const body = document.querySelector('#runs tbody');
  if (runs.length === 0) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: '8', class: 'muted' }, 'No runs yet: queue one above, or with POST /runs.')));
    return;
  }
  body.replaceChildren(...runs.map((r) => {
    const box = el('input', { type: 'checkbox', 'aria-label': `select run ${r.id}`, checked: selected.has(r.id) });
    box.addEventListener('change', () => {
      if (box.checked) selected.add(r.id);
      else selected.delete(r.id);
      updateCompare();
    });
    return el('tr', { 'data-run': String(r.id) }, el('td', {}, box), ...runCells(r));
  }));
}

function renderDevices(devices) {
  const body = document.querySelector('#devices tbody');
  if (devices.length === 0) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: '7', class: 'muted' }, 'No device registered yet: is warplab-runner started?')));
    return;
  }
  body.replaceChildren(...devices.map((d) =>
    el('tr', {},
      el('td', { title: d.id }, d.name),
      el('td', {}, d.type),
      el('td', {}, fmtBytes(d.global_mem_bytes)),
      el('td', {}, String(d.compute_units)),
      el('td', {}, fmtBytes(d.local_mem_bytes)),
      el('td', {}, `${d.platform} ${d.driver}`),
      deviceState(d))));
}

// Online and what it does: the run it executes (a link), or idle.
function deviceState(d) {
  if (!d.online) return el('td', { class: 'bad' }, 'offline');
  if (d.running == null) return el('td', { class: 'ok' }, 'online, idle');
  return el('td', { class: 'ok' }, 'online, running ', el('a', { href: `/runs/${d.running}` }, `#${d.running}`));
}

// Refresh runs and devices: every 2 s while a run is queued or running, then
// backing off to 30 s when nothing moves.
let delay = 2000;
async function refresh() {
  try {
    const [runs, devices] = await Promise.all([getJSON('/api/runs?limit=25'), getJSON('/api/devices')]);
    renderRuns(runs.runs);
    renderDevices(devices.devices);
    const busy = runs.runs.some((r) => r.status === 'queued' || r.status === 'running');
    const online = devices.devices.some((d) => d.online);
    banner(online ? '' : 'No runner is online: queued runs wait until warplab-runner starts.');
    delay = busy ? 2000 : Math.min(delay * 2, 30000);
  } catch (err) {
    banner(`The warplab server cannot be reached (${err.message}); retrying.`);
    delay = Math.min(delay * 2, 30000);
  }
  setTimeout(refresh, delay);
}

async function main() {
  document.getElementById('compare').addEventListener('click', () => {
    window.location.assign(`/compare?runs=${[...selected].sort((a, b) => a - b).join(',')}`);
  });
  let catalog;
  let devices = [];
  try {
    catalog = await getJSON('/api/experiments');
    renderCatalog(catalog);
  } catch (err) {
    banner(`Cannot load the catalog: ${err.message}`);
    return;
  }
  try {
    devices = (await getJSON('/api/devices')).devices;
  } catch {
    devices = [];
  }
  form = new RunForm(document.getElementById('form-box'), {
    catalog,
    devices,
    submit: (request, headers) => postJSON('/api/runs', request, headers),
  });
  const again = new URLSearchParams(window.location.search).get('again');
  if (again) {
    try {
      const run = await getJSON(`/api/runs/${encodeURIComponent(again)}`);
      form.select(run.experiment, run.request);
      document.getElementById('queue').scrollIntoView();
    } catch (err) {
      banner(`Cannot load run ${again} to run it again: ${err.message}`);
    }
  }
  refresh();
}

main();
