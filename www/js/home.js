// The home page: the catalog as cards, recent runs (refreshed while any is
// queued or running) and the devices.
import { banner, getJSON } from './api.js';
import { el, fmtAge, fmtBytes } from './format.js';

function renderCatalog(cat) {
  const box = document.getElementById('catalog');
  box.replaceChildren(
    ...cat.experiments.map((e) =>
      el('article', { class: 'card', 'data-experiment': e.id },
        el('h3', {}, e.title),
        el('div', { class: 'seed' }, `${e.id} · seed ${e.seed} · ${e.metric}`),
        el('p', {}, e.summary),
        el('ul', {}, e.variants.map((v) => el('li', {}, el('strong', {}, v.title), v.note ? ` — ${v.note}` : ''))))),
  );
}

function progressCell(run) {
  const { done, total } = run.progress;
  return el('td', {}, el('progress', { max: String(total || 1), value: String(done) }), ` ${done}/${total}`);
}

function renderRuns(runs) {
  const body = document.querySelector('#runs tbody');
  if (runs.length === 0) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: '7', class: 'muted' }, 'No runs yet. Queue one with POST /api/runs.')));
    return;
  }
  body.replaceChildren(
    ...runs.map((r) =>
      el('tr', { 'data-run': String(r.id) },
        el('td', {}, el('a', { href: r.url }, `#${r.id}`)),
        el('td', {}, r.experiment),
        el('td', {}, r.label || ''),
        el('td', {}, r.device && r.device.name ? r.device.name : r.device && r.device.id ? r.device.id : 'auto'),
        el('td', {}, el('span', { class: `status ${r.status}` }, r.status)),
        progressCell(r),
        el('td', { title: r.created_at }, fmtAge(r.created_at)))),
  );
}

function renderDevices(devices) {
  const body = document.querySelector('#devices tbody');
  if (devices.length === 0) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: '6', class: 'muted' }, 'No device registered: is warplab-runner started?')));
    return;
  }
  body.replaceChildren(
    ...devices.map((d) =>
      el('tr', {},
        el('td', { title: d.id }, d.name),
        el('td', {}, d.type),
        el('td', {}, fmtBytes(d.global_mem_bytes)),
        el('td', {}, String(d.compute_units)),
        el('td', {}, fmtBytes(d.local_mem_bytes)),
        el('td', { class: d.online ? 'ok' : 'bad' }, d.online ? 'online' : 'offline'))),
  );
}

let delay = 2000;

async function refresh() {
  let busy = false;
  try {
    const [runs, devices] = await Promise.all([getJSON('/api/runs?limit=20'), getJSON('/api/devices')]);
    renderRuns(runs.runs);
    renderDevices(devices.devices);
    busy = runs.runs.some((r) => r.status === 'queued' || r.status === 'running');
    banner(devices.devices.some((d) => d.online) ? '' : 'No runner is online: queued runs wait until warplab-runner starts.');
    delay = busy ? 2000 : Math.min(delay * 2, 30000);
  } catch (err) {
    banner(`Cannot load runs: ${err.message}`);
    delay = Math.min(delay * 2, 30000);
  }
  setTimeout(refresh, delay);
}

async function main() {
  try {
    renderCatalog(await getJSON('/api/experiments'));
  } catch (err) {
    banner(`Cannot load the catalog: ${err.message}`);
  }
  refresh();
}

main();
