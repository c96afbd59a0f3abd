// Energy per useful byte on the run page, on the H100's recorded
// runs (tests/fixtures/h100-energy-runs.jsonl: the copy ceiling, transpose
// at n = 4096 and 8192, strided reads 1..64, each variant's joules per
// launch measured): every cell gives its energy per useful byte beside its
// GB/s behind the table's toggle, the energy chart draws a line per variant
// over the swept parameter with its numbers in a table, the time spent on
// energy is in the budget, the verdict names a variant of less energy only
// where it is not the fastest, and the compare page gives each cell's
// energy. The expected figures are read from the fixture itself, not
// written here. And from the form on PoCL, whose device has no energy
// counter: the page says so once, above the table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from '../integration/harness.mjs';
import { launch, openPage, paintedPixels, shot } from './browser.mjs';

const FIXTURE = 'tests/fixtures/h100-energy-runs.jsonl';
const h100 = new Lab('e2e-energy-h100');
const pocl = new Lab('e2e-energy-pocl');
let browser;

// The fixture's results of run id as {variant, params, median_ms, bytes,
// energy (parsed)}.
function recorded(id) {
  return readFileSync(join(ROOT, FIXTURE), 'utf8').trim().split('\n').map((l) => JSON.parse(l))
    .filter((l) => l.table === 'results' && l.row.run_id === id)
    .map(({ row }) => ({ ...row, params: JSON.parse(row.params), energy: row.energy && JSON.parse(row.energy) }));
}

// Joules per launch over the useful bytes, in pJ, as the fixture has them.
const pjPerByte = (r) => (r.energy.j_per_launch * 1e12) / r.bytes;
// The page's numbers: three significant digits (format.js's fmtNumber).
const shown = (v) => (Math.abs(v) >= 1000 ? String(Math.round(v)) : v.toPrecision(3).replace(/\.?0+$/, (m) => (m.startsWith('.') ? '' : m)));

before(async () => {
  h100.importStore(FIXTURE);
  await Promise.all([h100.startServer(), pocl.startServer()]);
  await pocl.startRunner();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await Promise.all([h100.close(), pocl.close()]);
});

// Open run id's page once the server's predictions (the model's moved
// bytes) are in, with the table's details shown.
async function runPage(lab, id) {
  await lab.waitRun(id, (r) => !r.predictions_pending);
  const page = await openPage(browser, { width: 1440, height: 900 });
  await page.goto(`${lab.base}/runs/${id}`);
  await page.waitForSelector('#table td[data-median-ms]');
  await page.check('#show-detail');
  return page;
}

