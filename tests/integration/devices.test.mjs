// One worker per device: with two PoCL devices (POCL_DEVICES="pthread
// pthread"), two runs execute at the same time, a hung kernel on one device
// does not hold up the other, killing one device's worker requeues only its
// run, and /api/devices says what each device is doing.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('devices');
const kernels = lab.kernelsWithSpin();
let ids = [];

const RUNNER = ['--kernels', kernels, '--test-kernels'];
const TWO = { env: { POCL_DEVICES: 'pthread pthread' }, devices: 2 };

before(async () => {
  await lab.startServer(['--catalog', join(kernels, 'catalog.json')]);
  await lab.startRunner(RUNNER, TWO);
  ids = (await lab.get('/api/devices')).json.devices.map((d) => d.id);
});
after(() => lab.close());

const t = (s) => Date.parse(s);
const sweep = { experiment: 'transpose', params: { n: { from: 256, to: 1536, step: 256 } }, repeat: 10 };

test('two_devices_register_under_one_runner_each_with_its_own_worker', async () => {
  const devices = (await lab.get('/api/devices')).json.devices;
  assert.equal(devices.length, 2);
  assert.equal(devices[0].runner, devices[1].runner);
  assert.ok(devices.every((d) => d.online && d.state === 'idle' && d.running === null));
  assert.notEqual(lab.workerPid(ids[0]), lab.workerPid(ids[1]));
});

test('two_runs_queued_for_any_cpu_run_at_once_on_both_devices', async () => {
  const a = (await lab.post('/api/runs', { ...sweep, device: 'cpu' })).json.id;
  const b = (await lab.post('/api/runs', { ...sweep, device: 'cpu' })).json.id;
  // While both run, each device says which run it executes.
  await lab.waitRun(b, (r) => r.status !== 'queued');
  const busy = (await lab.get('/api/devices')).json.devices;
  const [ra, rb] = [await lab.waitDone(a), await lab.waitDone(b)];
  assert.equal(ra.status, 'done', ra.error);
  assert.equal(rb.status, 'done', rb.error);
  assert.notEqual(ra.device.id, rb.device.id, 'one run per device');
  assert.ok(t(ra.started_at) < t(rb.finished_at) && t(rb.started_at) < t(ra.finished_at),
    `the runs overlap in time: ${ra.started_at}..${ra.finished_at} and ${rb.started_at}..${rb.finished_at}`);
  assert.ok(busy.some((d) => d.state === 'running' && [a, b].includes(d.running)), JSON.stringify(busy));
});

test('a_hung_kernel_on_one_device_does_not_delay_the_other', async () => {
  await lab.withDeadline(RUNNER, TWO, async (seconds) => {
    const hung = (await lab.post('/api/runs', { experiment: 'test_spin', repeat: 1, device: ids[0] })).json.id;
    await lab.waitRun(hung, (r) => r.status === 'running');
    const next = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 2, device: 'cpu' })).json.id;
    const served = await lab.waitDone(next, 300000);
    assert.equal(served.status, 'done', served.error);
    assert.equal(served.device.id, ids[1]);
    const spun = await lab.waitDone(hung, 300000);
    assert.equal(spun.status, 'failed');
    assert.match(spun.error, new RegExp(`^timed out after ${seconds} s`));
    assert.ok(t(served.finished_at) < t(spun.finished_at), 'served while the other device hung');
    // The hung device's worker was replaced; the device serves again.
    const again = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 2, device: ids[0] })).json.id;
    assert.equal((await lab.waitDone(again, 300000)).status, 'done');
  });
});

test('killing_one_devices_worker_requeues_only_its_run', async () => {
  const long = { ...sweep, params: { n: { from: 512, to: 2560, step: 256 } } };
  const a = (await lab.post('/api/runs', { ...long, device: ids[0] })).json.id;
  const b = (await lab.post('/api/runs', { ...long, device: ids[1] })).json.id;
  await lab.waitRun(a, (r) => r.status === 'running' && r.progress.done >= 1);
  await lab.waitRun(b, (r) => r.status === 'running');
  const other = lab.workerPid(ids[1]);
  process.kill(lab.workerPid(ids[0]), 'SIGKILL');
  const [ra, rb] = [await lab.waitDone(a, 300000), await lab.waitDone(b, 300000)];
  assert.equal(ra.status, 'done', ra.error);
  assert.equal(ra.attempts, 2, 'the killed worker\'s run ran again');
  assert.equal(rb.status, 'done', rb.error);
  assert.equal(rb.attempts, 1, 'the other device\'s run was not touched');
  assert.equal(lab.workerPid(ids[1]), other, 'the other worker kept running');
  assert.ok(ra.results.every((r) => r.verified) && rb.results.every((r) => r.verified));
});

test('each_device_says_its_languages_and_a_cuda_run_is_refused_with_why', async () => {
  const devices = (await lab.get('/api/devices')).json.devices;
  for (const d of devices) {
    assert.deepEqual(d.languages, ['opencl'], JSON.stringify(d));
    assert.equal(d.cuda.available, false);
    assert.equal(d.cuda.reason, 'not an NVIDIA GPU');
    assert.equal(d.counters.available, false);
    assert.match(d.counters.reason, /^no CUDA: /);
  }
  const before = (await lab.get('/api/runs')).json.runs.length;
  for (const body of [
    { experiment: 'copy', language: 'cuda' },
    { experiment: 'copy', kernels: [{ name: 'mine', like: 'float', language: 'cuda',
      source: 'extern "C" __global__ void copy_float(const float *in, float *out, unsigned n) {}' }] },
  ]) {
    const res = await lab.post('/api/runs', body);
    assert.equal(res.status, 422, res.text);
    assert.equal(res.json.error.code, 'device_limit');
    assert.equal(res.json.error.field, 'language');
    assert.match(res.json.error.message, /^language: no registered device runs CUDA \(.*not an NVIDIA GPU/);
    assert.ok(res.json.error.message.includes(ids[0]), res.json.error.message);
  }
  // An OpenCL run says so in its request.
  const id = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 2, device: 'cpu' })).json.id;
  assert.equal((await lab.waitDone(id)).request.language, 'opencl');
  assert.equal((await lab.get('/api/runs')).json.runs.length, before + 1, 'nothing queued for the refusals');
});
