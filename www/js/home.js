// The home page: the catalog as cards, the run form (pre-filled from a run with
// ?again=ID, or from a tuning run's best configuration with &best=1), "Your own experiment" (own_form.js; pre-filled the same way
// from a run of one), recent runs kept current by the status stream (polled
// while any is queued or running when the stream fails), with selection for
// the compare page, the devices, and the model's record on each (record.js),
// read again when a run finishes.
import { banner, getJSON, liveStream, postJSON } from './api.js';
import { RunForm } from './form.js';
import { OwnForm } from './own_form.js';
import { el, fmtAge, fmtBytes, fmtLocalTime } from './format.js';
import { loadRecord } from './record.js';
import { runCells } from './run_rows.js';

let form = null;
const selected = new Set();


function renderCatalog(cat) {
  document.getElementById('catalog').replaceChildren(...cat.experiments.map((e) =>
    el('article', { class: 'card', 'data-experiment': e.id },
      el('h3', {}, e.title),
      el('div', { class: 'seed' }, `${e.id} · ${e.metric === 'throughput' ? 'Gop/s' : 'GB/s'}`),
      el('p', { class: 'seed source-article' }, `After ${e.after || `seed ${e.seed}`}`),
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

let knownDevices = [];

function renderDevices(devices) {
  knownDevices = devices;
  const body = document.querySelector('#devices tbody');
  if (devices.length === 0) {
    body.replaceChildren(el('tr', {}, el('td', { colspan: '10', class: 'muted' }, 'No device registered yet: is warplab-runner started?')));
    return;
  }
  // Each cell carries its column's name: on a phone the rows are cards.
  const labels = [...document.querySelectorAll('#devices thead th')].map((th) => th.textContent);
  body.replaceChildren(...devices.map((d) => {
    const row = el('tr', {},
      el('td', { title: d.id }, d.name),
      el('td', {}, d.host || ''),
      el('td', {}, d.type),
      el('td', {}, fmtBytes(d.global_mem_bytes)),
      el('td', {}, String(d.compute_units)),
      el('td', {}, fmtBytes(d.local_mem_bytes)),
      cacheCell(d.cache),
      el('td', {}, `${d.platform} ${d.driver}`),
      deviceState(d),
      el('td', { title: d.last_seen ? fmtLocalTime(d.last_seen) : '' }, d.last_seen ? fmtAge(d.last_seen) : ''));
    [...row.cells].forEach((td, i) => td.setAttribute('data-label', labels[i]));
    return row;
  }));
}

// The last-level cache and where its size came from; unknown said plainly,
// since cold timings on that device flush a guess.
function cacheCell(cache) {
  if (!cache || !cache.bytes) return el('td', { class: 'bad', title: cache ? cache.method : '' }, 'unknown');
  return el('td', { title: cache.method }, `${fmtBytes(cache.bytes)} (${cache.source || 'probe'})`);
}

// Online and what it does: the run it executes (a link), or idle.
function deviceState(d) {
  if (!d.online) return el('td', { class: 'bad' }, 'offline');
  if (d.running == null) return el('td', { class: 'ok' }, 'online, idle');
  return el('td', { class: 'ok' }, 'online, running ', el('a', { href: `/runs/${d.running}` }, `#${d.running}`));
}

let runs = [];

// Refresh runs and devices: every 2 s while a run is queued or running, then
// backing off to 30 s when nothing moves. While the status stream is open,
// this runs once, and the stream keeps the list current.
let delay = 2000;
async function refresh() {
  // The stream first, so that no change falls between the list and it.
  const following = follow();
  try {
    const [list, devices] = await Promise.all([getJSON('/api/runs?limit=25'), getJSON('/api/devices')]);
    runs = merge(list.runs, runs);
    renderRuns(runs);
    renderDevices(devices.devices);
    const busy = runs.some((r) => r.status === 'queued' || r.status === 'running');
    const online = devices.devices.some((d) => d.online);
    banner(online ? '' : 'No runner is online: queued runs wait until warplab-runner starts.');
    delay = busy ? 2000 : Math.min(delay * 2, 30000);
  } catch (err) {
    banner(`The warplab server cannot be reached (${err.message}); retrying.`);
    delay = Math.min(delay * 2, 30000);
  }
  if (!following) setTimeout(refresh, delay);
}

// The list as fetched, but where the stream already brought a newer state of
// a run (or a newer run), that.
function merge(fetched, known) {
  const byId = new Map(known.map((r) => [r.id, r]));
  const newer = known.filter((r) => fetched.length && r.id > fetched[0].id);
  return [...newer, ...fetched.map((r) => {
    const k = byId.get(r.id);
    return k && (k.change || 0) > (r.change || 0) ? k : r;
  })].slice(0, 25);
}

// A run's new state from the stream: replace its row, or add a new run on
// top; never go back to an older state.
function applyChange(r) {
  const i = runs.findIndex((x) => x.id === r.id);
  if (i >= 0) {
    if ((runs[i].change || 0) >= r.change) return;
    // A run that ends adds to the model's record.
    if (r.status === 'done' && runs[i].status !== 'done') recordSoon();
    runs[i] = r;
  } else if (runs.length === 0 || r.id > runs[0].id) {
    runs = [r, ...runs].slice(0, 25);
  } else {
    return;
  }
  renderRuns(runs);
  devicesSoon();
}

// The devices' states follow the runs (idle, running #N); fetch them shortly
// after a change, and every 30 s for runners coming and going.
let devicesTimer = null;
function devicesSoon(ms = 300) {
  clearTimeout(devicesTimer);
  devicesTimer = setTimeout(async () => {
    devicesTimer = null;
    try {
      const devices = (await getJSON('/api/devices')).devices;
      renderDevices(devices);
      banner(devices.some((d) => d.online) ? '' : 'No runner is online: queued runs wait until warplab-runner starts.');
    } catch (err) {
      banner(`The warplab server cannot be reached (${err.message}); retrying.`);
    }
    if (stream) devicesSoon(30000);
  }, ms);
}

// The model's record, read again a little after a run ends (its points are
// scored as its page is read, or as the record is asked for).
let recordTimer = null;
function recordSoon(ms = 1500) {
  clearTimeout(recordTimer);
  recordTimer = setTimeout(() => loadRecord(document.getElementById('record'), knownDevices), ms);
}

// The status stream (see liveStream); after three failures the page stays
// with polling.
let stream = null;
let streamFailures = 0;
function follow() {
  if (stream) return true;
  if (!window.EventSource || streamFailures >= 3) return false;
  const es = liveStream('/api/events', () => {
    stream = null;
    streamFailures++;
    delay = 2000;
    setTimeout(refresh, delay);
  });
  stream = es;
  es.addEventListener('run', (e) => applyChange(JSON.parse(e.data)));
  // Too far behind to replay: read the list again.
  es.addEventListener('resync', () => { es.close(); stream = null; refresh(); });
  devicesSoon(30000);
  return true;
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
  const own = new OwnForm(document.getElementById('own-box'), { catalog, devices });
  // A server that runs no code of one's own has no place for it.
  document.getElementById('own').hidden = catalog.custom_kernels === false;
  const again = new URLSearchParams(window.location.search).get('again');
  if (again) {
    try {
      const run = await getJSON(`/api/runs/${encodeURIComponent(again)}`);
      // "Run again with the best" of a tuning run: the server's request
      // for its best configuration.
      const best = new URLSearchParams(window.location.search).get('best') && run.tuning?.best_request;
      const request = best || run.request;
      if (request.definition) {
        document.getElementById('own-details').open = true;
        await own.load(request);
        document.getElementById('own').scrollIntoView();
      } else {
        form.select(run.experiment, request);
        document.getElementById('queue').scrollIntoView();
      }
    } catch (err) {
      banner(`Cannot load run ${again} to run it again: ${err.message}`);
    }
  }
  refresh();
  knownDevices = devices;
  loadRecord(document.getElementById('record'), devices);
}

main();
