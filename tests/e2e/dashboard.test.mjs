// The dashboard in a real browser against the real server and runner on PoCL:
// queue a transpose sweep from the form, watch it finish, check the page shows
// the API's numbers and painted charts, open the share URL as a teammate would,
// compare two runs, see a validation error next to its field, run again, copy
// the link, and the 404 and offline states — with no console errors. Screenshots
// of each page go to tests/e2e/out/.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage, paintedPixels, shot } from './browser.mjs';

const lab = new Lab('e2e');
let browser;
let sweepId;
let otherId;

before(async () => {
  await lab.startServer();
  await lab.startRunner();
  browser = await launch();
  // A copy run first, so the sweep has a ceiling to be a share of.
  const copy = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 262144 }, repeat: 3 })).json.id;
  await lab.waitDone(copy);
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

async function setParam(page, name, mode, values) {
  const row = page.locator(`.param[data-param="${name}"]`);
  await row.locator('select.mode').selectOption(mode);
  for (const [suffix, value] of Object.entries(values)) await row.locator(`[name="params.${name}.${suffix}"]`).fill(String(value));
}

async function runCount() {
  return (await lab.get('/api/runs?limit=200')).json.runs.length;
}

test('home_shows_catalog_form_and_devices', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#run-form');
  assert.equal(await page.locator('#catalog .card').count(), 9);
  assert.match(await page.locator('.card[data-experiment="transpose"] .lesson').innerText(), /partition camping/);
  await page.waitForSelector('#devices td.ok');
  const devices = await page.locator('#devices tbody').innerText();
  assert.match(devices, /online/);
  assert.ok(devices.includes(hostname()), `each device's host: ${devices}`);
  assert.match(devices, /\d+ s ago/, 'the last heartbeat');
  const cache = (await lab.get('/api/devices')).json.devices[0].cache;
  assert.ok(devices.includes(cache.bytes ? `(${cache.source})` : 'unknown'), `the cache and its source: ${devices}`);
  assert.equal(await page.locator('#banner').isHidden(), true, 'no banner while a runner is online');
  await shot(page, 'home-1280x800');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('queues_a_transpose_sweep_from_the_form_and_watches_it_finish', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#run-form');
  // Set up from the transpose card, as a newcomer would.
  await page.click('.card[data-experiment="transpose"] button.setup');
  assert.equal(await page.locator('#f-experiment').inputValue(), 'transpose');
  await setParam(page, 'n', 'range', { from: 256, to: 1536, amount: 256 });
  await page.fill('#f-label', 'sweep from the form');
  await page.fill('#f-repeat', '3');
  await Promise.all([page.waitForURL(/\/runs\/\d+$/), page.click('#run-form button[type=submit]')]);
  sweepId = Number(page.url().match(/\/runs\/(\d+)$/)[1]);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 120000 });
  assert.equal(await page.locator('#progress-text').innerText(), '30 of 30 measurements');
  const run = (await lab.get(`/api/runs/${sweepId}`)).json;
  assert.equal(run.label, 'sweep from the form');
  assert.deepEqual(run.request.params.n, { from: 256, to: 1536, step: 256 });
  assert.equal(run.request.repeat, 3);
  await shot(page, 'run-transpose-1280x800');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The table's numbers, charts and drops on a page, against the API.
