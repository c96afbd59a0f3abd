// One policy for a lost context, whatever the backend: a launch
// that loses the device's context fails its own result, naming the error;
// the backend resets the device and the run goes on with the variants and
// points after it, in the same worker. Where the context cannot be reset
// in the process (CUDA keeps some errors for the process), the worker says
// why and exits, its supervisor fails the run and starts a fresh worker,
// and the next run is served. On PoCL the test backend of the test-only
// --test-lose-context loses it (the first timed launch of a custom kernel).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('lost-context');

before(async () => {
  await lab.startServer();
});
after(() => lab.close());

async function mine() {
  const res = await lab.get('/api/experiments/transpose/variants/padded/source');
  assert.equal(res.status, 200, res.text);
  return res.json.template.replace('mtran_padded', 'mine');
}

async function queue(body) {
  const res = await lab.post('/api/runs', body);
  assert.equal(res.status, 201, res.text);
  return res.json.id;
}

const device = async () => (await lab.get('/api/devices')).json.devices[0].id;

test('a_lost_context_fails_its_result_and_the_run_goes_on_in_the_same_worker', async () => {
  await lab.startRunner(['--test-kernels', '--test-lose-context', '1']);
  const dev = await device();
  const pid = lab.workerPid(dev);
  const id = await queue({
    experiment: 'transpose', params: { n: [64, 128] }, repeat: 2, variants: ['naive', 'padded'],
    kernels: [{ name: 'mine', like: 'padded', source: await mine() }],
  });
  const run = await lab.waitDone(id, 120000);
  assert.equal(run.status, 'done', run.error);
  const at = (variant, n) => run.results.find((r) => r.variant === variant && r.params.n === n);
  assert.match(at('mine', 64).error, /context is lost \(CUDA_ERROR_ILLEGAL_ADDRESS/, 'the lost launch fails its own result');
  assert.ok(at('mine', 128).verified, 'after the reset the same kernel runs and verifies at the next point');
  for (const n of [64, 128]) for (const v of ['naive', 'padded']) assert.ok(at(v, n).verified, `${v} at n=${n}`);
  assert.equal(lab.workerPid(dev), pid, 'no new worker: the device was reset in the process');
  assert.doesNotMatch(lab.logs.runner, /the device process restarts/);
  await lab.stop(lab.runner);
});

test('a_context_that_stays_lost_fails_the_run_and_a_fresh_worker_serves_the_next', async () => {
  await lab.startRunner(['--test-kernels', '--test-lose-context', '1', '--test-context-stays-lost']);
  const dev = await device();
  const pid = lab.workerPid(dev);
  const id = await queue({
    experiment: 'transpose', params: { n: [64, 128] }, repeat: 2, variants: ['naive'],
    kernels: [{ name: 'mine', like: 'padded', source: await mine() }],
  });
  const next = await queue({ experiment: 'copy', params: { n: 4096 }, repeat: 2 });
  const run = await lab.waitDone(id, 120000);
  assert.equal(run.status, 'failed');
  assert.match(run.error, /lost the device's context and it could not be reset in the process/);
  assert.equal(run.attempts, 1, 'not retried');
  assert.ok(run.results.some((r) => r.variant === 'naive' && r.verified), 'the built-in measured before it stays');
  assert.match(lab.logs.runner, /cannot be used again in this process: the device's context stays lost/);
  const served = await lab.waitDone(next, 120000);
  assert.equal(served.status, 'done', served.error);
  assert.notEqual(lab.workerPid(dev), pid, 'a fresh worker');
  assert.equal(lab.runner.exitCode, null, 'the runner is still up');
});

test('the_test_backend_needs_the_test_flag', async () => {
  const { runToEnd } = await import('./harness.mjs');
  const { code, stderr } = await runToEnd('warplab-runner', ['--db', lab.db, '--test-lose-context', '1']);
  assert.notEqual(code, 0);
  assert.match(stderr, /--test-lose-context is for warplab's own tests: give --test-kernels too/);
});
