// What a run would cost before it is queued (POST /api/runs/estimate): the
// points, variants and measurements of a request checked as POST /api/runs
// checks it, the time at the pace of the device's last runs of the same
// experiment once there are some (before, the kernels' time by the model),
// and a hint to run copy first while the
// device has no copy ceiling (or none of the request's cache mode); a
// refusal in the body where asked for. Nothing is queued.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('estimate');
after(() => lab.close());

const ask = (body) => lab.post('/api/runs/estimate', body);

test('an_estimate_counts_the_request_and_times_it_from_the_devices_history', async () => {
  await lab.startServer();
  await lab.startRunner();
  const device = (await lab.get('/api/devices')).json.devices[0].id;
  // A fresh device: the counts, no time to go by, and copy first for a
  // bandwidth; the banks, in operations a second, have no use for its ceiling.
  let e = await ask({ experiment: 'banks' });
  assert.equal(e.status, 200, e.text);
  assert.deepEqual([e.json.points, e.json.variants, e.json.measurements, e.json.device], [64, 4, 256, device]);
  assert.equal(e.json.hint, null);
  e = await ask({ experiment: 'strided' });
  assert.match(e.json.hint, /run copy first and this run's bandwidths/);
  // No run to go by: no time for the whole run, but the kernels' by the
  // model, from the device's facts. It adds up as the sampling does: twice
  // the launches, twice the time; two points, the sum of each alone.
  assert.equal(e.json.estimate_s, null, e.text);
  assert.equal(e.json.history, null);
  assert.ok(e.json.kernels_s.least > 0 && e.json.kernels_s.most >= e.json.kernels_s.least, e.text);
  const copy = async (n, repeat, more = {}) =>
    (await ask({ experiment: 'copy', variants: ['float'], params: { n }, repeat, ...more })).json.kernels_s;
  const [one, twice, other, both] = [await copy(65536, 2), await copy(65536, 4), await copy(262144, 2), await copy([65536, 262144], 2)];
  const near = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9 * b, `${what}: ${a} against ${b}`);
  near(twice.least, 2 * one.least, 'twice the launches');
  near(both.least, one.least + other.least, 'two points');
  near(both.most, one.most + other.most, 'two points, at most');
  assert.ok(other.least > one.least, 'four times the bytes take longer');
  // At least: the launches of the first noise judgement (10); at most:
  // every one of repeat, where the budget is not spent first.
  const steady = await copy(65536, 100);
  near(steady.most, 10 * steady.least, 'repeat 100 against the first 10');
  near(steady.least, 2.5 * twice.least, '10 launches against 4');
  // A budget spent before the first judgement cuts the least as the most.
  const cut = await copy(67108864, 100, { budget_ms: 1 });
  assert.ok(cut.least <= cut.most, JSON.stringify(cut));
  near(cut.least, cut.most, 'the budget stops both');
  assert.equal((await lab.get('/api/runs')).json.runs.length, 0, 'nothing queued');
  // After a copy and a transpose run: the transpose pace, and no hint.
  await lab.waitDone((await lab.post('/api/runs', { experiment: 'copy', params: { n: 65536 }, repeat: 2 })).json.id);
  const t = await lab.waitDone((await lab.post('/api/runs', { experiment: 'transpose', params: { n: [64, 128] }, repeat: 2 })).json.id);
  e = await ask({ experiment: 'transpose', params: { n: [64, 128, 256, 512] }, repeat: 2 });
  assert.equal(e.status, 200, e.text);
  assert.deepEqual([e.json.points, e.json.variants, e.json.measurements], [4, 5, 20]);
  assert.equal(e.json.history.runs, 1);
  assert.equal(e.json.kernels_s, null, 'the pace goes by the runs');
  assert.equal(e.json.history.measurements, t.progress.total);
  const pace = (Date.parse(t.finished_at) - Date.parse(t.started_at)) / 1000 / t.progress.total;
  assert.ok(Math.abs(e.json.estimate_s - 20 * pace) < 1e-6 * Math.max(1, 20 * pace), `${e.json.estimate_s} against ${20 * pace}`);
  assert.equal(e.json.hint, null);
  // A hot run on a device whose copies ran cold: the cold ceiling stands in, and says so.
  e = await ask({ experiment: 'strided', cache: 'hot' });
  assert.equal(e.status, 200, e.text);
  assert.match(e.json.hint, /No hot copy run has finished on \S+ yet: .* share of the cold copies' ceiling/);
  // A request POST /api/runs would refuse is refused here the same way.
  e = await ask({ experiment: 'transpose', params: { n: 1000 } });
  assert.equal(e.status, 400);
  assert.equal(e.json.error.field, 'params.n');
  // Asked with ?refusal=body, as the run form asks while it is filled in,
  // the same refusal is an answer of 200 (no failed request in a console).
  const refused = await lab.post('/api/runs/estimate?refusal=body', { experiment: 'transpose', params: { n: 1000 } });
  assert.equal(refused.status, 200, refused.text);
  assert.deepEqual(refused.json, { refused: { status: 400, ...e.json.error } });
  e = await lab.post('/api/runs/estimate?refusal=json', { experiment: 'copy' });
  assert.equal(e.status, 400);
  assert.equal(e.json.error.field, 'refusal');
  assert.match(e.json.error.message, /^refusal: "json" is not allowed \("body": /);
  assert.equal((await lab.get('/api/runs/estimate')).status, 405);
});
