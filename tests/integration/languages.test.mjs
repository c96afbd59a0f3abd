// A run's language routes it: in a lab of two runners, one whose
// device runs CUDA (declared with the test-only --test-languages: on PoCL
// nothing runs it for real) and one whose device runs OpenCL alone, a CUDA
// run is never claimed by the OpenCL-only worker: it waits in the queue,
// the other worker passes it by for later OpenCL runs, and the device that
// runs CUDA takes it. A device named for a CUDA run that does not run CUDA
// is refused when the run is posted.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab, runToEnd } from './harness.mjs';

const lab = new Lab('languages');

before(async () => {
  await lab.startServer();
  await lab.startRunner(['--host-name', 'both', '--test-kernels', '--test-languages', 'opencl,cuda']);
  await lab.startRunner(['--host-name', 'plain']);
});
after(() => lab.close());

const device = async (prefix) => (await lab.get('/api/devices')).json.devices.find((d) => d.id.startsWith(prefix));

test('a_cuda_run_waits_for_a_device_that_runs_cuda', async () => {
  const both = await device('both-');
  const plain = await device('plain-');
  assert.deepEqual(both.languages, ['opencl', 'cuda']);
  assert.deepEqual(plain.languages, ['opencl']);
  // The CUDA device's worker held: only the OpenCL-only one can claim.
  const held = lab.workerPid(both.id);
  process.kill(held, 'SIGSTOP');
  let cuda;
  try {
    const res = await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 2, language: 'cuda', device: 'cpu' });
    assert.equal(res.status, 201, res.text);
    cuda = res.json.id;
    // Queued after it, an OpenCL run is served by the other device: it
    // passed the older CUDA run by.
    const later = await lab.postDone({ experiment: 'copy', params: { n: 4096 }, repeat: 2, device: plain.id });
    assert.equal(later.device.id, plain.id);
    const opencl = await lab.postDone({ experiment: 'copy', params: { n: 4096 }, repeat: 2, device: 'cpu' });
    assert.equal(opencl.device.id, plain.id, 'the OpenCL-only device took the run queued after the CUDA one');
    const waiting = (await lab.get(`/api/runs/${cuda}`)).json;
    assert.equal(waiting.status, 'queued', `the CUDA run waits: ${waiting.status} ${waiting.error || ''}`);
  } finally {
    process.kill(held, 'SIGCONT');
  }
  // The device that runs CUDA takes it (and, with no CUDA here, says why
  // it could not run it).
  const run = await lab.waitDone(cuda);
  assert.equal(run.device.id, both.id);
  assert.doesNotMatch(lab.logs.runner, new RegExp(`run ${cuda} \\(copy\\) started on ${plain.id}`));
});

test('a_cuda_run_pinned_to_a_device_that_does_not_run_cuda_is_refused', async () => {
  const plain = await device('plain-');
  const res = await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, language: 'cuda', device: plain.id });
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.error.field, 'device');
  assert.match(res.json.error.message, new RegExp(`^device: '${plain.id}' does not run CUDA \\(`));
});

test('test_languages_needs_the_test_flag', async () => {
  const { code, stderr } = await runToEnd('warplab-runner', ['--db', lab.db, '--test-languages', 'opencl,cuda']);
  assert.notEqual(code, 0);
  assert.match(stderr, /--test-languages is for warplab's own tests: give --test-kernels too/);
});
