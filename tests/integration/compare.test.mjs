// One verdict, judged by the server: GET /api/compare and a run's "previous"
// say faster, slower or the same within noise by the one rule
// (server/regressions.c), here on three runs of fixed figures
// (tests/fixtures/compare-runs.jsonl) so every expected value is written down.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('compare');
before(async () => {
  lab.importStore('tests/fixtures/compare-runs.jsonl');
  await lab.startServer();
});
after(() => lab.close());

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
  // A zero baseline: no relative change, and not faster or slower by it.
  assert.deepEqual(cells(z), [[1, null, null], [2, 'same', null]]);
  assert.equal(z.fastest, 1);
});

test('a_run_is_judged_against_the_previous_one_by_the_same_rule', async () => {
  const run = (await lab.get('/api/runs/2')).json;
  assert.deepEqual(run.previous, { run: 1, url: '/runs/1', min_change_pct: 1 });
  assert.deepEqual(run.results.map((r) => r.previous && [r.previous.verdict, r.previous.change_pct === null ? null : Number(r.previous.change_pct.toFixed(6)), r.previous.median_ms]), [
    ['faster', -50, 1], ['slower', 100, 1], ['same', 0.5, 1], ['same', null, 0]]);
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
