// The lab store: one PostgreSQL server behind two servers and two runners on
// different --host-name, as a lab of GPU hosts would run them. Runs are
// queued, shared between the hosts without any running twice or being lost,
// read back (paging, CSV) through either server, cancelled and refused at the
// queue limit; a change made through one server reaches the live stream of
// the other (PostgreSQL's NOTIFY); a runner killed mid-run has its run
// finished by the other host.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';
import { openStream } from './sse.mjs';

const lab = new Lab('postgres', { store: 'postgres' });
const SMALL = { experiment: 'copy', variants: ['float'], params: { n: 65536 }, repeat: 2 };
// Several seconds on PoCL, to be caught mid-way.
const LONG = { experiment: 'transpose', params: { n: { from: 512, to: 3072, step: 256 } }, repeat: 10 };
let runnerA, runnerB;

before(async () => {
  await lab.startServer();
  // --heartbeat 3: a dead host's run is noticed within seconds.
  runnerA = await lab.startRunner(['--host-name', 'gpu-a', '--heartbeat', '3']);
  runnerB = await lab.startRunner(['--host-name', 'gpu-b', '--heartbeat', '3']);
});
after(() => lab.close());

test('each_hosts_devices_are_listed_with_their_host', async () => {
  const devices = (await lab.get('/api/devices')).json.devices;
  const hosts = new Set(devices.map((d) => d.host));
  assert.deepEqual([...hosts].sort(), ['gpu-a', 'gpu-b'], JSON.stringify(devices));
  for (const d of devices) {
    assert.ok(d.id.startsWith(`${d.host}-`), `device ids begin with their host: ${d.id}`);
    assert.equal(d.online, true);
    assert.ok(d.last_seen, 'last heartbeat shown');
  }
});

test('forty_runs_are_shared_between_hosts_none_twice_none_lost', async () => {
  const ids = [];
  for (let i = 0; i < 40; i++) {
    const res = await lab.post('/api/runs', SMALL);
    assert.equal(res.status, 201, res.text);
    ids.push(res.json.id);
  }
  const hosts = new Set();
  for (const id of ids) {
    const run = await lab.waitDone(id);
    assert.equal(run.status, 'done', run.error);
    assert.equal(run.attempts, 1, `run ${id} ran once`);
    assert.equal(run.requeues, 0);
    assert.equal(run.results.length, run.progress.total, `run ${id} holds each result once`);
    assert.ok(run.results.every((r) => r.verified));
    // The copy ceiling on PostgreSQL: the best of the device's recent cold
    // copies as of this run's end, its own among them.
    assert.equal(run.ceiling?.cache, 'cold', JSON.stringify(run.ceiling));
    assert.ok(run.ceiling.gbps >= run.results[0].gbps * (1 - 1e-9), `${run.ceiling.gbps} against ${run.results[0].gbps}`);
    hosts.add(run.device.id.split('-')[0] + '-' + run.device.id.split('-')[1]);
  }
  assert.deepEqual([...hosts].sort(), ['gpu-a', 'gpu-b'], 'both hosts ran some');
});

test('pages_csv_and_a_second_server_read_the_same_history', async () => {
  const page1 = (await lab.get('/api/runs?limit=5')).json;
  assert.equal(page1.runs.length, 5);
  const page2 = (await lab.get(page1.next)).json;
  assert.ok(page2.runs[0].id < page1.runs[4].id, 'the next page continues below the last id');
  const done = page1.runs[0];
  const csv = await lab.get(`/api/runs/${done.id}/results.csv`, { raw: true });
  assert.equal(csv.status, 200);
  assert.match(csv.text.split('\r\n')[1], /^float,/);

  // A second server on the same database answers the same, and its queue
  // limit counts the runs the first one queued.
  const first = lab.base;
  await lab.startServer(['--queue-limit', '1']);
  const second = lab.base;
  assert.notEqual(first, second);
  const same = (await lab.get(`/api/runs/${done.id}`)).json;
  assert.equal(same.id, done.id);
  assert.equal(same.results.length, done.progress.total);
  await lab.stop(runnerA);
  await lab.stop(runnerB);
  const queued = await lab.post('/api/runs', SMALL);
  assert.equal(queued.status, 201, queued.text);
  const full = await lab.post('/api/runs', SMALL);
  assert.equal(full.status, 429, full.text);
  assert.equal(full.json.error.code, 'queue_full');
  // The first server's status stream hears of the second one's cancel.
  const stream = openStream(first, '/api/events');
  await stream.ready;
  const cancelled = await lab.post(`/api/runs/${queued.json.id}/cancel`);
  assert.equal(cancelled.json.status, 'cancelled');
  await stream.until((x) => x.events.some((e) => e.event === 'run' && e.data.id === queued.json.id &&
    e.data.status === 'cancelled'), 5000);
  stream.close();
  lab.base = first;
  assert.equal((await lab.get(`/api/runs/${queued.json.id}`)).json.status, 'cancelled',
    'the first server sees the second one\'s cancel');
});

test('a_killed_hosts_run_is_finished_by_the_other_host', async () => {
  runnerA = await lab.startRunner(['--host-name', 'gpu-a', '--heartbeat', '3']);
  const id = (await lab.post('/api/runs', LONG)).json.id;
  let run = await lab.waitRun(id, (r) => r.status === 'running' && r.progress.done >= 1);
  assert.ok(run.device.id.startsWith('gpu-a-'));
  runnerB = await lab.startRunner(['--host-name', 'gpu-b', '--heartbeat', '3']);
  await lab.stop(runnerA, 'SIGKILL');
  run = await lab.waitDone(id, 300000);
  assert.equal(run.status, 'done', run.error);
  assert.ok(run.device.id.startsWith('gpu-b-'), `finished on the other host: ${run.device.id}`);
  assert.equal(run.attempts, 2, 'the killed attempt counts');
  assert.equal(run.requeues, 1);
  assert.equal(run.results.length, run.progress.total, 'results of the dead attempt were dropped');
  assert.match(lab.logs.runner, /recovered runs left by a dead runner: 1 requeued/);
});