async function checkRunPage(page, id) {
  const run = (await lab.get(`/api/runs/${id}`)).json;
  await page.waitForSelector('#table td[data-median-ms]');
  const cells = await page.$$eval('#table td[data-median-ms]', (tds) => tds.map((td) => Number(td.dataset.medianMs)));
  const api = run.results.map((r) => r.median_ms);
  assert.deepEqual([...cells].sort((a, b) => a - b), [...api].sort((a, b) => a - b), 'every median in the table is the API\'s');
  const rates = await page.$$eval('#table td[data-rate]', (tds) => tds.map((td) => Number(td.dataset.rate)));
  assert.deepEqual([...rates].sort((a, b) => a - b), run.results.map((r) => r.gbps).sort((a, b) => a - b));
  assert.ok(await paintedPixels(page, '#chart') > 2000, 'the chart is painted');
  // One number per cell; each median with its interval on hover (the
  // cell's title), behind the toggle, and as error bars.
  const titles = await page.$$eval('#table td[data-median-ms]', (tds) => tds.map((td) => td.title));
  assert.ok(titles.every((t) => /^median [\d.]+ (µs|ms|s); ±[\d.]+% \(95% interval/.test(t)), titles.slice(0, 3).join('|'));
  assert.equal(await page.locator('#table td[data-median-ms] .time').first().isVisible(), false, 'the details are folded');
  await page.check('#show-detail');
  const pms = await page.$$eval('#table td[data-median-ms] .time', (s) => s.map((x) => x.textContent));
  assert.equal(pms.length, run.results.length);
  assert.ok(pms.every((t) => /^[\d.]+ (µs|ms|s) ±[\d.]+%$/.test(t)), pms.slice(0, 3).join('|'));
  const bars = await page.evaluate(() => {
    const c = window.Chart.getChart('chart');
    return { type: c.config.type, points: c.data.datasets.flatMap((d) => d.data).filter((p) => p.yMin <= p.y && p.y <= p.yMax).length };
  });
  assert.equal(bars.type, 'lineWithErrorBars');
  assert.equal(bars.points, run.results.filter((r) => r.verified).length, 'every point has its interval');
  assert.match(await page.locator('#chart-title').innerText(), /^Partition camping: GB\/s vs n$/);
  const drops = await page.locator('#drops li').allInnerTexts();
  if (run.drops.length === 0) assert.match(drops[0], /No drops/);
  else assert.equal(drops.length, run.drops.length, 'one line per drop the API found');
  // The device, the ceiling and the request are folded under the verdict.
  assert.equal(await page.locator('#ceiling').isVisible(), false);
  await page.click('#details > summary');
  assert.match(await page.locator('#ceiling').innerText(), /Copy ceiling of this device: [\d.]+ GB\/s/);
  assert.match(await page.locator('#table').innerText(), /% of copy/);
  return run;
}

test('run_page_shows_the_apis_numbers_and_painted_charts', async () => {
  const page = await openPage(browser, { width: 1920, height: 1080 });
  await page.goto(`${lab.base}/runs/${sweepId}`);
  await checkRunPage(page, sweepId);
  await shot(page, 'run-transpose-1920x1080');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The first screen answers who won: the server's verdict above the table,
// the fastest cell of each point marked as the server judged it, and the
// page no wider than the screen, on a laptop and on a phone.
test('the_run_page_opens_with_who_won_and_fits_the_screen', async () => {
  // Read once the server has made the predictions the verdict's reason uses.
  const run = await lab.waitSettled(sweepId);
  assert.ok(run.verdict && run.verdict.fastest && run.verdict.points.length === 6, JSON.stringify(run.verdict));
  for (const [width, height] of [[1440, 900], [390, 844]]) {
    const page = await openPage(browser, { width, height });
    await page.goto(`${lab.base}/runs/${sweepId}`);
    await page.waitForSelector('#table td[data-median-ms]');
    const verdict = await page.locator('.verdict-sentence').innerText();
    assert.ok(verdict.includes(run.verdict.sentence), `${verdict} / ${run.verdict.sentence}`);
    const cells = await page.$$eval('#table td[data-point]', (tds) => tds.map((td) => [td.dataset.point, td.dataset.variant, td.dataset.standing]));
    for (const p of run.verdict.points) {
      const at = cells.filter(([point]) => point === JSON.stringify(p.params));
      const fastest = at.filter(([, , s]) => s === 'fastest' || s === 'first').map(([, v]) => v);
      assert.deepEqual(fastest, [p.fastest], `the fastest at ${JSON.stringify(p.params)}`);
      assert.equal(at.find(([, v]) => v === p.fastest)[2], p.apart ? 'fastest' : 'first');
      assert.deepEqual(at.filter(([, , s]) => s === 'tied').map(([, v]) => v).sort(), [...p.tied].sort());
    }
    const box = await page.evaluate(() => ({
      wide: document.documentElement.scrollWidth, inner: window.innerWidth,
      verdict: document.querySelector('.verdict-sentence').getBoundingClientRect().bottom,
      row: document.querySelector('#table tbody tr').getBoundingClientRect().bottom,
    }));
    assert.ok(box.wide <= box.inner, `no sideways scroll at ${width}: ${box.wide} > ${box.inner}`);
    if (width === 1440) assert.ok(box.verdict < height && box.row < height, `the verdict and the first row on the first screen: ${JSON.stringify(box)}`);
    await shot(page, `run-verdict-${width}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('share_url_shows_the_same_in_a_fresh_browser', async () => {
  // A new context: no storage, no history — a teammate opening the link.
  const first = await openPage(browser);
  await first.goto(`${lab.base}/runs/${sweepId}`);
  await first.waitForSelector('#table td[data-median-ms]');
  const before = await first.locator('#table').innerText();
  await first.context().close();
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/${sweepId}`);
  await page.waitForSelector('#table td[data-median-ms]');
  assert.equal(await page.locator('#table').innerText(), before, 'the same table on every load');
  await checkRunPage(page, sweepId);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The form says what a run would cost before it is queued, from the
// server's estimate: the counts, and the time at this device's pace (or,
// before it has one, the model's time of the kernels).
test('the_form_says_what_a_run_would_cost', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#run-form');
  await page.selectOption('#f-experiment', 'banks');
  await page.waitForFunction(() => /64 points × 4 variants = 256 measurements/.test(document.querySelector('#run-form .cost-text').textContent));
  await page.selectOption('#f-experiment', 'transpose');
  await page.waitForFunction(() => /at the pace of its last \d+ transpose runs?\.$/.test(document.querySelector('#run-form .cost-text').textContent));
  assert.equal(await page.locator('#run-form .cost-hint').innerText(), '', 'a copy run has set the ceiling');
  // Before any run of it, the kernels' time by the model and the facts.
  await page.selectOption('#f-experiment', 'myadd');
  await page.waitForFunction(() => /: by the model, the kernels alone should take (under a second|about [\d.]+ (s|min)) on \S+( \(up to [\d.]+ (s|min|h) if timings are noisy\))?; builds, buffers and checks come on top, and no myadd run has finished there yet to time them\.$/
    .test(document.querySelector('#run-form .cost-text').textContent));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('validation_error_is_shown_next_to_its_field_and_queues_nothing', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#run-form');
  await page.selectOption('#f-experiment', 'transpose');
  await setParam(page, 'n', 'value', { value: 1000 });
  // The live estimate says what is wrong as the field changes, in the
  // form's words, and a refusal it asks about is no failed request.
  await page.waitForFunction(() => /^Not yet a run this server would take: n: 1000 is not a multiple of tile \(32\)/
    .test(document.querySelector('#run-form .cost-text').textContent));
  assert.deepEqual(page.errors, [], 'no console error before the form is sent');
  const count = await runCount();
  await page.click('#run-form button[type=submit]');
  const error = page.locator('.param[data-param="n"] .field-error');
  await error.waitFor({ state: 'visible' });
  assert.match(await error.innerText(), /^n: 1000 is not a multiple of tile \(32\)/, 'in the form\'s words, not the API\'s');
  assert.equal(await page.locator('.param[data-param="n"]').getAttribute('class'), 'param field invalid');
  assert.match(page.url(), /\/$/, 'still on the form');
  // A range step of zero is named down to the step input's row.
  await setParam(page, 'n', 'range', { from: 256, to: 512, amount: 0 });
  await page.click('#run-form button[type=submit]');
  await page.waitForFunction(() => /step/.test(document.querySelector('.param[data-param="n"] .field-error').textContent));
  assert.match(await error.innerText(), /^n's step: 0 is not allowed/);
  // An error that names no field lands on the form's own line.
  await setParam(page, 'n', 'range', { from: 32, to: 32768, amount: 32 });
  await page.click('#run-form button[type=submit]');
  await page.waitForFunction(() => /measurements/.test(document.querySelector('fieldset.params > .field-error').textContent));
  assert.equal(await runCount(), count, 'no run was queued');
  await shot(page, 'form-error-1280x800');
  assert.deepEqual(page.errors.filter((e) => !/status of 400/.test(e)), []);
  await page.context().close();
});

test('run_again_prefills_the_form', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/${sweepId}`);
  await page.waitForSelector('#table td[data-median-ms]');
  await Promise.all([page.waitForURL(/\/\?again=/), page.click('#again')]);
  await page.waitForFunction(() => document.getElementById('f-label') && document.getElementById('f-label').value !== '');
  assert.equal(await page.locator('#f-experiment').inputValue(), 'transpose');
  assert.equal(await page.locator('#f-label').inputValue(), 'sweep from the form');
  assert.equal(await page.locator('#f-repeat').inputValue(), '3');
  const row = page.locator('.param[data-param="n"]');
  assert.equal(await row.locator('select.mode').inputValue(), 'range');
  assert.equal(await row.locator('[name="params.n.to"]').inputValue(), '1536');
  assert.equal(await row.locator('[name="params.n.amount"]').inputValue(), '256');
  // Change it and queue: a second sweep to compare with.
  await page.fill('#f-label', 'second sweep');
  await page.locator('input[name=variant][value=copy]').uncheck();
  await Promise.all([page.waitForURL(/\/runs\/\d+$/), page.click('#run-form button[type=submit]')]);
  otherId = Number(page.url().match(/\/runs\/(\d+)$/)[1]);
  const run = await lab.waitDone(otherId);
  assert.deepEqual(run.request.variants, ['naive', 'tiled', 'padded', 'diagonal']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compares_two_runs_selected_on_the_home_page', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/`);
  await page.waitForSelector(`#runs tr[data-run="${sweepId}"]`);
  await page.check(`#runs tr[data-run="${sweepId}"] input[type=checkbox]`);
  await page.check(`#runs tr[data-run="${otherId}"] input[type=checkbox]`);
  await Promise.all([page.waitForURL(/\/compare\?runs=/), page.click('#compare')]);
  assert.match(page.url(), new RegExp(`/compare\\?runs=${sweepId},${otherId}$`));
  await page.waitForSelector('#table td[data-median-ms]');
  assert.equal(await page.locator('#table thead th[data-run]').count(), 2, 'one column per run');
  // Where both runs measured a row, the second shows the server's verdict on
  // it against the first (GET /api/compare, whose values compare.test.mjs
  // fixes), and the star where the server names a fastest.
  const both = await page.$$eval('#table tbody tr', (rows) => rows.filter((r) => r.querySelectorAll('td[data-median-ms]').length === 2).length);
  assert.ok(both >= 24, `rows measured by both runs: ${both}`);
  const judged = await page.$$eval(`#table td[data-run="${otherId}"][data-verdict]`, (tds) => tds.map((td) => ({
    verdict: td.dataset.verdict, text: td.innerText, median: Number(td.dataset.medianMs), row: td.parentElement.innerText,
  })));
  assert.equal(judged.length, both, 'every shared row has a verdict');
  const table = (await lab.get(`/api/compare?runs=${sweepId},${otherId}`)).json;
  const b = (await lab.get(`/api/runs/${otherId}`)).json;
  for (const j of judged) {
    const r = b.results.find((x) => x.median_ms === j.median);
    const row = table.rows.find((x) => x.variant === r.variant && JSON.stringify(x.params) === JSON.stringify(r.params));
    const want = row.cells.find((c) => c.run === otherId).verdict;
    assert.equal(j.verdict, want, j.row);
    assert.match(j.text, want === 'same' ? /time, same within noise/ : new RegExp(`time, ${want}`));
  }
  assert.equal(await page.locator('#table td.fastest').count(), table.rows.filter((r) => r.fastest !== null).length);
  const first = (await page.locator('#table tbody tr th').allInnerTexts()).slice(0, 6);
  assert.deepEqual(first, Array(6).fill('tile copy'), 'rows grouped by kernel, as in the seeds\' tables');
  assert.ok(await paintedPixels(page, '#chart') > 2000, 'the overlay is painted');
  await shot(page, 'compare-1280x800');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('copy_link_puts_the_share_url_on_the_clipboard', async () => {
  const page = await openPage(browser);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: lab.base });
  await page.goto(`${lab.base}/runs/${sweepId}`);
  await page.waitForSelector('#table td[data-median-ms]');
  await page.click('#copy-link');
  await page.waitForFunction(() => document.getElementById('copied').textContent !== '');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${lab.base}/runs/${sweepId}`);
  await page.context().close();
});

test('banks_page_sets_slowdown_beside_the_predicted_degree', async () => {
  const id = (await lab.post('/api/runs', { experiment: 'banks', params: { c: [1, 2, 4, 8, 16, 32, 33], local: 64, groups: 8, iters: 64 }, repeat: 2 })).json.id;
  await lab.waitDone(id);
  // The cells' model figures come once the server has predicted every
  // point, which a busy machine takes a while to do.
  await lab.waitRun(id, (r) => !r.predictions_pending);
  const page = await openPage(browser, { width: 1920, height: 1080 });
  await page.goto(`${lab.base}/runs/${id}`);
  await page.waitForSelector('#model:not([hidden])');
  assert.match(await page.locator('#model-title').innerText(), /beside the slowdown the model predicts/);
  assert.ok(await paintedPixels(page, '#model-chart') > 2000);
  await page.check('#show-detail');
  assert.match(await page.locator('#table').innerText(), /× c=1/);
  assert.match(await page.locator('#table').innerText(), /model: .*32-way/, 'stride 32: the predicted degree in its cell');
  assert.match(await page.locator('#accesses').innerText(), /s\[lid0\*c \+ it % 32\]/, 'the declared index');
  await shot(page, 'run-banks-1920x1080');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Every departure beyond 2x of run, as the server lists it (one entry per
// variant, direction and sentence) and as the page shows it: each departing
// point in one entry, every sentence naming no cause — the model does not
// explain a point it misses by that much (analysis/model_trust.h), at any
// point of a sweep or variant of a family.
async function saysNoCause(page, run, x) {
  const departing = run.results.filter((r) => r.prediction && r.prediction.departure && r.verified !== false);
  const listed = run.departures.flatMap((d) => d.at.map((v) => `${d.variant} ${d.direction} ${v}`)).sort();
  assert.deepEqual(listed, departing.map((r) => `${r.variant} ${r.prediction.ratio > 1 ? 'faster' : 'slower'} ${r.params[x]}`).sort());
  const sentences = await page.$$eval('#departure-list li', (xs) => xs.map((li) => li.textContent));
  assert.equal(sentences.length, run.departures.length);
  for (const s of sentences) assert.match(s, new RegExp(`at ${x} = .*: Measured [\\d.]+(–[\\d.]+)?× (faster|slower) than predicted: the model does not explain (this point|these points) and names no cause`));
  assert.equal(await page.locator('#departures').isHidden(), departing.length === 0);
}

test('run_page_sets_the_prediction_beside_the_measurement', async () => {
  // A copy run first: the device's ceiling that both curves are shares of.
  await lab.waitDone((await lab.post('/api/runs', { experiment: 'copy', params: { n: 1048576 }, repeat: 2 })).json.id);
  const strided = (await lab.post('/api/runs', { experiment: 'strided', params: { stride: [1, 2, 4, 8, 16, 32], n: 65536 }, repeat: 2 })).json.id;
  const transpose = (await lab.post('/api/runs', { experiment: 'transpose', params: { n: [64, 128] }, repeat: 2 })).json.id;
  const run = await lab.waitDone(strided);
  await lab.waitDone(transpose);
  const page = await openPage(browser, { width: 1280, height: 900 });
  await page.goto(`${lab.base}/runs/${strided}`);
  await page.waitForSelector('#model:not([hidden])');
  assert.match(await page.locator('#model-title').innerText(), /% of the copy ceiling vs stride/);
  assert.ok(await paintedPixels(page, '#model-chart') > 2000, 'both curves drawn');
  // Each cell carries the model's figures: stride 8 reads 32 sectors for 4 useful bytes each.
  const cells = await page.$$eval('#table td[data-variant] .predicted', (xs) => xs.map((x) => [x.textContent, x.dataset.efficiency]));
  assert.equal(cells.length, 6);
  // The model's time as a share of copy, then the sectors, then the binding ceiling.
  assert.match(cells[3][0], /^model: [\d.]+% of copy · 32 sectors\/req · (DRAM|last-level cache|local memory|latency|barriers)-bound/);
  assert.equal(Number(cells[0][1]), 1, 'stride 1 coalesces');
  assert.match(await page.locator('#accesses').innerText(), /a\[gid0\*stride\]/);
  // The run on the device's ceilings: a curve per ceiling, and which binds where.
  await page.waitForSelector('#ceilings:not([hidden])');
  assert.ok(await paintedPixels(page, '#ceilings-chart') > 2000, 'the ceilings drawn');
  assert.match(await page.locator('#ceilings-binding').innerText(), /^Binding ceiling: (DRAM|last-level cache|local memory|latency|barriers) at stride = /);
  const bindings = new Set(run.results.filter((r) => r.variant === 'stride').map((r) => r.prediction.binding));
  for (const b of bindings) assert.match(await page.locator('#ceilings-binding').innerText(), new RegExp({ dram: 'DRAM', cache: 'last-level cache', local: 'local memory', latency: 'latency', barrier: 'barriers' }[b]));
  // Every departure beyond 2x is said once per variant and direction, and claims no cause: the model does
  // not explain a point it misses by that much (analysis/model_trust.h).
  await saysNoCause(page, run, 'stride');
  await shot(page, 'run-strided-model-1280x900');
  // The transpose: naive's writes explained by their 32 sectors per request, the tile's 32-way read.
  await page.goto(`${lab.base}/runs/${transpose}`);
  await page.waitForSelector('#accesses');
  const rows = await page.$$eval('#accesses tbody tr', (xs) => xs.map((x) => [x.dataset.variant, ...[...x.cells].map((c) => c.textContent)]));
  const naiveWrite = rows.find((r) => r[0] === 'naive' && r[2] === 'global store');
  assert.equal(naiveWrite[4], '32', 'naive: 32 sectors per write request');
  const tiledRead = rows.find((r) => r[0] === 'tiled' && r[2] === 'local load');
  assert.equal(tiledRead[7], '32-way');
  assert.equal(rows.find((r) => r[0] === 'padded' && r[2] === 'local load')[7], '1-way');
  // Another variant's ceilings, drawn in place: the tiled one's measured
  // rates, and (PoCL's CPU has no banks) no local-memory ceiling.
  const trun = (await lab.get(`/api/runs/${transpose}`)).json;
  await page.selectOption('#ceilings-variant', 'tiled');
  const drawn = await page.evaluate(() => window.Chart.getChart('ceilings-chart').data.datasets.map((d) => [d.label, d.data.map((p) => p.y)]));
  const tiledRates = trun.results.filter((r) => r.variant === 'tiled').sort((a, b) => a.params.n - b.params.n).map((r) => r.gbps);
  assert.deepEqual(drawn[0], ['measured', tiledRates]);
  assert.ok(drawn.some(([label]) => label === 'DRAM alone') && !drawn.some(([label]) => label === 'local memory alone'),
    drawn.map(([label]) => label).join(', '));
  const tiledBindings = new Set(trun.results.filter((r) => r.variant === 'tiled').map((r) => r.prediction.binding));
  const text = await page.locator('#ceilings-binding').innerText();
  for (const b of tiledBindings) assert.match(text, new RegExp({ dram: 'DRAM', cache: 'last-level cache', local: 'local memory', latency: 'latency', barrier: 'barriers' }[b]));
  // The family as the sweep: one rule, no cause named beyond 2x.
  await saysNoCause(page, trun, 'n');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('runs_page_filters_by_label_and_pages_through_the_address', async () => {
  const ids = [];
  for (const label of ['camping A', 'camping B', 'camping C', 'other'])
    ids.push((await lab.post('/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 1, label })).json.id);
  const page = await openPage(browser);
  await page.goto(`${lab.base}/`);
  await page.click('#all-runs');
  await page.waitForSelector('#runs tbody tr[data-run]');
  assert.equal(new URL(page.url()).pathname, '/runs');
  await page.fill('#f-label', 'CAMPING');
  await page.selectOption('#f-experiment', 'copy');
  await page.click('#filters button[type="submit"]');
  await page.waitForURL(/label=CAMPING/);
  await page.waitForSelector('#runs tbody tr[data-run]');
  const shown = await page.locator('#runs tbody tr[data-run]').evaluateAll((rows) => rows.map((r) => Number(r.dataset.run)));
  assert.deepEqual(shown, [ids[2], ids[1], ids[0]], 'only the labelled copy runs, newest first');
  assert.equal(await page.locator('#f-experiment').inputValue(), 'copy', 'the filters show what is applied');
  // A page of one at a time, as a long history would be paged.
  await page.goto(`${lab.base}/runs?label=camping&experiment=copy&before=${ids[2]}`);
  await page.waitForSelector('#runs tbody tr[data-run]');
  assert.equal(await page.locator('#newest').isVisible(), true);
  const second = await page.locator('#runs tbody tr[data-run]').evaluateAll((rows) => rows.map((r) => Number(r.dataset.run)));
  assert.deepEqual(second, [ids[1], ids[0]]);
  await shot(page, 'runs-filtered');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a_time_column_reads_in_one_unit_and_no_rate_in_exponents', async () => {
  // On PoCL a copy of 4 Ki floats takes microseconds and one of 4 Mi floats
  // milliseconds: both in each variant's column.
  const id = (await lab.post('/api/runs', { experiment: 'copy', params: { n: [4096, 4194304] }, repeat: 3, cache: 'hot' })).json.id;
  const run = await lab.waitDone(id);
  assert.ok(run.results.some((r) => r.median_ms < 1) || run.results.some((r) => r.median_ms >= 1), 'the points differ');
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/${id}`);
  await page.waitForSelector('#table td[data-median-ms]');
  await page.check('#show-detail');
  const columns = await page.locator('#table td[data-median-ms]').evaluateAll((tds) => tds.map((td) => ({
    variant: td.dataset.variant, text: td.querySelector('.time').textContent.replace(/ ±.*/, ''), all: td.innerText,
  })));
  const byVariant = new Map();
  for (const c of columns) byVariant.set(c.variant, [...(byVariant.get(c.variant) || []), c]);
  for (const [variant, cells] of byVariant) {
    const units = new Set(cells.map((c) => c.text.trim().split(' ').pop()));
    assert.equal(units.size, 1, `${variant}: one unit per column, saw ${[...units].join(', ')}`);
    assert.ok(['µs', 'ms', 's'].includes([...units][0]));
  }
  for (const c of columns) assert.doesNotMatch(c.all, /\d[eE][+-]?\d/, `no exponent: ${c.all}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('unknown_run_gets_the_404_page', async () => {
  const page = await openPage(browser);
  const res = await page.goto(`${lab.base}/runs/987654`);
  assert.equal(res.status(), 404);
  assert.match(await page.locator('h1').innerText(), /Not found/);
  await page.context().close();
});

test('failed_points_and_empty_runs_render', async () => {
  // A run with no results yet (no runner to take it) and one cancelled empty.
  await lab.stop(lab.runner);
  const posted = (await lab.post('/api/runs', { experiment: 'dot', params: { n: 65536, items: 1024, local: 128 } })).json;
  const queued = posted.id;
  assert.match(posted.warning, /no online device can run it/);
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/${queued}`);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'queued');
  assert.match(await page.locator('#table').innerText(), /Waiting for a runner/);
  // The status line says why it waits, in the server's words.
  await page.waitForSelector('#banner:not([hidden])', { timeout: 15000 });
  assert.equal(await page.locator('#banner').innerText(), `This run waits: ${posted.warning}.`);
  await lab.post(`/api/runs/${queued}/cancel`);
  await page.goto(`${lab.base}/runs/${queued}`);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'cancelled');
  assert.match(await page.locator('#table').innerText(), /no results/);
  // The home page says no runner is online.
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#banner:not([hidden])');
  assert.match(await page.locator('#banner').innerText(), /No runner is online/);
  await shot(page, 'home-no-runner-1280x800');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('idle_page_backs_off_instead_of_storming', async () => {
  // Nothing queued or running: polls space out (2, 4, 8, 16 s...). The page's
  // clock is Playwright's, run forward 12 s at once: what is counted is the
  // page's timers, not this machine's speed.
  const page = await openPage(browser);
  await page.clock.install();
  const api = [];
  page.on('request', (r) => { if (r.url().includes('/api/runs?') || r.url().includes('/api/devices')) api.push(r.url()); });
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#runs tr[data-run]');
  const loaded = api.length;
  await page.clock.runFor(12000);
  await page.waitForLoadState('networkidle');
  // The first load and at most three refreshes (each of the list and the
  // devices) and the devices' 30 s look, in 12 s.
  assert.ok(loaded >= 2, `${loaded} API requests to load`);
  assert.ok(api.length - loaded <= 8, `${api.length - loaded} API requests in 12 s of idling`);
  await page.context().close();
});

test('banner_says_when_the_server_cannot_be_reached', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#runs tr[data-run]');
  await lab.stop(lab.server);
  await page.waitForFunction(() => /cannot be reached/.test(document.getElementById('banner').textContent), null, { timeout: 20000 });
  assert.equal(await page.locator('#banner').isVisible(), true);
  await page.context().close();
});
