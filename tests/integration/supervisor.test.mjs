// The runner's supervisor: a kernel that never ends is stopped at its point's
// deadline, the run fails "timed out", and a fresh worker serves the next run; a
// worker that dies mid-run has its run requeued; a runner that falls silent is
// shown offline. The hanging kernel is a test-only experiment, refused unless
// the runner is started with --test-kernels.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, runToEnd, waitFor } from './harness.mjs';

const lab = new Lab('supervisor');
const kernels = lab.kernelsWithSpin();

before(async () => {
  // The repository's kernels plus the test-only spinning one.
  await lab.startServer(['--catalog', join(kernels, 'catalog.json'), '--heartbeat', '3']);
});
after(() => lab.close());

test('refuses_test_only_experiments_without_the_test_flag', async () => {
  const { code, stderr } = await runToEnd('warplab-runner', ['--db', lab.db, '--kernels', kernels]);
  assert.notEqual(code, 0);
  assert.match(stderr, /'test_spin', which exists for warplab's own tests only/);
});

const RUNNER = ['--kernels', kernels, '--test-kernels', '--heartbeat', '3'];

test('hung_point_times_out_and_the_runner_serves_the_next_run', async () => {
  await lab.startRunner(RUNNER);
  await lab.withDeadline(RUNNER, {}, async (seconds) => {
    const hung = (await lab.post('/api/runs', { experiment: 'test_spin', repeat: 1 })).json.id;
    const next = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 2 })).json.id;
    const run = await lab.waitDone(hung, 300000);
    assert.equal(run.status, 'failed');
    assert.match(run.error, new RegExp(`^timed out after ${seconds} s`));
    // Stopped by its deadline, not by anything later.
    assert.match(lab.logs.runner, new RegExp(`overran its ${seconds} s; killing the worker`));
    const served = await lab.waitDone(next, 300000);
    assert.equal(served.status, 'done', served.error);
    assert.ok(served.results.every((r) => r.verified));
    assert.equal(lab.runner.exitCode, null, 'the runner itself is still up');
  });
});

test('worker_killed_mid_run_has_its_run_requeued_and_finished', async () => {
  const id = (await lab.post('/api/runs', { experiment: 'transpose', params: { n: { from: 512, to: 3072, step: 256 } }, repeat: 10 })).json.id;
  await lab.waitRun(id, (r) => r.status === 'running' && r.progress.done >= 1);
  process.kill(lab.workerPid(), 'SIGKILL');
  const run = await lab.waitDone(id, 300000);
  assert.equal(run.status, 'done', run.error);
  assert.equal(run.attempts, 2);
  assert.equal(run.results.length, run.progress.total);
  assert.ok(run.results.every((r) => r.verified));
  assert.match(lab.logs.runner, new RegExp(`run ${id} requeued: the runner's device process was killed by signal 9`));
});

test('silent_runner_is_shown_offline_and_back_when_it_wakes', async () => {
  const devices = async () => (await lab.get('/api/devices')).json.devices;
  assert.ok((await devices()).every((d) => d.online));
  // Each state is waited for as the API says it, not after a time.
  process.kill(lab.runner.pid, 'SIGSTOP');
  try {
    await waitFor(async () => (await devices()).every((d) => !d.online), 'offline without heartbeats');
    const health = (await lab.get('/api/health')).json;
    assert.equal(health.runners_online, 0);
  } finally {
    process.kill(lab.runner.pid, 'SIGCONT');
  }
  await waitFor(async () => (await devices()).every((d) => d.online), 'back online once it beats again');
});
