// Where a runner's time goes. An idle runner is woken when a run is queued:
// with a poll of a minute (the longest allowed) it still ends each run in half
// of that (how soon, 20 ms is the goal, is bench/wake-latency.sh's
// to measure). A runner that is gone leaves no socket that breaks the server's
// post. A finished run records its time budget: builds, inputs and reference,
// transfers, launches, verification, store.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, waitFor } from './harness.mjs';

const lab = new Lab('runner-time');

before(async () => {
  await lab.startServer();
  await lab.startRunner(['--poll-ms', '60000']);
});
after(() => lab.close());

test('a_run_posted_to_an_idle_runner_starts_at_once', async () => {
  // The worker listens once its socket is there (a wake-up sent before it
  // waits is kept for it); each run then ends before the one-minute poll could
  // have found it, so only the wake-up can have started it.
  await waitFor(() => readdirSync(join(lab.dir, 'wake')).some((f) => f.endsWith('.sock')), 'the worker\'s socket');
  for (let i = 0; i < 3; i++) {
    const res = await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 1, cache: 'hot', variants: ['float'] });
    assert.equal(res.status, 201);
    const run = await lab.waitDone(res.json.id);
    assert.equal(run.status, 'done', run.error);
  }
});

test('a_gone_runner_leaves_nothing_that_breaks_posting', async () => {
  await lab.stop(lab.runner);
  const socks = () => readdirSync(join(lab.dir, 'wake')).filter((f) => f.endsWith('.sock'));
  assert.deepEqual(socks(), [], 'the worker removed its socket');
  const res = await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 1 });
  assert.equal(res.status, 201);
  assert.ok(existsSync(join(lab.dir, 'wake')));
});

test('a_finished_run_says_where_its_time_went', async () => {
  await lab.startRunner();
  const res = await lab.post('/api/runs', { experiment: 'transpose', params: { n: [256, 512] }, repeat: 3, cache: 'hot' });
  const run = await lab.waitDone(res.json.id);
  assert.equal(run.status, 'done', run.error);
  const b = run.budget;
  const keys = ['build_ms', 'inputs_ms', 'transfer_ms', 'launch_ms', 'verify_ms', 'store_ms', 'counters_ms', 'other_ms'];
  for (const k of [...keys, 'total_ms', 'kernel_ms']) assert.ok(b[k] >= 0, `${k}: ${b[k]}`);
  const sum = keys.reduce((a, k) => a + b[k], 0);
  assert.ok(Math.abs(sum - b.total_ms) <= 0.01 * b.total_ms + 1, `phases ${sum} ms, total ${b.total_ms} ms`);
  assert.ok(b.kernel_ms <= b.launch_ms, 'kernels run within their launches');
  assert.equal(b.counters_ms, 0, 'an OpenCL run reads no hardware counters');
  const samples = run.results.reduce((a, r) => a + r.median_ms * 0 + r.reps, 0);
  assert.ok(samples >= 10 && b.kernel_ms > 0);
  assert.ok(b.build_ms > 0 && b.inputs_ms > 0 && b.transfer_ms > 0 && b.verify_ms > 0 && b.store_ms > 0);
  const wall = Date.parse(run.finished_at) - Date.parse(run.started_at);
  assert.ok(b.total_ms <= wall + 50, `budget ${b.total_ms} ms within the run's ${wall} ms`);
});
