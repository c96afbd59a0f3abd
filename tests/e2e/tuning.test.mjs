// A tuning run's page in a real browser, against the real server and runner
// on PoCL: at 1440 and at 390 px the "Tuning" block sits right under the
// verdict, in the first screen, and says what the server said — the fastest
// configuration, how the model's ranking held and why it wins — with the
// space measured as a chart and its numbers as a table; axe finds nothing
// serious and the page logs no error.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { axeSerious, launch, openPage, shot } from './browser.mjs';

const lab = new Lab('e2e-tuning');
let browser;
let run;

before(async () => {
  await lab.startServer();
  await lab.startRunner();
  browser = await launch();
  run = await lab.postDone({
    experiment: 'transpose', variants: ['tiled', 'padded'], repeat: 3,
    params: { n: 256, tile: [8, 16, 32], rows: [1, 2, 4, 8, 16] },
    restrict: ['tile * rows <= 128'], tune: { params: ['tile', 'rows'], strategy: 'model', budget: 4 },
  });
  // The reason waits for the model's figures of each result.
  run = await lab.waitRun(run.id, (r) => !r.predictions_pending);
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`tuning_block_says_the_fastest_in_the_first_screen_at_${width}`, async () => {
    const page = await openPage(browser, { width, height });
    await page.goto(`${lab.base}/runs/${run.id}`);
    const box = page.locator('#tuning');
    await box.waitFor({ state: 'visible' });
    await shot(page, `tuning-${width}`);
    const sentence = run.tuning.sizes[0].sentence;
    assert.match(sentence, /^At n = 256 the fastest of 4 configurations measured is (tiled|padded) with tile = \d+, rows = \d+: /);
    assert.match(sentence, /The model ranked the space and chose these; the one it ranked first/);
    const size = run.tuning.sizes[0];
    assert.equal(sentence, `${size.best_sentence} ${size.model_sentence}`);
    assert.equal((await box.locator('.tuning-sentence').innerText()).trim(), size.best_sentence);
    assert.equal((await box.locator('.tuning-model').innerText()).trim(), size.model_sentence);
    assert.match(size.why, /^Against tile = \d+, rows = \d+ \((tiled|padded), [\d.]+ ms\): /);
    assert.equal((await box.locator('.tuning-why').innerText()).trim(), `Why it wins. ${size.why}`);
    const why = await box.locator('.tuning-why').evaluate((e) => e.getBoundingClientRect().bottom);
    assert.ok(why < height, `the reason ends at ${why} px, below the first ${height}`);
    // The space: a chart, and a table row per configuration measured.
    assert.equal(size.space.length, 4);
    assert.equal(await box.locator('canvas').count(), 1);
    assert.deepEqual(await box.locator('table tbody th').allTextContents(), size.space.map((c) => c.label));
    // "Run again with the best" links to the form.
    const best = box.locator('#again-best');
    assert.equal(await best.getAttribute('href'), `/?again=${run.id}&best=1#queue`);
    assert.match(await box.locator('.tuning-summary').innerText(), /tile × rows tuned, 15 configurations at each size; measured: the model's best 4 of each size\./);
    // The whole space the model ranked, as CSV.
    const space = box.locator('#tuning-space-csv');
    assert.equal(await space.getAttribute('href'), `/api/runs/${run.id}/space.csv`);
    const csv = await page.evaluate(async (href) => (await fetch(href)).text(), await space.getAttribute('href'));
    assert.equal(csv.trim().split(/\r\n/).length, 1 + run.request.tune.ranked);
    const top = await box.evaluate((e) => e.getBoundingClientRect().top);
    assert.ok(top < height, `the block starts at ${top} px, below the first ${height}`);
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `the page scrolls sideways: ${wide} px`);
    assert.deepEqual(await axeSerious(page), []);
    assert.deepEqual(page.errors, []);
    // "Run again with the best" fills the run form with the best's values.
    if (width === 1440) {
      await best.click();
      await page.waitForFunction((v) => document.querySelector('input[name="params.tile.value"]')?.value === String(v), size.best.config.tile);
      assert.equal(await page.locator('input[name="params.rows.value"]').inputValue(), String(size.best.config.rows));
      assert.equal(await page.locator('#p-tile-mode').inputValue(), 'value');
    }
    await page.context().close();
  });
}
