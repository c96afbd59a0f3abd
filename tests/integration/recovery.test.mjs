// Runs survive their runner: a run whose runner is killed mid-way is put back in
// the queue when a runner starts again and then completes; a runner asked to
// stop requeues its run; runs queued while no runner is up run when one comes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('recovery');
// Long enough on PoCL to be caught mid-way (several seconds): 11 sizes x 5 variants.
const LONG = { experiment: 'transpose', params: { n: { from: 512, to: 3072, step: 256 } }, repeat: 10 };

before(() => lab.startServer());
after(() => lab.close());

test('recovers_run_after_runner_kill', async () => {
  await lab.startRunner();
  const id = (await lab.post('/api/runs', LONG)).json.id;
  await lab.waitRun(id, (r) => r.status === 'running' && r.progress.done >= 1);
  await lab.stop(lab.runner, 'SIGKILL');
  let run = (await lab.get(`/api/runs/${id}`)).json;
  assert.equal(run.status, 'running', 'a killed runner leaves the run running until recovery');

  await lab.startRunner();
  run = await lab.waitDone(id, 300000);
  assert.equal(run.status, 'done', run.error);
  assert.equal(run.attempts, 2, 'the killed attempt counts');
  assert.equal(run.requeues, 1);
  assert.equal(run.results.length, run.progress.total, 'results of the dead attempt were dropped, not doubled');
  assert.ok(run.results.every((r) => r.verified), 'every point verified');
  assert.match(lab.logs.runner, /recovered runs left by a dead runner: 1 requeued/);
});

test('requeues_run_when_runner_is_stopped', async () => {
  const id = (await lab.post('/api/runs', LONG)).json.id;
  await lab.waitRun(id, (r) => r.status === 'running' && r.progress.done >= 1);
  const code = await lab.stop(lab.runner, 'SIGTERM');
  assert.equal(code, 0, 'a stopped runner exits cleanly');
  const run = (await lab.get(`/api/runs/${id}`)).json;
  assert.equal(run.status, 'queued', 'the run went back to the queue');
  assert.equal(run.progress.done, 0);
  assert.equal(run.results.length, 0);
  const devices = (await lab.get('/api/devices')).json.devices;
  assert.ok(devices.every((d) => !d.online), 'a stopped runner\'s devices are offline');
  // Cancel it so the next test starts with an empty queue.
  assert.equal((await lab.post(`/api/runs/${id}/cancel`)).json.status, 'cancelled');
});

test('runs_queued_while_runner_down_run_when_it_returns', async () => {
  const a = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 65536 }, repeat: 2 })).json.id;
  const b = (await lab.post('/api/runs', { experiment: 'transpose', variants: ['padded'], params: { n: 256 }, repeat: 2 })).json.id;
  assert.equal((await lab.get(`/api/runs/${a}`)).json.status, 'queued');
  await lab.startRunner();
  for (const id of [a, b]) {
    const run = await lab.waitDone(id);
    assert.equal(run.status, 'done', run.error);
    assert.ok(run.results.every((r) => r.verified));
  }
});

test('cancels_a_running_run_after_its_current_point', async () => {
  const id = (await lab.post('/api/runs', LONG)).json.id;
  await lab.waitRun(id, (r) => r.status === 'running' && r.progress.done >= 1);
  const res = await lab.post(`/api/runs/${id}/cancel`);
  assert.equal(res.status, 200);
  const run = await lab.waitDone(id);
  assert.equal(run.status, 'cancelled');
  assert.ok(run.progress.done < run.progress.total, 'it stopped early');
  assert.ok(run.results.length > 0, 'the finished points are kept');
  // Its verdict says how far it got, not as if the run were whole.
  const v = run.verdict;
  const seen = new Set(run.results.map((r) => JSON.stringify(r.params))).size;
  assert.equal(v.points_seen, seen);
  assert.equal(v.points_total, 11, 'n from 512 to 3072 by 256');
  assert.ok(v.sentence.startsWith(`Cancelled after ${seen} of 11 points: `), v.sentence);
});

test('a_cancel_cuts_a_long_point_short', async () => {
  // One point of three variants, each sampled for up to a minute: without a
  // cut the run would end done, its one point whole.
  const id = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 16777216 }, repeat: 10000, noise: 0.0001, budget_ms: 60000 })).json.id;
  await lab.waitRun(id, (r) => r.status === 'running');
  assert.equal((await lab.post(`/api/runs/${id}/cancel`)).status, 200);
  const run = await lab.waitDone(id);
  assert.equal(run.status, 'cancelled', run.error);
  assert.equal(run.error, 'cancelled while running');
  assert.ok(run.progress.done < 3, `the point was cut short: ${run.progress.done} of 3 variants measured`);
  assert.ok(run.results.every((r) => r.verified), 'what was measured before the cut stands, verified');
});
