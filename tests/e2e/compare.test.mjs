// The compare page shows the server's verdicts, whatever they are: three runs
// of fixed figures (tests/fixtures/compare-runs.jsonl, the values
// compare.test.mjs asserts of the API) read "faster", "slower" and "same
// within noise" in their cells, and the star stands where the server names a
// fastest — with no runner, so nothing here depends on a machine's noise.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage } from './browser.mjs';

const lab = new Lab('e2e-compare');
let browser;

before(async () => {
  lab.importStore('tests/fixtures/compare-runs.jsonl');
  await lab.startServer();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

test('compare_page_shows_the_servers_verdicts_and_star', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/compare?runs=1,2,3`);
  await page.waitForSelector('#table td[data-median-ms]');
  const cells = await page.$$eval('#table tbody tr', (rows) => rows.map((tr) => [
    tr.querySelector('th').innerText.trim(), tr.querySelectorAll('td')[0].innerText.trim(),
    [...tr.querySelectorAll('td[data-run]')].map((td) => [Number(td.dataset.run), td.dataset.verdict || null,
      td.classList.contains('fastest'), (td.querySelector('.verdict') || { innerText: '' }).innerText]),
  ]));
  const byPoint = Object.fromEntries(cells.map(([, point, tds], i) => [`${i}:${point}`, tds]));
  const rows = Object.values(byPoint);
  assert.equal(rows.length, 4, JSON.stringify(cells));
  // Rows grouped by kernel in catalog order: float (n = 1024, 2048), then float4.
  assert.deepEqual(rows[0], [[1, null, false, ''], [2, 'faster', true, '−50% time, faster'], [3, 'same', false, '+0% time, same within noise']]);
  assert.deepEqual(rows[1], [[1, null, false, ''], [2, 'same', false, '+0.50% time, same within noise'], [3, null, false, '']]);
  assert.deepEqual(rows[2], [[1, null, false, ''], [2, 'slower', false, '+100% time, slower'], [3, 'same', false, '+0.50% time, same within noise']]);
  assert.deepEqual(rows[3], [[1, null, true, ''], [2, 'same', false, 'same within noise']]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compare_page_names_runs_that_do_not_exist', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/compare?runs=1,77`);
  await page.waitForSelector('#table td[data-median-ms]');
  assert.match(await page.locator('#banner').innerText(), /No such run: #77/);
  assert.equal(await page.locator('#table thead th[data-run]').count(), 1);
  await page.context().close();
});
