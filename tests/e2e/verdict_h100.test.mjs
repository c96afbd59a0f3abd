// The run page's first screen on runs recorded on the H100
// (tests/fixtures/h100-compiler-runs.jsonl: a transpose at n = 4096 and a
// copy with a custom kernel that spills; h100-cuda-runs.jsonl: the
// reductions; h100-catalog-runs.jsonl: the OpenCL catalog, a run of every
// family, among them the partition-camping sweep of 32 sizes and the 256
// points of banks): the verdict names the fastest and the reason the model gives,
// above the table's first rows, at 1440 × 900; no page scrolls sideways at
// 1440 or on a 390-px phone; a custom kernel stands next to the variant it
// is like.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage, shot } from './browser.mjs';

const compiler = new Lab('e2e-verdict-h100');
const cuda = new Lab('e2e-verdict-h100-cuda');
const catalog = new Lab('e2e-verdict-h100-catalog');
let browser;

before(async () => {
  compiler.importStore('tests/fixtures/h100-compiler-runs.jsonl');
  cuda.importStore('tests/fixtures/h100-cuda-runs.jsonl');
  catalog.importStore('tests/fixtures/h100-catalog-runs.jsonl');
  await compiler.startServer();
  await cuda.startServer();
  await catalog.startServer();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await compiler.close();
  await cuda.close();
  await catalog.close();
});

