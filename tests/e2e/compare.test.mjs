// The compare page shows the server's verdicts, whatever they are: three runs
// of fixed figures (tests/fixtures/compare-runs.jsonl, the values
// compare.test.mjs asserts of the API) read "faster", "slower" and "same
// within noise" in their cells, the star stands where the server names a
// fastest (never on a time of 0), every time of a column reads in one unit,
// and the spread between repeated runs sits in its own column — with no
// runner, so nothing here depends on a machine's noise. Twelve runs made
// from the same figures show that the page fits a phone and a desktop and
// that every overlaid line looks its own; two real runs on PoCL show the
// spread the server finds between runs that repeat a request.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from '../integration/harness.mjs';
import { launch, openPage, shot } from './browser.mjs';

const lab = new Lab('e2e-compare');
const twelve = new Lab('e2e-compare-twelve');
let browser;

// Twelve runs of copy on the fixture's CPU, each the fixture's first run
// with its times a little longer run after run (and no time of 0): two
// variants at two points, 24 lines on the overlay.
function twelveRuns() {
  const lines = readFileSync(join(ROOT, 'tests/fixtures/compare-runs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const first = lines.find((l) => l.table === 'runs' && l.row.id === 1).row;
  const results = lines.filter((l) => l.table === 'results' && l.row.run_id === 1).map((l) => l.row);
  const out = lines.filter((l) => l.table !== 'runs' && l.table !== 'results');
  for (let id = 1; id <= 12; id++) {
    out.push({ table: 'runs', row: { ...first, id, label: `twelve ${id}`, change_seq: id } });
    for (const r of results) {
      const m = (r.median_ms || 0.25) * (1 + id / 100);
      out.push({ table: 'results', row: { ...r, run_id: id, median_ms: m, min_ms: m * 0.99, max_ms: m * 1.01, ci_low_ms: m * 0.995, ci_high_ms: m * 1.005 } });
    }
  }
  const file = join(twelve.dir, 'twelve-runs.jsonl');
  writeFileSync(file, out.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return relative(ROOT, file);
}

before(async () => {
  lab.importStore('tests/fixtures/compare-runs.jsonl');
  twelve.importStore(twelveRuns());
  await Promise.all([lab.startServer(), twelve.startServer()]);
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await Promise.all([lab.close(), twelve.close()]);
});

// The page at base for runs, once its table and its chart are drawn.
async function comparePage(base, runs, viewport) {
  const page = await openPage(browser, viewport);
  await page.goto(`${base}/compare?runs=${runs}`);
  await page.waitForSelector('#table td[data-median-ms]');
  await page.waitForFunction(() => window.Chart && window.Chart.getChart('chart'));
  return page;
}

// Every cell of the table by row: [kernel, point, [{run, time, fastest,
// star, failed, median}]] in the page's order.
function tableCells(page) {
  return page.$$eval('#table tbody tr', (rows) => rows.map((tr) => [
    tr.querySelector('th').innerText.trim(), tr.querySelectorAll('td')[0].innerText.trim(),
    [...tr.querySelectorAll('td[data-run]')].map((td) => ({
      run: Number(td.dataset.run), time: (td.querySelector('.time') || { textContent: '' }).textContent,
      fastest: td.classList.contains('fastest'), star: td.innerText.includes('★'),
      failed: 'failed' in td.dataset, unverified: td.classList.contains('unverified'),
      median: td.dataset.medianMs === undefined ? null : Number(td.dataset.medianMs),
    })),
  ]));
}

// The overlay's lines as Chart.js holds them, and its legend's entries.
function chartLines(page) {
  return page.evaluate(() => {
    const chart = window.Chart.getChart('chart');
    return {
      datasets: chart.data.datasets.map((d) => ({ label: d.label, color: d.borderColor, shape: d.pointStyle, dash: JSON.stringify(d.borderDash || []), points: d.data.length })),
      legend: chart.legend.legendItems.map((i) => ({ text: i.text, fill: i.fillStyle, dash: JSON.stringify(i.lineDash || []) })),
    };
  });
}

test('compare_page_shows_the_servers_verdicts_and_star', async () => {
  const page = await comparePage(lab.base, '1,2,3');
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
  // The first run's float4 at n = 2048 took 0 ms: no time, so no star.
  assert.deepEqual(rows[3], [[1, null, false, ''], [2, 'same', false, 'same within noise']]);
  // The page opens with the server's sentence for each run against the first.
  const judged = (await lab.get('/api/compare?runs=1,2,3')).json;
  assert.deepEqual(await page.$$eval('#pairs li', (li) => li.map((e) => e.textContent)), judged.pairs.map((p) => p.sentence));
  assert.match(judged.pairs[0].sentence, /^#2 against #1: .*1 is faster beyond noise .*1 is slower/);
  // Intervals as [low, high] in the column's unit, never ±%.
  const intervals = await page.$$eval('#table .pm', (pm) => pm.map((e) => e.textContent));
  assert.ok(intervals.length > 0 && intervals.every((t) => /^ \[[\d.]+, [\d.]+ (ms|µs|s)\]$/.test(t)), intervals.join('|'));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a_time_of_zero_failed_or_unverified_is_never_starred', async () => {
  const page = await comparePage(lab.base, '1,2,3');
  const cells = (await tableCells(page)).flatMap(([, , tds]) => tds);
  const judged = (await lab.get('/api/compare?runs=1,2,3')).json;
  const starred = cells.filter((c) => c.star || c.fastest);
  assert.deepEqual(starred.map((c) => [c.run, c.median]), [[2, 0.5]], 'the one fastest the server names');
  assert.deepEqual(judged.rows.map((r) => r.fastest), [2, null, null, null]);
  const zero = cells.find((c) => c.median === 0);
  assert.ok(zero, 'the fixture has a time of 0');
  for (const c of cells.filter((x) => x.median === 0 || x.failed || x.unverified))
    assert.ok(!c.star && !c.fastest, `not starred: ${JSON.stringify(c)}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('every_time_of_a_column_reads_in_one_unit_and_one_precision', async () => {
  const page = await comparePage(lab.base, '1,2,3');
  const rows = await tableCells(page);
  const columns = new Map();
  for (const [, , tds] of rows) for (const c of tds) columns.set(c.run, [...(columns.get(c.run) || []), c.time]);
  // Rows: float n = 1024, 2048, float4 n = 1024, 2048. The 0 of run 1 no
  // longer turns its column into "1000 µs"; run 2 no longer mixes "0.5000 ms"
  // and "2 ms".
  assert.deepEqual(Object.fromEntries(columns), {
    1: ['1.00 ms', '1.00 ms', '1.00 ms', '0.00 ms'],
    2: ['0.500 ms', '1.005 ms', '2.000 ms', '0.500 ms'],
    3: ['1.000 ms', '0.900 ms', '1.005 ms'],
  });
  for (const [run, times] of columns) {
    const units = new Set(times.map((t) => t.split(' ')[1]));
    const decimals = new Set(times.map((t) => (t.split(' ')[0].split('.')[1] || '').length));
    assert.equal(units.size, 1, `run ${run}: one unit, saw ${[...units]}`);
    assert.equal(decimals.size, 1, `run ${run}: one precision, saw ${times}`);
    for (const t of times) assert.ok(Number(t.split(' ')[0]) < 1000, `run ${run}: ${t} belongs in the next unit`);
  }
  // The rule itself, on the edges: the longest time as written stays under
  // 1000 of the unit; the shortest above 0 keeps three digits.
  const cases = await page.evaluate(async () => {
    const { fmtMs, timeUnit } = await import('/js/format.js');
    return [[0.99996], [0.9999996, 0.5], [0.005, 5.1234], [0.0009], [12000, 15000], [1, 0], [0]]
      .map((col) => { const u = timeUnit(col); return col.map((v) => fmtMs(v, u)); });
  });
  assert.deepEqual(cases, [['1.000 ms'], ['1.000 ms', '0.500 ms'], ['0.0050 ms', '5.1234 ms'], ['0.900 µs'],
    ['12.0 s', '15.0 s'], ['1.00 ms', '0.00 ms'], ['0 ms']]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('repeated_runs_show_the_servers_spread_between_them', async () => {
  const page = await comparePage(lab.base, '1,2,3');
  const judged = (await lab.get('/api/compare?runs=1,2,3')).json;
  const spreads = await page.$$eval('#table tbody tr', (rows) => rows.map((tr) => {
    const td = tr.querySelector('td.spread');
    return td && { runs: td.dataset.runs || null, pct: td.dataset.spreadPct || null, text: td.innerText.replace(/\s+/g, ' ').trim() };
  }));
  assert.equal(await page.locator('#table thead th.spread').innerText().then((t) => t.split('\n')[0]), 'Spread between runs');
  // Page order: float n = 1024, 2048, then float4; the API's: float, float4 at
  // n = 1024, then at 2048.
  assert.deepEqual(spreads, [
    { runs: '1,2,3', pct: String(judged.rows[0].repeats[0].spread_pct), text: "50% 3 runs: #1, #2, #3 the fixture's CPU, OpenCL, cold apart: beyond the noise" },
    { runs: '1,2', pct: String(judged.rows[2].repeats[0].spread_pct), text: "0.50% 2 runs: #1, #2 the fixture's CPU, OpenCL, cold within noise" },
    { runs: '1,2,3', pct: String(judged.rows[1].repeats[0].spread_pct), text: "100% 3 runs: #1, #2, #3 the fixture's CPU, OpenCL, cold apart: beyond the noise" },
    { runs: null, pct: null, text: '–' },
  ]);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('overlaid_runs_differ_in_dash_marker_and_colour', async () => {
  const page = await comparePage(lab.base, '1,2,3');
  const { datasets, legend } = await chartLines(page);
  assert.deepEqual(datasets.map((d) => d.label), ['#1 · float', '#1 · float4', '#2 · float', '#2 · float4', '#3 · float', '#3 · float4']);
  // Runs #2 and #3 looked the same: now the same variant of two runs differs
  // in marker, colour and dash, and their legend swatches differ in colour.
  for (const variant of ['float', 'float4']) {
    const of = datasets.filter((d) => d.label.endsWith(` ${variant}`));
    for (let i = 0; i < of.length; i++) {
      for (let j = i + 1; j < of.length; j++) {
        assert.notEqual(of[i].shape, of[j].shape, `${of[i].label} and ${of[j].label}: markers`);
        assert.notEqual(of[i].dash, of[j].dash, `${of[i].label} and ${of[j].label}: dashes`);
        assert.notEqual(of[i].color, of[j].color, `${of[i].label} and ${of[j].label}: colours`);
      }
    }
  }
  assert.equal(new Set(legend.map((l) => l.fill)).size, legend.length, JSON.stringify(legend));
  assert.deepEqual(legend.map((l) => l.text.split(' · ')[0]), ['#1', '#1', '#2', '#2', '#3', '#3'], 'the legend names the run');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('twelve_runs_keep_every_line_apart', async () => {
  const page = await comparePage(twelve.base, Array.from({ length: 12 }, (_, i) => i + 1).join(','));
  const { datasets } = await chartLines(page);
  assert.equal(datasets.length, 24);
  const looks = new Set(datasets.map((d) => `${d.shape}|${d.dash}`));
  assert.equal(looks.size, 24, `no two lines alike: ${JSON.stringify(datasets)}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('compare_page_fits_a_phone_and_a_desktop', async () => {
  const ids = Array.from({ length: 12 }, (_, i) => i + 1).join(',');
  for (const viewport of [{ width: 390, height: 844 }, { width: 1440, height: 900 }]) {
    const page = await comparePage(twelve.base, ids, viewport);
    await page.locator('.chart-numbers summary').click();
    await page.waitForSelector('#chart-table tbody tr');
    const seen = await page.evaluate(() => {
      const name = (e) => e.getAttribute('aria-label')
        || (e.getAttribute('aria-labelledby') || '').split(' ').map((id) => (document.getElementById(id) || { textContent: '' }).textContent).join(' ').trim();
      return {
        scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth,
        headings: [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1])),
        // Every box that scrolls is reachable by keyboard and named.
        scrollers: [...document.querySelectorAll('main *')].filter((e) => e.scrollWidth > e.clientWidth
          && ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
          .map((e) => ({ tabindex: e.getAttribute('tabindex'), role: e.getAttribute('role'), name: name(e) })),
        canvas: document.getElementById('chart').getAttribute('aria-label'),
        chartRows: document.querySelectorAll('#chart-table tbody tr').length,
      };
    });
    const where = `${viewport.width}×${viewport.height}`;
    assert.ok(seen.scrollWidth <= seen.innerWidth, `${where}: the page scrolls sideways (${seen.scrollWidth} > ${seen.innerWidth})`);
    assert.equal(seen.headings[0], 1, `${where}: an h1 first`);
    assert.equal(seen.headings.filter((h) => h === 1).length, 1, `${where}: one h1`);
    seen.headings.forEach((h, i) => assert.ok(i === 0 || h <= seen.headings[i - 1] + 1, `${where}: heading levels in order: ${seen.headings}`));
    // On a desktop twelve runs make the table scroll in its box; on a phone
    // its rows are cards, and nothing scrolls sideways at all.
    if (viewport.width > 600) assert.ok(seen.scrollers.length >= 1, `${where}: twelve runs make the table scroll in its box`);
    else assert.deepEqual(seen.scrollers, [], `${where}: the table's rows are cards`);
    for (const s of seen.scrollers) {
      assert.equal(s.tabindex, '0', `${where}: ${JSON.stringify(s)}`);
      assert.equal(s.role, 'region', `${where}: ${JSON.stringify(s)}`);
      assert.ok(s.name.length > 0, `${where}: ${JSON.stringify(s)}`);
    }
    assert.match(seen.canvas, /bandwidth in GB\/s against n/);
    assert.match(seen.canvas, /#1, #2, .*#12/);
    assert.match(seen.canvas, /The chart's numbers/);
    assert.equal(seen.chartRows, 48, 'a row per run, variant and point');
    await shot(page, `compare-twelve-${viewport.width}`);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('two_real_runs_of_one_request_show_their_spread', async () => {
  const live = new Lab('e2e-compare-live');
  try {
    await live.startServer();
    await live.startRunner();
    const request = { experiment: 'copy', params: { n: [8192, 65536] }, variants: ['float', 'float4'], repeat: 3, cache: 'hot' };
    const ids = [];
    for (let i = 0; i < 2; i++) {
      const res = await live.post('/api/runs', { ...request, label: `again ${i + 1}` });
      assert.equal(res.status, 201, res.text);
      ids.push(res.json.id);
    }
    const runs = [];
    for (const id of ids) runs.push(await live.waitDone(id));
    for (const run of runs) assert.equal(run.status, 'done', JSON.stringify(run.error));
    const judged = (await live.get(`/api/compare?runs=${ids.join(',')}`)).json;
    assert.equal(judged.rows.length, 4);
    for (const row of judged.rows) {
      const [a, b] = runs.map((run) => run.results.find((r) => r.variant === row.variant && r.params.n === row.params.n));
      if (!(a.verified && b.verified && a.median_ms > 0 && b.median_ms > 0)) continue;
      const mid = (a.median_ms + b.median_ms) / 2;
      assert.deepEqual(row.repeats.map((g) => [g.device, g.language, g.cache, g.runs, g.medians_ms]),
        [[runs[0].device.id, 'opencl', 'hot', ids, [a.median_ms, b.median_ms]]]);
      assert.ok(Math.abs(row.repeats[0].spread_pct - (100 * Math.abs(a.median_ms - b.median_ms)) / mid) < 1e-9);
    }
    const page = await comparePage(live.base, ids.join(','), { width: 390, height: 844 });
    const spread = await page.$$eval('#table td.spread', (tds) => tds.map((td) => td.dataset.runs || null));
    const expected = judged.rows.filter((r) => r.repeats.length).length;
    assert.ok(expected > 0, 'PoCL verified the copies');
    assert.equal(spread.filter((r) => r === ids.join(',')).length, expected);
    const { datasets } = await chartLines(page);
    assert.equal(datasets.length, 4);
    assert.notEqual(`${datasets[0].shape}|${datasets[0].dash}`, `${datasets[2].shape}|${datasets[2].dash}`, 'float of the two runs');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await live.close();
  }
});

test('compare_page_names_runs_that_do_not_exist', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/compare?runs=1,77`);
  await page.waitForSelector('#table td[data-median-ms]');
  assert.match(await page.locator('#banner').innerText(), /No such run: #77/);
  assert.equal(await page.locator('#table thead th[data-run]').count(), 1);
  await page.context().close();
});
