// "Your own experiment" in a real browser, against the real server and
// runner on PoCL: the SAXPY source pasted is read by the server into a
// draft (two variants, x and y as buffers, a as a scalar, the arguments in
// order); what the draft cannot know is fixed in its tables (y is read as
// well as written, vec4 runs a quarter of the work-items); a count the
// server refuses is shown under its row, next to its input, and nothing is
// queued; queued, the page lands on the run, titled from the definition,
// with its kernels in the Source section; "Run again" brings the definition
// back into the form, what the form has no place for kept as it was. A run that checks nothing says "not checked" and
// charts its times. At 1440×900 and 390×844 the open form scrolls no
// sideways and axe finds nothing serious or critical.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from '../integration/harness.mjs';
import { axeSerious, launch, openPage, shot } from './browser.mjs';

const SAXPY = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/own/saxpy.json'), 'utf8'));
const TITLE = 'SAXPY, scalar against float4';
const SIZES = [{ width: 1440, height: 900 }, { width: 390, height: 844 }];

// What is wrong with the page as it shows now: a width past the window's,
// and axe's serious and critical violations.
async function audit(page) {
  const wrong = [];
  const [scrolls, fits] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if (scrolls > fits) wrong.push(`the page scrolls sideways to ${scrolls} px`);
  for (const v of await axeSerious(page)) wrong.push(`axe ${v.impact} ${v.id} ×${v.count}: ${v.nodes.join(' | ')}`);
  return wrong;
}

const lab = new Lab('e2e-own');
let browser;
let runId;

