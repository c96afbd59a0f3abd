// One verdict, judged by the server: GET /api/compare and a run's "previous"
// say faster, slower or the same within noise by the one rule
// (analysis/regressions.c), here on three runs of fixed figures
// (tests/fixtures/compare-runs.jsonl) so every expected value is written down;
// the same runs with a few figures changed (a time of 0 or below, a failed
// point, a run in another cache mode) show what can never be the fastest and
// which runs count as repeats of one measurement.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from './harness.mjs';

const lab = new Lab('compare');
const edges = new Lab('compare-edges');

// The fixture with edit(table, row) applied to each row (edit changes the
// row in place), written into lab's folder; its path from the repository.
function fixtureWith(into, edit) {
  const lines = readFileSync(join(ROOT, 'tests/fixtures/compare-runs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  for (const l of lines) edit(l.table, l.row);
  const file = join(into.dir, 'fixture.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return relative(ROOT, file);
}

// The edges: run 3 timed hot (the others cold), and its float at n = 1024
// took 2 ms; of run 2, float at n = 1024 took 0 ms, float4 at n = 1024
// 1.05 ms, float at n = 2048 a negative time, and float4 at n = 2048 failed.
function edgeRows(table, row) {
  if (table === 'runs' && row.id === 3) row.request = JSON.stringify({ ...JSON.parse(row.request), cache: 'hot' });
  if (table !== 'results' || row.run_id === 1) return;
  const n = JSON.parse(row.params).n;
  const set = (m, lo, hi) => Object.assign(row, { median_ms: m, min_ms: lo, max_ms: hi, ci_low_ms: lo, ci_high_ms: hi });
  if (row.run_id === 3) {
    if (row.variant === 'float' && n === 1024) set(2, 1.98, 2.02);
    return;
  }
  if (row.variant === 'float' && n === 1024) set(0, 0, 0);
  if (row.variant === 'float4' && n === 1024) set(1.05, 1.04, 1.06);
  if (row.variant === 'float' && n === 2048) set(-0.5, -0.5, -0.5);
  if (row.variant === 'float4' && n === 2048) {
    set(null, null, null);
    Object.assign(row, { verified: 0, error: 'the fixture\'s kernel failed to launch' });
  }
}

before(async () => {
  lab.importStore('tests/fixtures/compare-runs.jsonl');
  edges.importStore(fixtureWith(edges, edgeRows));
  await Promise.all([lab.startServer(), edges.startServer()]);
});
after(() => Promise.all([lab.close(), edges.close()]));

const point = (n) => ({ local: 256, n });
const cells = (row) => row.cells.map((c) => [c.run, c.verdict, c.change_pct === null ? null : Number(c.change_pct.toFixed(6))]);

test('compare_judges_each_cell_against_the_first_run', async () => {
  const res = await lab.get('/api/compare?runs=1,2,3');
  assert.equal(res.status, 200, res.text);
  const c = res.json;
  assert.deepEqual(c.runs, [1, 2, 3]);
  assert.deepEqual(c.missing, []);
  assert.equal(c.min_change_pct, 1);
  assert.deepEqual(c.rows.map((r) => [r.variant, r.params]), [
    ['float', point(1024)], ['float4', point(1024)], ['float', point(2048)], ['float4', point(2048)]]);
  const [a, b, d, z] = c.rows;
  // Intervals apart and 50% faster; the third overlaps the first.
  assert.deepEqual(cells(a), [[1, null, null], [2, 'faster', -50], [3, 'same', 0]]);
  assert.equal(a.fastest, 2, 'apart from both others and faster by more than the noise');
  // Apart and twice the time; the third 0.5% off but overlapping.
  assert.deepEqual(cells(b), [[1, null, null], [2, 'slower', 100], [3, 'same', 0.5]]);
  assert.equal(b.fastest, null, 'the first and third overlap: no fastest');
  // Apart by 0.5%: below the 1% the run asked for, so the same; an
  // unverified result is not judged.
  assert.deepEqual(cells(d), [[1, null, null], [2, 'same', 0.5], [3, null, null]]);
  assert.equal(d.fastest, null);
  // A zero baseline: no relative change, and not faster or slower by it;
  // a time of 0 is no time, so never the fastest.
  assert.deepEqual(cells(z), [[1, null, null], [2, 'same', null]]);
  assert.equal(z.fastest, null);
});

const spreads = (row) => row.repeats.map((g) => [g.device, g.language, g.cache, g.runs, g.medians_ms, g.median_ms,
  Number(g.spread_pct.toFixed(6)), g.apart]);

test('repeated_runs_carry_the_spread_between_their_medians', async () => {
  const c = (await lab.get('/api/compare?runs=1,2,3')).json;
  const [a, b, d, z] = c.rows;
  // Three runs on the fixture's CPU, OpenCL, cold: (1 - 0.5) / 1, the
  // slowest's interval apart from the quickest's.
  assert.deepEqual(spreads(a), [['fixture-cpu-0', 'opencl', 'cold', [1, 2, 3], [1, 0.5, 1], 1, 50, true]]);
  assert.deepEqual(spreads(b), [['fixture-cpu-0', 'opencl', 'cold', [1, 2, 3], [1, 2, 1.005], 1.005, 99.502488, true]]);
  // Run 3's result is unverified: two runs, 0.5% apart, below the noise.
  assert.deepEqual(spreads(d), [['fixture-cpu-0', 'opencl', 'cold', [1, 2], [1, 1.005], 1.0025, 0.498753, false]]);
  // A time of 0 beside one of 0.5 ms: one time, no spread.
  assert.deepEqual(z.repeats, []);
  // The baseline's order does not change the spread, only the runs' order.
  const back = (await lab.get('/api/compare?runs=3,2,1')).json;
  assert.deepEqual(spreads(back.rows[0]), [['fixture-cpu-0', 'opencl', 'cold', [3, 2, 1], [1, 0.5, 1], 1, 50, true]]);
});

test('a_time_of_zero_or_below_or_a_failed_point_is_never_fastest', async () => {
  const res = await edges.get('/api/compare?runs=1,2,3');
  assert.equal(res.status, 200, res.text);
  const rows = Object.fromEntries(res.json.rows.map((r) => [`${r.variant} ${r.params.n}`, r]));
  // 1 ms, 0 ms, 2 ms (hot): the 0 is no time and does not stand in the way.
  assert.equal(rows['float 1024'].fastest, 1);
  // 1 ms, 1.05 ms, 1.005 ms: the first overlaps the third.
  assert.equal(rows['float4 1024'].fastest, null);
  // 1 ms, -0.5 ms, 0.9 ms unverified: nothing that counts beside the first.
  assert.equal(rows['float 2048'].fastest, null);
  // 0 ms and a failed point: neither is a time.
  assert.equal(rows['float4 2048'].fastest, null);
  const failed = (await edges.get('/api/runs/2')).json.results.find((r) => r.variant === 'float4' && r.params.n === 2048);
  assert.deepEqual([failed.median_ms, failed.verified], [null, false], 'the fixture holds a failed point');
});

test('only_runs_of_one_device_language_and_cache_mode_are_repeats', async () => {
  const rows = Object.fromEntries((await edges.get('/api/compare?runs=1,2,3')).json.rows.map((r) => [`${r.variant} ${r.params.n}`, r]));
  // Run 3 timed hot: never pooled with the cold runs 1 and 2.
  assert.deepEqual(spreads(rows['float4 1024']), [['fixture-cpu-0', 'opencl', 'cold', [1, 2], [1, 1.05], 1.025, 4.878049, true]]);
  // Run 2's 0 ms leaves run 1 alone among the cold runs.
  assert.deepEqual(rows['float 1024'].repeats, []);
  assert.deepEqual(rows['float 2048'].repeats, []);
  assert.deepEqual(rows['float4 2048'].repeats, []);
});

test('a_run_is_judged_against_the_previous_one_by_the_same_rule', async () => {
  const run = (await lab.get('/api/runs/2')).json;
  assert.deepEqual(run.previous, { run: 1, url: '/runs/1', min_change_pct: 1 });
  assert.deepEqual(run.results.map((r) => r.previous && [r.previous.verdict, r.previous.change_pct === null ? null : Number(r.previous.change_pct.toFixed(6)), r.previous.median_ms]), [
    ['faster', -50, 1], ['slower', 100, 1], ['same', 0.5, 1], ['same', null, 0]]);
  // The verdict says what moved since, and what moved most.
  assert.deepEqual(run.verdict.since, { run: 1, faster: 1, slower: 1, most: run.verdict.since.most, sentence: run.verdict.since.sentence });
  assert.match(run.verdict.since.sentence, /^Since run #1, 1 result is faster beyond noise and 1 slower; \S+ moved most: 2\.00× (faster|slower) at n = \d+\.$/);
  assert.ok(run.verdict.sentence.endsWith(` ${run.verdict.since.sentence}`), run.verdict.sentence);
  assert.equal((await lab.get('/api/runs/1')).json.verdict.since, undefined, 'nothing before the first');
  const third = (await lab.get('/api/runs/3')).json;
  assert.equal(third.previous.run, 2, 'the latest earlier run');
  assert.deepEqual(third.results.map((r) => (r.previous ? r.previous.verdict : null)), ['slower', 'faster', null],
    'against the second run, not the first; the unverified result is not judged');
});

test('compare_names_missing_runs_and_refuses_bad_ids', async () => {
  const some = await lab.get('/api/compare?runs=3,99,1,3');
  assert.equal(some.status, 200);
  assert.deepEqual([some.json.runs, some.json.missing], [[3, 1], [99]]);
  assert.deepEqual(cells(some.json.rows[0]), [[3, null, null], [1, 'same', 0]], 'the first named run is the baseline');
  for (const [query, message] of [
    ['runs=1,x', /runs: 'x' is not allowed \(run ids, positive integers, separated by commas\)/],
    ['runs=0', /runs: '0' is not allowed/],
    ['', /runs: name the runs to compare/],
    [`runs=${Array.from({ length: 13 }, (_, i) => i + 1).join(',')}`, /at most 12 are compared at once/],
  ]) {
    const res = await lab.get(`/api/compare?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.json.error.field, 'runs');
    assert.match(res.json.error.message, message);
  }
  const none = await lab.get('/api/compare?runs=98,99');
  assert.deepEqual([none.json.runs, none.json.missing, none.json.rows], [[], [98, 99], []]);
});
