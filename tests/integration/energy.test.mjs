// Energy per useful byte on PoCL, where no device has an energy
// counter: a run that asks for energy ("energy": true) measures and verifies
// as any other, and each result says energy null with the runner's reason —
// in the JSON, the CSV's energy columns (empty, the reason in energy_error)
// and the compare table's cells; a run that does not ask says nothing of
// energy; "energy" other than true or false is refused naming the field.
// The measured figures are the H100's (tests/e2e/energy_h100.test.mjs).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('energy');
const BODY = { experiment: 'copy', params: { n: 4096 }, repeat: 2 };
const ENERGY_COLUMNS = ['energy_j_per_launch', 'energy_avg_w', 'energy_idle_w', 'energy_pj_per_useful_byte',
  'energy_pj_per_moved_byte', 'energy_throttled', 'energy_nj_per_op', 'energy_pj_per_useful_byte_above_idle',
  'energy_moved_bytes', 'energy_moved_bytes_from', 'energy_error'];
// The runner's words where the device has no energy counter (runner/exec/energy.c).
const NO_COUNTER = /^no energy counter on \S+ \(not an NVIDIA GPU\)$/;
let asked;
let plain;

before(async () => {
  await lab.startServer();
  await lab.startRunner();
  asked = await lab.postDone({ ...BODY, energy: true });
  plain = await lab.postDone(BODY);
});
after(() => lab.close());

test('energy_on_pocl_is_null_with_the_reason', () => {
  assert.equal(asked.request.energy, true);
  assert.ok(asked.results.length > 0);
  for (const r of asked.results) {
    assert.ok(r.verified, r.error);
    assert.equal(r.energy, null, JSON.stringify(r.energy));
    assert.match(r.energy_error, NO_COUNTER);
  }
  assert.equal(typeof asked.budget.energy_ms, 'number', JSON.stringify(asked.budget));
  assert.equal(asked.verdict.frugal, null);
  assert.doesNotMatch(asked.verdict.sentence, /energy/);
});

test('a_run_without_energy_says_nothing_of_it', () => {
  assert.equal(plain.request.energy, false);
  for (const r of plain.results) {
    assert.equal(r.energy, null);
    assert.ok(!('energy_error' in r), JSON.stringify(r));
  }
});

test('energy_other_than_true_or_false_is_refused_naming_the_field', async () => {
  for (const [value, shown] of [['yes', "'yes'"], [1, 'an integer'], ['true', "'true'"]]) {
    for (const path of ['/api/runs', '/api/runs/estimate']) {
      const res = await lab.post(path, { ...BODY, energy: value });
      assert.equal(res.status, 400, `${path} ${JSON.stringify(value)}: ${res.text}`);
      assert.equal(res.json.error.code, 'invalid_field');
      assert.equal(res.json.error.field, 'energy');
      assert.ok(res.json.error.message.startsWith(`energy: ${shown} is not allowed`), res.json.error.message);
      assert.match(res.json.error.message, /true.*false/);
    }
  }
});

// The CSV's energy columns come in the documented order; on PoCL
// their figures are empty and energy_error gives the reason — only where
// the run asked.
test('csv_has_the_energy_columns_empty_on_pocl', async () => {
  for (const run of [asked, plain]) {
    const res = await lab.get(`/api/runs/${run.id}/results.csv`, { raw: true });
    assert.equal(res.status, 200);
    const [head, ...rows] = res.text.trim().split('\r\n').map((l) => l.split(','));
    // After them only a tuning run's rank and who measured the row.
    const at = head.indexOf(ENERGY_COLUMNS[0]);
    assert.deepEqual(head.slice(at, at + ENERGY_COLUMNS.length), ENERGY_COLUMNS);
    assert.deepEqual(head.slice(at + ENERGY_COLUMNS.length), ['tuning_rank', 'tuning_predicted_ms', 'runner_id', 'device_id', 'predicted_groups_ms', 'predicted_drain_ms']);
    assert.equal(rows.length, run.results.length);
    for (const row of rows) {
      const cells = row.slice(at, at + ENERGY_COLUMNS.length);
      assert.deepEqual(cells.slice(0, -1), Array(ENERGY_COLUMNS.length - 1).fill(''), row.join(','));
      if (run === asked) assert.match(cells[cells.length - 1], NO_COUNTER);
      else assert.equal(cells[cells.length - 1], '');
    }
  }
});

test('compare_cells_say_energy_null_and_why', async () => {
  const res = await lab.get(`/api/compare?runs=${asked.id},${plain.id}`);
  assert.equal(res.status, 200);
  assert.ok(res.json.rows.length > 0);
  for (const row of res.json.rows) {
    for (const cell of row.cells) {
      assert.equal(cell.energy, null);
      if (cell.run === asked.id) assert.match(cell.energy_error, NO_COUNTER);
      else assert.ok(!('energy_error' in cell), JSON.stringify(cell));
    }
  }
});