// The first screen of run id at width × height: the verdict's text, where
// it and the table's first row end, and how wide the page is.
async function firstScreen(lab, id, width, height) {
  // The server makes the predictions (the verdict's reasons) on a thread
  // of its own: read the page once they are made.
  await lab.waitRun(id, (r) => !r.predictions_pending);
  const page = await openPage(browser, { width, height });
  await page.goto(`${lab.base}/runs/${id}`);
  await page.waitForSelector('#table td[data-median-ms]');
  const seen = await page.evaluate(() => ({
    verdict: document.querySelector('.verdict-sentence').textContent,
    verdictBottom: document.querySelector('.verdict-sentence').getBoundingClientRect().bottom,
    rowBottom: document.querySelector('#table tbody tr').getBoundingClientRect().bottom,
    wide: document.documentElement.scrollWidth,
    tableScrolls: document.getElementById('table-box').scrollWidth > document.getElementById('table-box').clientWidth,
    variants: [...document.querySelectorAll('#table th[data-variant]')].map((th) => th.dataset.variant),
  }));
  await shot(page, `verdict-h100-${id}-${width}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
  return seen;
}

test('the_h100_transpose_names_padded_and_why_on_the_first_screen', async () => {
  const run = (await compiler.get('/api/runs/1')).json;
  assert.equal(run.verdict.fastest, 'padded');
  for (const [w, h] of [[1440, 900], [390, 844]]) {
    const s = await firstScreen(compiler, 1, w, h);
    assert.match(s.verdict, /^Verdict: padded is the fastest\. It reaches [\d,]+ GB\/s, 5\.7× faster than naive \(the slowest\)\. In the model, naive has 32 sectors per request \(against 4\)\.$/, s.verdict);
    assert.ok(s.wide <= w, `no sideways scroll at ${w}: ${s.wide}`);
    if (w === 1440) assert.ok(s.verdictBottom < h && s.rowBottom < h && !s.tableScrolls, JSON.stringify(s));
  }
});

test('a_custom_kernel_stands_next_to_its_like_and_loses_with_its_factor', async () => {
  const s = await firstScreen(compiler, 2, 1440, 900);
  assert.match(s.verdict, /float4 is the fastest.*471× faster than the slowest, spill/, s.verdict);
  const like = (await compiler.get('/api/runs/2')).json.variants.find((v) => v.id === 'spill').like;
  assert.equal(s.variants[s.variants.indexOf(like) + 1], 'spill', `spill right after ${like}: ${s.variants.join(', ')}`);
});

test('the_h100_reductions_say_the_binding_ceilings', async () => {
  const s = await firstScreen(cuda, 6, 1440, 900);
  assert.match(s.verdict, /grid-stride float4 is the fastest at every point.*faster than interleaved.*In the model, grid-stride float4 is bound by DRAM bandwidth; interleaved by barriers, with [\d.]+-way bank conflicts\./, s.verdict);
  assert.ok(s.verdictBottom < 900 && s.rowBottom < 900 && s.wide <= 1440, JSON.stringify(s));
});

test('the_h100_sweep_and_banks_fit_a_laptop_and_a_phone', async () => {
  for (const [id, fastest] of [[3, 'padded'], [10, 'broadcast s\\[lid % c\\]']]) {
    const s = await firstScreen(catalog, id, 1440, 900);
    assert.match(s.verdict, new RegExp(`^Verdict: ${fastest} is the fastest .*In the model`), s.verdict);
  }
});

// The transpose at n = 4096 on the H100: where DRAM binds with the waves'
// waits at the tiles' barriers in its time, each result's model line names
// them, in µs, from the server's drain_ms; where another ceiling binds, it
// does not. The CSV carries every result's drain_ms.
test('a_dram_bound_tile_names_its_barriers_drains', async () => {
  const run = await catalog.waitRun(2, (r) => !r.predictions_pending);
  const drained = run.results.filter((r) => r.prediction?.binding === 'dram' && r.prediction.drain_ms > 0);
  assert.ok(drained.length > 0 && drained.length < run.results.length, JSON.stringify(run.results.map((r) => r.prediction?.binding)));
  const page = await openPage(browser, { width: 1440, height: 900 });
  await page.goto(`${catalog.base}/runs/2`);
  // The model's lines are the cells' details, in the page though folded.
  await page.waitForSelector('#table td[data-variant] .predicted', { state: 'attached' });
  const lines = await page.$$eval('#table td[data-variant] .predicted', (xs) => xs.map((x) => x.textContent));
  const named = lines.filter((l) => /barrier drains/.test(l));
  assert.equal(named.length, drained.length, lines.join('\n'));
  for (const r of drained) {
    const us = (r.prediction.drain_ms * 1000).toPrecision(3).replace(/\.?0+$/, '');
    assert.ok(named.some((l) => l.includes(`DRAM-bound, with ${us} µs of barrier drains`)), `${us} µs in ${named.join('\n')}`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
  const [head, ...rows] = (await catalog.get('/api/runs/2/results.csv', { raw: true })).text.trim().split(/\r\n/).map((l) => l.split(','));
  const at = head.indexOf('predicted_drain_ms');
  assert.equal(rows.length, run.results.length);
  rows.forEach((row, i) => {
    const ms = run.results[i].prediction?.drain_ms;
    assert.ok(ms ? Math.abs(Number(row[at]) - ms) < 1e-6 * ms : row[at] === '', `${row[0]}: ${row[at]} against ${ms}`);
  });
});

// Every family of the catalog as measured on the H100: the first screen
// names the variant the server found fastest (a family of one variant, where
// it is fastest) and gives a reason, above the table's first row at 1440;
// neither width scrolls sideways.
test('every_family_on_the_h100_fits_a_laptop_and_a_phone', async () => {
  const families = new Set();
  for (let id = 1; id <= 10; id++) {
    const run = await catalog.waitRun(id, (r) => !r.predictions_pending);
    families.add(run.experiment);
    const title = run.variants.find((v) => v.id === run.verdict.fastest).title;
    for (const [w, h] of [[1440, 900], [390, 844]]) {
      const s = await firstScreen(catalog, id, w, h);
      const named = run.variants.length > 1 ? `${title} is the fastest` : `${title} reaches`;
      assert.ok(s.verdict.startsWith(`Verdict: ${named}`) && /In the model/.test(s.verdict),
        `run ${id} (${run.experiment}): ${s.verdict}`);
      assert.ok(s.wide <= w, `run ${id}: no sideways scroll at ${w}: ${s.wide}`);
      if (w === 1440) assert.ok(s.verdictBottom < h && s.rowBottom < h && !s.tableScrolls, `run ${id}: ${JSON.stringify(s)}`);
    }
  }
  const catalogFamilies = (await catalog.get('/api/experiments')).json.experiments.map((e) => e.id);
  assert.deepEqual([...families].sort(), [...catalogFamilies].sort());
});

// Charts that suit the data: a run of one size gets bars from zero, one per
// verified variant (the custom kernel's among them); a sweep gets lines; no
// chart on either page has a series without a point.
test('one_size_gets_bars_from_zero_and_no_chart_draws_an_empty_series', async () => {
  const charts = async (lab, id) => {
    await lab.waitRun(id, (r) => !r.predictions_pending);
    const page = await openPage(browser, { width: 1440, height: 900 });
    await page.goto(`${lab.base}/runs/${id}`);
    await page.waitForFunction(() => window.Chart && window.Chart.getChart('chart'));
    const seen = await page.evaluate(() => Object.values(window.Chart.instances).map((c) => ({
      canvas: c.canvas.id, type: c.config.type, labels: c.data.labels || [], min: c.scales.y.min,
      series: c.data.datasets.map((d) => ({ label: d.label, points: d.data.filter((v) => v !== null && v !== undefined).length })),
    })));
    assert.deepEqual(page.errors, []);
    await page.context().close();
    return seen;
  };
  const one = await charts(compiler, 2);
  const run = (await compiler.get('/api/runs/2')).json;
  const main = one.find((c) => c.canvas === 'chart');
  assert.match(main.type, /^bar/, JSON.stringify(main));
  assert.equal(main.min, 0);
  assert.equal(main.labels.length, run.results.filter((r) => r.verified).length, JSON.stringify(main));
  assert.ok(main.labels.some((l) => /spill/.test(l)), JSON.stringify(main.labels));
  const sweep = await charts(catalog, 3);
  assert.match(sweep.find((c) => c.canvas === 'chart').type, /^line/);
  for (const c of [...one, ...sweep]) for (const s of c.series) assert.ok(s.points > 0, `${c.canvas}: ${s.label} is empty`);
});