before(async () => {
  await lab.startServer();
  await lab.startRunner();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

// The home page with the section open and the SAXPY source read into a draft.
async function draftPage(size) {
  const page = await openPage(browser, size);
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#own-form', { state: 'attached' });
  // Opened from the keyboard: the estimate of the lesson form above may still
  // grow the page, and a pointer click could land beside the summary.
  await page.focus('#own-details > summary');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#own-form textarea', { state: 'visible' });
  await page.fill('#own-form textarea', SAXPY.experiment.source);
  await page.click('#own-form button.read');
  await page.waitForSelector('#own-form .draft:not([hidden])');
  return page;
}

const cell = (page, table, row, key) => page.locator(`#own-form [data-field="experiment.${table}[${row}]"] [data-key="${key}"]`);
const column = (page, table, key) => page.$$eval(`#own-form tr[data-field^="experiment.${table}["] [data-key="${key}"]`, (inputs) => inputs.map((i) => i.value));

test('pastes_saxpy_fixes_the_draft_and_queues_it_from_the_page', async () => {
  const page = await draftPage({ width: 1440, height: 900 });
  // The draft, as the server read the signatures.
  assert.match(await page.locator('#own-form .scan-said').innerText(), /^2 kernels: saxpy \(4 parameters\), saxpy4 \(4 parameters\)/);
  assert.deepEqual(await column(page, 'variants', 'id'), ['saxpy', 'saxpy4']);
  assert.deepEqual(await column(page, 'variants', 'kernel'), ['saxpy', 'saxpy4']);
  assert.deepEqual(await column(page, 'buffers', 'name'), ['x', 'y']);
  assert.deepEqual(await column(page, 'buffers', 'init'), ['random', '']);
  assert.deepEqual(await column(page, 'scalars', 'name'), ['a']);
  assert.deepEqual(await column(page, 'host.args', 'value'), ['n', 'a', 'x', 'y']);
  assert.match(await page.locator('#own-form tr[data-field="experiment.host.args[2]"] td.info').innerText(), /^x: __global const float \*$/);
  assert.equal(await page.inputValue('#own-against'), 'saxpy');

  // What a signature cannot say: y is read too, vec4 covers n/4 items.
  await page.fill('#own-title', TITLE);
  await cell(page, 'variants', 1, 'id').fill('vec4');
  await cell(page, 'variants', 0, 'id').fill('scalar');
  await cell(page, 'variants', 1, 'global').fill('n/4');
  await cell(page, 'buffers', 1, 'init').fill('random');
  await cell(page, 'scalars', 0, 'value').fill('2.5');
  await cell(page, 'params', 0, 'sweep').fill('65536, 131072');
  await page.selectOption('#own-device', 'cpu');
  await page.fill('#own-repeat', '3');
  await page.waitForFunction(() => /^2 points × 2 variants = 4 measurements/.test(document.querySelector('#own-form .cost-text').textContent));
  assert.equal(await page.inputValue('#own-against'), 'scalar', 'the check follows the variant renamed');

  // A count the server refuses: shown under buffer 1's row, beside its input.
  await cell(page, 'buffers', 0, 'count').fill('n*n*n*n');
  await page.click('#own-form button[type=submit]');
  const error = page.locator('#own-form tr[data-field="experiment.buffers[0]"] + tr.row-error .field-error');
  await error.waitFor();
  assert.match(await error.innerText(), /^buffer 1's count: buffer 'x' of 'n\*n\*n\*n' elements: the value overflows 64 bits at n=65536/);
  assert.equal(await cell(page, 'buffers', 0, 'count').getAttribute('aria-invalid'), 'true');
  assert.equal((await lab.get('/api/runs')).json.runs.length, 0, 'nothing was queued');
  await shot(page, 'own-experiment-error');

  await cell(page, 'buffers', 0, 'count').fill('n');
  await Promise.all([page.waitForURL(/\/runs\/\d+$/), page.click('#own-form button[type=submit]')]);
  runId = Number(page.url().match(/\/runs\/(\d+)$/)[1]);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 120000 });
  const run = (await lab.get(`/api/runs/${runId}`)).json;
  const def = run.request.definition;
  assert.equal(def.title, TITLE);
  assert.deepEqual(def.buffers, [{ name: 'x', type: 'float', count: 'n', init: 'random' }, { name: 'y', type: 'float', count: 'n', init: 'random', output: true }]);
  assert.deepEqual(def.variants, [{ id: 'scalar', kernel: 'saxpy' }, { id: 'vec4', kernel: 'saxpy4', host: { global: ['n/4'] } }]);
  assert.deepEqual(def.check, { against: 'scalar', rel: 1e-6 });
  assert.equal(run.results.length, 4);
  for (const r of run.results) assert.equal(r.verified, true, `${r.variant} ${JSON.stringify(r.params)}: ${r.error}`);
  // The page: titled from the definition, its results, its own kernels.
  assert.equal(await page.locator('#title').innerText(), `Run #${runId}: ${TITLE}`);
  assert.equal(await page.locator('#table td[data-median-ms]').count(), 4);
  assert.match(await page.locator('#table-note').innerText(), /✓ matched scalar's outputs/);
  await page.waitForSelector('#sources .source-panel[data-variant="vec4"]');
  assert.match(await page.locator('#sources-note').innerText(), /this experiment's own source/);
  assert.match(await page.locator('#sources .source-panel[data-variant="vec4"] summary').innerText(), /saxpy4, line 2/);
  assert.deepEqual(page.errors.filter((e) => !/status of 400/.test(e)), []);
  await page.context().close();
});

test('run_again_fills_the_form_from_the_definition', async () => {
  const page = await openPage(browser, { width: 1440, height: 900 });
  await page.goto(`${lab.base}/runs/${runId}`);
  await Promise.all([page.waitForURL(/\?again=\d+#own$/), page.click('#again')]);
  await page.waitForSelector('#own-form .draft:not([hidden])');
  assert.equal(await page.locator('#own-details').getAttribute('open'), '');
  assert.equal(await page.inputValue('#own-title'), TITLE);
  assert.deepEqual(await column(page, 'variants', 'id'), ['scalar', 'vec4']);
  assert.deepEqual(await column(page, 'variants', 'global'), ['', 'n/4']);
  assert.deepEqual(await column(page, 'buffers', 'init'), ['random', 'random']);
  assert.deepEqual(await column(page, 'params', 'sweep'), ['65536, 131072', '256'], 'the stored request\'s values, its defaults written in');
  assert.equal(await page.inputValue('#own-repeat'), '3');
  // The kernels were read again for the arguments' notes, the tables kept.
  await page.waitForFunction(() => /x: __global const float/.test(document.querySelector('#own-form tr[data-field="experiment.host.args[2]"] td.info').textContent));
  await page.waitForFunction(() => /^2 points × 2 variants = 4 measurements/.test(document.querySelector('#own-form .cost-text').textContent));
  assert.deepEqual(page.errors, []);
  await page.context().close();

  // What the form has no place for is kept and said: the SpMV's vector
  // variant has a work-group of its own.
  const spmv = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/own/spmv.json'), 'utf8'));
  const id = (await lab.post('/api/runs', { ...spmv, device: 'cpu' })).json.id;
  const again = await openPage(browser, { width: 1440, height: 900 });
  await again.goto(`${lab.base}/?again=${id}`);
  await again.waitForSelector('#own-form .draft:not([hidden])');
  assert.match(await again.locator('#own-form .kept').innerText(), /^Kept as the definition has them, and sent again: vector's host\.local\.$/);
  await Promise.all([again.waitForURL(/\/runs\/\d+$/), again.click('#own-form button[type=submit]')]);
  const rerun = (await lab.get(again.url().replace(/^.*\/runs\//, '/api/runs/'))).json;
  assert.deepEqual(rerun.request.definition, (await lab.get(`/api/runs/${id}`)).json.request.definition, 'queued again as it was');
  await lab.waitDone(rerun.id);
  await lab.waitDone(id);
  assert.deepEqual(again.errors, []);
  await again.context().close();
});

test('a_run_that_checks_nothing_says_not_checked_and_charts_its_times', async () => {
  const body = { ...SAXPY, params: { n: [65536, 131072] }, repeat: 3, device: 'cpu' };
  body.experiment = { ...SAXPY.experiment, check: 'none' };
  const run = await lab.postDone(body);
  const page = await openPage(browser, { width: 1440, height: 900 });
  await page.goto(`${lab.base}/runs/${run.id}`);
  await page.waitForSelector('#table td[data-median-ms]');
  const marks = await page.$$eval('#table td[data-median-ms] [role="img"]', (m) => m.map((x) => [x.textContent, x.getAttribute('aria-label')]));
  assert.deepEqual(marks, Array(4).fill(['○', 'not checked']));
  assert.equal(await page.locator('#table td.unverified').count(), 0);
  assert.match(await page.locator('#table-note').innerText(), /○ not checked \(this experiment's check is "none"/);
  assert.ok(await page.locator('#problems').isHidden(), 'a time not checked is no problem');
  const points = await page.evaluate(() => window.Chart.getChart('chart').data.datasets.map((d) => d.data.length));
  assert.deepEqual(points, [2, 2], 'every time not checked is charted');
  assert.deepEqual(page.errors, []);
  await page.context().close();
  // The own run's page reads as the others do, on a desktop and a phone.
  for (const size of SIZES) {
    const p = await openPage(browser, size);
    await p.goto(`${lab.base}/runs/${run.id}`);
    await p.waitForSelector('#table td[data-median-ms]');
    await p.waitForSelector('#sources .source-panel');
    assert.deepEqual(await audit(p), [], `${size.width}: the run page`);
    await p.context().close();
  }
});

test('the_open_form_fits_1440_and_390_and_axe_finds_nothing_serious', async () => {
  for (const size of SIZES) {
    const page = await draftPage(size);
    // An error row shown, as a person would see it after a refusal.
    await cell(page, 'buffers', 1, 'count').fill('n*n*n*n');
    await page.click('#own-form button[type=submit]');
    await page.locator('#own-form tr.row-error').waitFor();
    await page.waitForFunction(() => document.querySelector('#own-form .cost-text').textContent !== '');
    assert.deepEqual(await audit(page), [], `${size.width}: the form`);
    await shot(page, `own-experiment-${size.width}`);
    assert.deepEqual(page.errors.filter((e) => !/status of 400/.test(e)), []);
    await page.context().close();
  }
});