test('each_transpose_cell_gives_its_energy_per_useful_byte_beside_its_rate', async () => {
  const page = await runPage(h100, 2);
  const cells = await page.$$eval('#table td[data-variant]', (tds) => tds.map((td) => {
    const e = td.querySelector('.energy');
    return {
      variant: td.dataset.variant, point: JSON.parse(td.dataset.point), rate: td.dataset.rate,
      energy: e ? Number(e.dataset.energy) : null, text: e ? e.textContent : '', visible: Boolean(e && e.checkVisibility()),
    };
  }));
  const results = recorded(2);
  assert.equal(cells.length, results.length);
  for (const r of results) {
    const c = cells.find((x) => x.variant === r.variant && x.point.n === r.params.n);
    assert.ok(c && c.visible, `${r.variant} at ${r.params.n}: ${JSON.stringify(c)}`);
    assert.ok(Math.abs(c.energy - pjPerByte(r)) <= 1e-9 * pjPerByte(r), `${r.variant} at ${r.params.n}: ${c.energy} against ${pjPerByte(r)}`);
    assert.ok(c.text.startsWith(`energy: ${shown(pjPerByte(r))} pJ per useful byte`), c.text);
  }
  // The lesson in energy: at n = 4096 the naive transpose spends about four
  // times the padded one's energy on each useful byte.
  const at = (v) => pjPerByte(results.find((r) => r.variant === v && r.params.n === 4096));
  const naive = cells.find((c) => c.variant === 'naive' && c.point.n === 4096);
  const padded = cells.find((c) => c.variant === 'padded' && c.point.n === 4096);
  assert.match(naive.text, new RegExp(`^energy: ${shown(at('naive'))} pJ per useful byte`));
  assert.match(padded.text, new RegExp(`^energy: ${shown(at('padded'))} pJ per useful byte`));
  assert.ok(at('naive') / at('padded') > 3.5, `${at('naive')} against ${at('padded')}`);
  // Measured everywhere: no line says energy is missing.
  assert.equal(await page.isHidden('#energy-note'), true);
  await shot(page, 'energy-h100-transpose-table');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the_energy_chart_draws_a_line_per_variant_over_the_sweep', async () => {
  for (const [id, variants, points] of [[2, 5, 2], [4, 1, 7]]) {
    const page = await runPage(h100, id);
    await page.waitForFunction(() => window.Chart && window.Chart.getChart('energy-chart'));
    const chart = await page.evaluate(() => {
      const c = window.Chart.getChart('energy-chart');
      return { type: c.config.type, title: document.getElementById('energy-title').textContent, series: c.data.datasets.map((d) => d.data.map((p) => ({ x: p.x, y: p.y }))) };
    });
    assert.match(chart.type, /^line/);
    assert.equal(chart.series.length, variants, JSON.stringify(chart));
    for (const s of chart.series) assert.equal(s.length, points, JSON.stringify(chart));
    assert.ok((await paintedPixels(page, '#energy-chart')) > 1000, 'the chart is painted');
    // The points are the fixture's, as its numbers' table says too.
    const ys = chart.series.flat().map((p) => p.y).sort((a, b) => a - b);
    const want = recorded(id).map(pjPerByte).sort((a, b) => a - b);
    ys.forEach((y, i) => assert.ok(Math.abs(y - want[i]) <= 1e-9 * want[i], `${y} against ${want[i]}`));
    const table = await page.$$eval('#energy-chart-data tbody td', (tds) => tds.map((td) => td.textContent));
    assert.deepEqual([...table].sort(), want.map(shown).sort());
    await shot(page, `energy-h100-chart-${id}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  // Strided reads: each useful byte costs more the wider the stride.
  const strided = recorded(4).sort((a, b) => a.params.stride - b.params.stride);
  assert.ok(pjPerByte(strided[strided.length - 1]) > 5 * pjPerByte(strided[0]));
});

// The verdict names the variant of least energy only where it is not the
// fastest: in this transpose, the fastest at the headline point (n = 8192,
// the most work) also spends the least per launch, so nothing more is said.
test('the_verdict_names_a_frugal_variant_only_where_it_is_not_the_fastest', async () => {
  const at8192 = recorded(2).filter((r) => r.params.n === 8192);
  const fastest = at8192.reduce((a, b) => (b.median_ms < a.median_ms ? b : a));
  const frugal = at8192.reduce((a, b) => (b.energy.j_per_launch < a.energy.j_per_launch ? b : a));
  assert.equal(frugal.variant, fastest.variant, 'the fixture\'s case: the fastest is also the most frugal');
  const run = await h100.waitRun(2, (r) => !r.predictions_pending);
  assert.equal(run.verdict.fastest, fastest.variant);
  assert.equal(run.verdict.frugal, null);
  const page = await runPage(h100, 2);
  const verdict = await page.textContent('.verdict-sentence');
  assert.match(verdict, new RegExp(`^Verdict: ${fastest.variant} is the fastest`));
  assert.doesNotMatch(verdict, /energy/);
  // The energy bursts' time is in the run's budget.
  await page.click('#details > summary');
  assert.match(await page.textContent('#facts'), /energy bursts [\d.]+ s \(\d+(\.\d+)?%\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compare_gives_each_cells_energy', async () => {
  const page = await openPage(browser, { width: 1440, height: 900 });
  await page.goto(`${h100.base}/compare?runs=2`);
  await page.waitForSelector('#table td[data-median-ms]');
  const energies = await page.$$eval('#table td[data-run] .energy', (spans) => spans.map((s) => Number(s.dataset.energy)));
  const want = recorded(2).map(pjPerByte);
  assert.equal(energies.length, want.length);
  for (const w of want) assert.ok(energies.some((e) => Math.abs(e - w) <= 1e-9 * w), `${w} in ${energies}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Queued from the form with its energy box ticked: the request says
// energy true; on PoCL every result's energy is null with the runner's
// reason, and the page says so once, above the table, and draws no energy
// chart. Run again brings the box back ticked.
test('the_form_asks_for_energy_and_pocl_says_once_it_has_none', async () => {
  const form = await openPage(browser, { width: 1440, height: 900 });
  await form.goto(`${pocl.base}/`);
  await form.waitForSelector('#run-form');
  await form.selectOption('#f-experiment', 'copy');
  await form.locator('.param[data-param="n"] select.mode').selectOption('list');
  await form.fill('[name="params.n.list"]', '4096, 8192');
  await form.fill('#f-repeat', '2');
  assert.equal(await form.isChecked('#f-energy'), false, 'energy is off unless asked');
  await form.check('#f-energy');
  await Promise.all([form.waitForURL(/\/runs\/\d+$/), form.click('#run-form button[type=submit]')]);
  const id = Number(form.url().match(/\/runs\/(\d+)$/)[1]);
  await form.context().close();
  const run = await pocl.waitSettled(id);
  assert.equal(run.status, 'done', run.error);
  assert.equal(run.request.energy, true);
  const reason = run.results[0].energy_error;
  assert.ok(reason && run.results.every((r) => r.energy === null && r.energy_error === reason), JSON.stringify(run.results[0]));
  const page = await runPage(pocl, id);
  assert.equal(await page.isVisible('#energy-note'), true);
  assert.equal(await page.textContent('#energy-note'), `Energy was asked for but not measured: ${reason}.`);
  const mentions = await page.evaluate((why) => document.querySelector('main').textContent.split(why).length - 1, reason);
  assert.equal(mentions, 1, 'said once, not per cell');
  assert.equal(await page.isHidden('#energy'), true);
  assert.equal(await page.$$eval('#table .energy', (s) => s.length), 0);
  await page.goto(`${pocl.base}/?again=${id}#queue`);
  await page.waitForFunction(() => document.getElementById('f-experiment') && document.getElementById('f-experiment').value === 'copy');
  await page.waitForFunction(() => document.getElementById('f-energy').checked);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
