// A run that no online device can take is never left to wait unseen: POST
// /api/runs queues it all the same and says why it waits, its estimate says
// so before it is queued, and while it waits GET /api/runs/{id} says so as the
// devices are now — no device registered yet, the one it names offline, or
// every device of its kind offline — and nothing once one can take it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('waiting');
after(() => lab.close());

const small = { experiment: 'copy', params: { n: 4096 }, repeat: 2 };

test('a_run_no_online_device_can_take_says_why_it_waits', async () => {
  await lab.startServer();
  // No runner has registered a device.
  let res = await lab.post('/api/runs', small);
  assert.equal(res.status, 201, res.text);
  assert.match(res.json.warning, /no runner has registered a device yet: the run waits/);
  const first = res.json.id;
  let e = await lab.post('/api/runs/estimate', small);
  assert.equal(e.status, 200, e.text);
  assert.match(e.json.warning, /no runner has registered a device yet/);
  assert.match((await lab.get(`/api/runs/${first}`)).json.warning, /no runner has registered/);

  // A runner comes: it takes the waiting run, and a new request has nothing to warn of.
  await lab.startRunner();
  const device = (await lab.get('/api/devices')).json.devices[0].id;
  assert.equal((await lab.waitDone(first)).status, 'done');
  e = await lab.post('/api/runs/estimate', small);
  assert.equal(e.json.warning, null, e.text);
  res = await lab.post('/api/runs', small);
  assert.equal(res.json.warning, undefined, res.text);
  await lab.waitDone(res.json.id);

  // Its runner gone: each request says which device is offline and since when.
  await lab.stop(lab.runner);
  res = await lab.post('/api/runs', small);
  assert.equal(res.status, 201, res.text);
  assert.match(res.json.warning, new RegExp(`no online device can run it: no registered device that runs OpenCL is online \\(${device}'s runner last checked in at \\S+\\); the run waits`));
  const waiting = (await lab.get(`/api/runs/${res.json.id}`)).json;
  assert.equal(waiting.status, 'queued');
  assert.equal(waiting.warning, res.json.warning, 'the run says what its POST said');
  res = await lab.post('/api/runs', { ...small, device });
  assert.match(res.json.warning, new RegExp(`^device ${device} is offline \\(its runner last checked in at \\S+\\): the run waits in the queue until it returns$`));
  e = await lab.post('/api/runs/estimate', { ...small, device: 'cpu' });
  assert.match(e.json.warning, /no registered CPU that runs OpenCL is online/);

  // Back again: the waiting runs are taken and their warning goes.
  await lab.startRunner();
  const again = await lab.waitDone(res.json.id);
  assert.equal(again.status, 'done');
  assert.equal(again.warning, undefined, 'a run no longer waiting carries no warning');
});
