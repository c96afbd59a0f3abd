// The hardware's count on the run page, from two CUDA runs recorded on the
// H100 (tests/fixtures/h100-cuda-runs.jsonl: the copies at 64 Mi floats and
// the reductions at 64 Mi, driver 580.159.04, counters read with CUPTI's
// range profiler): each cell says what was counted, the model section sets
// counted beside predicted for every variant, and the one figure the model
// gets wrong (the interleaved reduction's conflict degree at 256 work-items)
// is flagged as the model's error; at 1440 px the tables fit without
// scrolling. With no runner: nothing here needs a GPU.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage, shot } from './browser.mjs';

const lab = new Lab('e2e-counted');
// The same runs as a lab sees them just after the copy run is done: the
// float variant's counters still waiting for the runner's idle time.
const waiting = new Lab('e2e-counted-waiting');
let browser;

function fixtureWithCountersComing() {
  const lines = readFileSync('tests/fixtures/h100-cuda-runs.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  for (const { table, row } of lines) {
    if (table === 'runs' && row.id === 1) row.explain = 'pending';
    if (table === 'results' && row.run_id === 1 && row.variant === 'float') row.extra = JSON.stringify({ counters_pending: true });
  }
  mkdirSync('tests/out', { recursive: true });
  writeFileSync('tests/out/h100-cuda-counters-coming.jsonl', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return 'tests/out/h100-cuda-counters-coming.jsonl';
}

before(async () => {
  lab.importStore('tests/fixtures/h100-cuda-runs.jsonl');
  waiting.importStore(fixtureWithCountersComing());
  await lab.startServer();
  await waiting.startServer();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
  await waiting.close();
});

test('the_api_sets_counted_beside_predicted', async () => {
  // The predictions are made in the server's background the first time a
  // run is read: the run says when they are all in.
  const copy = await lab.waitSettled(1);
  assert.equal(copy.request.language, 'cuda');
  const byVariant = Object.fromEntries(copy.results.map((r) => [r.variant, r.counted]));
  // float, float2, float4: 4, 8 and 16 sectors per request, as predicted.
  assert.equal(byVariant.float.load_sectors_per_request, 4);
  assert.equal(byVariant.float2.load_sectors_per_request, 8);
  assert.equal(byVariant.float4.store_sectors_per_request, 16);
  for (const c of Object.values(byVariant)) {
    assert.deepEqual(c.model_differs, []);
    assert.equal(c.predicted.load_sectors_per_request, c.load_sectors_per_request);
  }
  const red = await lab.waitSettled(6);
  const inter = red.results.find((r) => r.variant === 'interleaved' && r.params.local === 256).counted;
  assert.match(inter.model_differs[0], /^local-memory conflict degree of loads: counted 3\.\d+, predicted 3\.92 — the model's error/);
  const seq = red.results.find((r) => r.variant === 'sequential' && r.params.local === 256).counted;
  assert.deepEqual(seq.model_differs, [], 'sequential addressing: no conflicts, counted and predicted');
});

test('the_page_shows_counted_in_each_cell_and_flags_the_model', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/6`);
  await page.waitForSelector('#counted tbody tr', { state: 'attached' });
  const cells = await page.locator('td .sub.counted').allTextContents();
  assert.ok(cells.length >= 8 && cells.every((t) => t.startsWith('counted: ')), cells.join(' | '));
  assert.ok(cells.some((t) => t.endsWith('⚠ model')), 'the differing figure is marked');
  const rows = await page.$$eval('#counted tbody tr', (trs) => trs.map((tr) => [tr.dataset.variant, tr.className, tr.lastElementChild.textContent]));
  const inter = rows.find((r) => r[0] === 'interleaved');
  assert.equal(inter[1], 'disagrees');
  assert.match(inter[2], /the model's error/);
  assert.equal(rows.find((r) => r[0] === 'grid_stride')[2], 'agree');
  await page.locator('#counted').scrollIntoViewIfNeeded();
  await shot(page, 'counted-reduction');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// On a desktop the model's tables are read whole: their headers and words
// wrap, and neither the counted nor the accesses table scrolls in its box.
test('the_counted_and_accesses_tables_fit_a_desktop', async () => {
  for (const id of [1, 6]) {
    const page = await openPage(browser, { width: 1440, height: 900 });
    await page.goto(`${lab.base}/runs/${id}`);
    await page.waitForSelector('#counted tbody tr', { state: 'attached' });
    await page.waitForSelector('#accesses tbody tr', { state: 'attached' });
    const boxes = await page.evaluate(() => ['counted', 'accesses'].map((t) => {
      const box = document.getElementById(t).parentElement;
      return [t, box.scrollWidth, box.clientWidth];
    }));
    assert.ok(boxes.every(([, , client]) => client > 1000), `run ${id}: each table shown: ${JSON.stringify(boxes)}`);
    assert.deepEqual(boxes.filter(([, scroll, client]) => scroll > client), [], `run ${id}: [table, its width, its box's]`);
    await page.context().close();
  }
});

test('counters_still_coming_are_said_in_the_api_and_on_the_page', async () => {
  const run = (await waiting.get('/api/runs/1')).json;
  assert.equal(run.explain, 'pending');
  const float = run.results.filter((r) => r.variant === 'float');
  assert.ok(float.length > 0 && float.every((r) => r.counted && r.counted.pending === true), JSON.stringify(float.map((r) => r.counted)));
  assert.equal(run.counters_pending, float.length);
  assert.ok(run.results.filter((r) => r.variant !== 'float').every((r) => r.counted && r.counted.load_sectors_per_request > 0));
  const page = await openPage(browser);
  await page.goto(`${waiting.base}/runs/1`);
  await page.waitForSelector('td .sub.counted', { state: 'attached' });
  assert.match(await page.locator('#explain').textContent(), /hardware counters are read in the runner's idle time/);
  const cells = await page.locator('td .sub.counted').allTextContents();
  assert.equal(cells.filter((t) => t.startsWith('counters coming')).length, float.length, cells.join(' | '));
  const rows = await page.$$eval('#counted tbody tr', (trs) => trs.map((tr) => tr.dataset.variant));
  assert.ok(!rows.includes('float') && rows.includes('float4'), `the counted table waits for float: ${rows}`);
  assert.deepEqual(page.errors, []);
});
