// One tuning run measured by two runners on one store, as two hosts with
// the same model of device would: the runner that claims it opens its
// configurations, the other, idle, joins it and takes them one at a time;
// each configuration is measured once, every result says which runner and
// device measured it, and the run reads as one. A runner killed while it
// measures gives its configurations back, and the other finishes the run; a
// cancel ends the run on both, which then serve the next run.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('tuning_shared');
// 3 sizes x 11 allowed configurations: several seconds of builds and
// launches on PoCL, while an idle runner looks at the store every 100 ms.
const REQUEST = {
  experiment: 'transpose', variants: ['tiled'], repeat: 3,
  params: { n: [128, 256, 384], tile: [8, 16, 32], rows: [1, 2, 4, 8, 16] },
  restrict: ['tile * rows <= 128'], tune: { params: ['tile', 'rows'] },
};
// The same space, each configuration many times longer, for the runs after
// the first: their programs are built by then, so the short request's last
// configurations could be measured before a kill or a cancel made once both
// hosts have measured some of it, or before the idle host joined at all.
const LONG = { ...REQUEST, repeat: 20, params: { ...REQUEST.params, n: [1024, 2048, 3072] } };
const key = (r) => `${r.params.n}:${r.params.tile}x${r.params.rows}`;
const host = (r) => r.device_id.split('-').slice(0, 2).join('-');
const runners = {};
let killed;

before(async () => {
  await lab.startServer();
  // --heartbeat 3: a runner that is gone is noticed within seconds.
  runners['gpu-a'] = await lab.startRunner(['--host-name', 'gpu-a', '--heartbeat', '3']);
  runners['gpu-b'] = await lab.startRunner(['--host-name', 'gpu-b', '--heartbeat', '3']);
});
after(() => lab.close());

// Each configuration once, all verified, in the points' order.
function assertWhole(run) {
  assert.equal(run.status, 'done', run.error);
  assert.equal(run.results.length, run.progress.total);
  assert.equal(run.results.length, 33, JSON.stringify(run.results.map(key)));
  assert.equal(new Set(run.results.map(key)).size, 33, 'no configuration measured twice');
  for (const r of run.results) assert.equal(r.verified, true, `${key(r)}: ${r.error}`);
  const seqs = run.results.map((r) => r.seq);
  assert.deepEqual(seqs, seqs.map((_, i) => i + 1), 'the results hold the points in order');
}

test('two_runners_share_one_tuning_runs_configurations', async () => {
  const run = await lab.postDone(REQUEST);
  assertWhole(run);
  const ids = new Set(run.results.map((r) => r.runner_id));
  assert.equal(ids.size, 2, `results from both runners: ${JSON.stringify(run.results.map((r) => r.device_id))}`);
  assert.deepEqual([...new Set(run.results.map(host))].sort(), ['gpu-a', 'gpu-b']);
  assert.equal(run.tuning.sizes.length, 3);
  for (const size of run.tuning.sizes) assert.equal(size.configurations, 11);
});

test('a_runner_killed_mid_run_leaves_its_configurations_to_the_other', async () => {
  const res = await lab.post('/api/runs', LONG);
  assert.equal(res.status, 201, res.text);
  // Once the host that joined has measured one, it is killed with the rest
  // to do; the host that holds the run measures what it left.
  const helperOf = (r) => (host({ device_id: r.device.id }) === 'gpu-a' ? 'gpu-b' : 'gpu-a');
  const started = await lab.waitRun(res.json.id, (r) => r.status !== 'queued' && (r.status !== 'running' ||
    r.results?.some((x) => host(x) === helperOf(r))));
  assert.equal(started.status, 'running', 'the run was still running when the helper had measured one');
  killed = helperOf(started);
  runners[killed].kill('SIGKILL');
  const run = await lab.waitRun(res.json.id, (r) => !['queued', 'running'].includes(r.status), 180000);
  assertWhole(run);
  assert.equal(run.requeues, 0, 'the run went on, not again from the start');
  assert.ok(run.results.some((r) => host(r) === helperOf(run)), 'what the helper measured before it was killed stays');
});

test('a_cancel_ends_a_shared_run_on_both_runners', async () => {
  if (killed) runners[killed] = await lab.startRunner(['--host-name', killed, '--heartbeat', '3']);
  const res = await lab.post('/api/runs', LONG);
  assert.equal(res.status, 201, res.text);
  // Cancelled once both hosts have measured some of it.
  await lab.waitRun(res.json.id, (r) => r.status !== 'queued' && new Set((r.results ?? []).map(host)).size === 2);
  assert.equal((await lab.post(`/api/runs/${res.json.id}/cancel`, {})).status, 200);
  const run = await lab.waitRun(res.json.id, (r) => !['queued', 'running'].includes(r.status));
  assert.equal(run.status, 'cancelled', run.error);
  assert.ok(run.results.length < run.progress.total, `cancelled before the end: ${run.results.length} of ${run.progress.total}`);
  // Neither runner is left inside it: the next runs are served.
  const next = await Promise.all([1, 2].map(() => lab.postDone({ experiment: 'copy', variants: ['float'], params: { n: 65536 }, repeat: 2 })));
  for (const r of next) assert.equal(r.status, 'done');
});
