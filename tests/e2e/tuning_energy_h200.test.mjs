// A tuning run searched for time and energy together, on the H200's
// recorded run (tests/fixtures/h200-energy-tuning-runs.jsonl: the
// transpose's 20 tile × rows configurations at n = 8192, three variants,
// each one's joules per launch measured), in a real browser at 1440 and
// 390 px: the server's sentence on the front follows the best in the first
// screen, the space is drawn as time against energy (a scatter, its front
// joined) with every configuration's time and energy in the table, the
// front's configurations marked there; axe finds nothing serious and the
// page logs no error. What is expected is read from the server's JSON and
// the fixture, not written here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from '../integration/harness.mjs';
import { axeSerious, launch, openPage, paintedPixels, shot } from './browser.mjs';

const FIXTURE = 'tests/fixtures/h200-energy-tuning-runs.jsonl';
const lab = new Lab('e2e-tuning-energy');
let browser;
let run;

before(async () => {
  lab.importStore(FIXTURE);
  await lab.startServer();
  browser = await launch();
  run = await lab.waitRun(1, (r) => !r.predictions_pending);
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

test('the_front_is_the_configurations_no_other_beats_on_both', () => {
  // The fixture's own figures: per configuration its fastest verified
  // variant, and the front from them.
  const rows = readFileSync(join(ROOT, FIXTURE), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    .filter((l) => l.table === 'results').map(({ row }) => ({ ...row, params: JSON.parse(row.params), energy: JSON.parse(row.energy) }));
  const fastest = new Map();
  for (const r of rows) {
    const key = `tile = ${r.params.tile}, rows = ${r.params.rows}`;
    if (r.verified && (!fastest.has(key) || r.median_ms < fastest.get(key).median_ms)) fastest.set(key, r);
  }
  const all = [...fastest.entries()].map(([label, r]) => ({ label, ms: r.median_ms, j: r.energy.j_per_launch }));
  const front = all.filter((a) => !all.some((b) => b !== a && b.ms <= a.ms && b.j < a.j)).sort((a, b) => a.ms - b.ms);
  const size = run.tuning.sizes[0];
  assert.ok(front.length >= 1 && front.length < all.length, `a front of ${front.length} of ${all.length}`);
  assert.deepEqual(size.energy.front.map((c) => c.label), front.map((c) => c.label));
  assert.equal(size.energy.measured, all.length);
  assert.deepEqual(size.space.filter((c) => c.front).map((c) => c.label).sort(), front.map((c) => c.label).sort());
  assert.match(size.energy.sentence, new RegExp(`^${front.length} of the ${all.length} configurations whose energy was measured are on the time–energy front`));
});

for (const [width, height] of [[1440, 900], [390, 844]]) {
  test(`tuning_energy_draws_time_against_energy_at_${width}`, async () => {
    const size = run.tuning.sizes[0];
    const page = await openPage(browser, { width, height });
    await page.goto(`${lab.base}/runs/${run.id}`);
    const box = page.locator('#tuning');
    await box.waitFor({ state: 'visible' });
    await shot(page, `tuning-energy-${width}`);
    assert.equal((await box.locator('.tuning-sentence').innerText()).trim(), size.best_sentence);
    assert.equal((await box.locator('.tuning-energy').innerText()).trim(), size.energy.sentence);
    const bottom = await box.locator('.tuning-energy').evaluate((e) => e.getBoundingClientRect().bottom);
    assert.ok(bottom < 2 * height, `the front's sentence ends at ${bottom} px`);
    // The chart: a scatter of every configuration, painted.
    const canvas = box.locator('canvas');
    assert.equal(await canvas.count(), 1);
    assert.match(await canvas.getAttribute('aria-label'), /^Scatter chart of the 20 configurations at n = 8192: time in ms across, energy a launch in mJ up, the front/);
    assert.ok(await paintedPixels(page, '#tuning canvas') > 1000, 'the scatter is drawn');
    // The table: a row per configuration, the front's marked, with its
    // time and energy.
    const heads = await box.locator('table thead th').allTextContents();
    assert.deepEqual(heads, ['configuration', 'measured (ms)', 'energy a launch (mJ)']);
    const labels = await box.locator('table tbody th').allTextContents();
    assert.deepEqual(labels, size.space.map((c) => (c.front ? `${c.label} (on the front)` : c.label)));
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `the page scrolls sideways: ${wide} px`);
    assert.deepEqual(await axeSerious(page), []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
