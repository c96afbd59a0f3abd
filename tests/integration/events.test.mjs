// Live updates pushed: a run's stream carries every result in order and then
// its final status and ends; a client that reconnects with Last-Event-ID
// misses nothing; the status stream tells the home page of every run's
// changes, also across a reconnect; a hundred idle streams neither hold up
// other requests nor escape the connection limits; idle streams get
// heartbeats; a stopping server ends every stream cleanly.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';
import { openStream, resultsOf } from './sse.mjs';

const lab = new Lab('events');
// A run of a few seconds on PoCL: 8 points of 3 variants.
const SWEEP = { experiment: 'copy', params: { n: { from: 65536, to: 8388608, mul: 2 } }, repeat: 30, cache: 'hot' };

before(async () => {
  await lab.startServer(['--per-ip-connections', '200', '--stream-heartbeat', '1']);
  await lab.startRunner();
});
after(() => lab.close());

const ids = (events) => events.map((e) => e.id);
// A result's stored figures. The derived ones (share of the copy ceiling,
// comparison with the previous run) are as of when the event was sent; the
// end event carries them as of the run's end.
const STORED = ['variant', 'params', 'median_ms', 'min_ms', 'max_ms', 'reps', 'bytes', 'gbps', 'verified', 'error', 'note', 'extra',
  'ci_low_ms', 'ci_high_ms', 'spread', 'stopped', 'discarded'];
const stored = (r) => Object.fromEntries(STORED.map((k) => [k, r[k]]));

test('run_stream_carries_every_result_in_order_then_the_final_status', async () => {
  const run = (await lab.post('/runs', SWEEP)).json;
  const s = openStream(lab.base, `/api/runs/${run.id}/events`);
  await s.ready;
  assert.equal(s.status, 200);
  assert.match(s.headers['content-type'], /^text\/event-stream/);
  assert.equal(s.headers['cache-control'], 'no-cache');
  await s.until((x) => x.ended, 120000);
  const got = resultsOf(s);
  const final = (await lab.get(`/api/runs/${run.id}`)).json;
  assert.equal(final.status, 'done');
  assert.equal(got.length, final.results.length, 'one event per result');
  assert.deepEqual(ids(got), final.results.map((_, i) => `0.${i + 1}`), 'ids count the results in order');
  assert.deepEqual(got.map((e) => stored(e.data)), final.results.map(stored), 'each result as GET /api/runs/{id} has it');
  const runs = s.events.filter((e) => e.event === 'run');
  assert.ok(runs.length >= 1 && runs.every((e) => e.data.results === undefined), 'run events carry the run without results');
  assert.ok(runs.some((e) => e.data.status === 'running'), 'progress was pushed while it ran');
  const last = s.events[s.events.length - 1];
  assert.equal(last.event, 'end', 'the stream ends with the finished run');
  assert.deepEqual(last.data, final, 'the end event is the run exactly as GET has it');
  // Progress never goes back.
  const done = runs.map((e) => e.data.progress.done);
  assert.deepEqual(done, [...done].sort((a, b) => a - b), `progress in order: ${done}`);
});

test('reconnecting_with_last_event_id_misses_nothing', async () => {
  const run = (await lab.post('/runs', SWEEP)).json;
  const first = openStream(lab.base, `/api/runs/${run.id}/events`);
  await first.until((x) => resultsOf(x).length >= 2, 60000);
  // Hold the run in the middle (its worker stopped) while the client is away,
  // so that the reconnect happens while it runs.
  const worker = lab.workerPid();
  process.kill(worker, 'SIGSTOP');
  let second;
  try {
    first.close();
    const seen = resultsOf(first);
    const lastId = seen[seen.length - 1].id;
    second = openStream(lab.base, `/api/runs/${run.id}/events`, { headers: { 'Last-Event-ID': lastId } });
    await second.until((x) => x.events.some((e) => e.event === 'run'));
    assert.equal(second.events.find((e) => e.event === 'run').data.status, 'running', 'reconnected while the run runs');
    assert.ok(resultsOf(second).every((e) => Number(e.id.split('.')[1]) > Number(lastId.split('.')[1])),
      'nothing the client had already');
  } finally {
    process.kill(worker, 'SIGCONT');
  }
  await second.until((x) => x.ended, 120000);
  const final = (await lab.get(`/api/runs/${run.id}`)).json;
  const all = [...resultsOf(first), ...resultsOf(second)];
  assert.deepEqual(ids(all), final.results.map((_, i) => `0.${i + 1}`), 'every result once, in order, across the reconnect');
  assert.deepEqual(all.map((e) => stored(e.data)), final.results.map(stored));
  // The query form does the same for a page continuing from its JSON.
  const third = openStream(lab.base, `/runs/${run.id}/events?last_event_id=0.${final.results.length - 1}`);
  await third.until((x) => x.ended);
  assert.deepEqual(ids(resultsOf(third)), [`0.${final.results.length}`], 'only what the client lacks');
  assert.equal(third.events[third.events.length - 1].event, 'end');
});

test('status_stream_reports_changes_and_replays_them_after_a_reconnect', async () => {
  const s = openStream(lab.base, '/api/events');
  await s.ready;
  const run = (await lab.post('/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 3 })).json;
  const of = (x) => x.events.filter((e) => e.event === 'run' && e.data.id === run.id);
  await s.until((x) => of(x).some((e) => e.data.status === 'done'), 60000);
  // The stream sends a run's state as of each change it reads: a runner that
  // claims the run before the watcher reads its queueing shows it running at
  // once (and a quick run may pass from queued to done). What holds is the
  // order, and the end.
  const statuses = [...new Set(of(s).map((e) => e.data.status))];
  const order = ['queued', 'running', 'done'];
  assert.deepEqual(statuses, order.filter((st) => statuses.includes(st)), `statuses in order: ${statuses}`);
  assert.equal(statuses[statuses.length - 1], 'done', `ends done: ${statuses}`);
  const numbers = s.events.filter((e) => e.event === 'run').map((e) => Number(e.id));
  assert.deepEqual(numbers, [...numbers].sort((a, b) => a - b), 'change numbers only grow');
  assert.ok(of(s)[0].data.url === `/runs/${run.id}` && of(s)[0].data.experiment === 'copy', 'the summary as GET /api/runs lists it');
  const lastId = s.events[s.events.length - 1].id;
  s.close();
  // While disconnected: a run queued, cancelled and finished.
  const gone = (await lab.post('/runs', SWEEP)).json;
  assert.equal((await lab.post(`/api/runs/${gone.id}/cancel`, {})).status, 200);
  const now = await lab.waitDone(gone.id);
  const back = openStream(lab.base, '/api/events', { headers: { 'Last-Event-ID': lastId } });
  await back.until((x) => x.events.some((e) => e.data.id === gone.id));
  const missed = back.events.filter((e) => e.event === 'run');
  assert.equal(missed.filter((e) => e.data.id === gone.id).length, 1, 'a run changed several times while away comes once, as it is now');
  assert.equal(missed.find((e) => e.data.id === gone.id).data.status, now.status);
  assert.ok(missed.every((e) => Number(e.id) > Number(lastId)), 'nothing the client had already');
  back.close();
});

test('stream_requests_are_checked', async () => {
  const bad = await lab.get('/api/runs/1/events', { headers: { 'Last-Event-ID': 'yesterday' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.error.field, 'Last-Event-ID');
  assert.match(bad.json.error.message, /'yesterday'.*expected E\.C/);
  const badStatus = await lab.get('/api/events?last_event_id=-3');
  assert.equal(badStatus.status, 400);
  assert.equal(badStatus.json.error.field, 'last_event_id');
  const missing = await lab.get('/api/runs/987654/events');
  assert.equal(missing.status, 404);
  assert.match(missing.json.error.message, /run 987654 does not exist/);
  const post = await lab.post('/api/events', {});
  assert.equal(post.status, 405);
  assert.equal(post.headers.get('allow'), 'GET, HEAD');
  const head = await lab.request('HEAD', '/api/events');
  assert.equal(head.status, 200);
  assert.match(head.headers.get('content-type'), /^text\/event-stream/);
});

test('idle_streams_get_heartbeats_and_do_not_hold_up_other_requests', async () => {
  const streams = [];
  for (let i = 0; i < 100; i++) streams.push(openStream(lab.base, '/api/events'));
  await Promise.all(streams.map((s) => s.ready));
  assert.ok(streams.every((s) => s.status === 200), 'a hundred streams open');
  // How fast is bench/sse-latency.mjs's to say; here, that they are answered.
  const answers = await Promise.all(Array.from({ length: 40 }, () => lab.get('/api/health')));
  assert.ok(answers.every((a) => a.status === 200), 'every request answered beside them');
  const metrics = (await lab.get('/metrics')).text;
  const open = Number((metrics.match(/^warplab_event_streams (\d+)$/m) || [])[1]);
  assert.ok(open >= 100, `metrics count the open streams: ${open}`);
  // One change reaches all of them.
  const run = (await lab.post('/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 3 })).json;
  await Promise.all(streams.map((s) => s.until((x) => x.events.some((e) => e.data.id === run.id), 10000)));
  await Promise.all(streams.map((s) => s.until((x) => x.comments >= 1, 5000)));
  for (const s of streams) s.close();
});

test('streams_count_against_the_per_address_limit', async () => {
  const small = new Lab('events-limit');
  try {
    await small.startServer(['--per-ip-connections', '4']);
    const streams = [];
    for (let i = 0; i < 4; i++) streams.push(openStream(small.base, '/api/events', { localAddress: '127.0.0.2' }));
    await Promise.all(streams.map((s) => s.ready));
    const fifth = openStream(small.base, '/api/events', { localAddress: '127.0.0.2' });
    await fifth.ready;
    assert.equal(fifth.status, 429, 'a fifth connection from that address is answered 429, not reset');
    fifth.close();
    const other = await small.get('/api/health');
    assert.equal(other.status, 200, 'another address is still served');
    // No heartbeat is due for 15 s: the server sees the hang-up itself.
    streams[0].close();
    let again = null;
    for (const until = Date.now() + 60000; !again && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 100));
      const s = openStream(small.base, '/api/events', { localAddress: '127.0.0.2' });
      again = await s.ready.then(() => (s.status === 200 ? s : (s.close(), null)), () => null);
    }
    assert.ok(again && again.status === 200, 'a stream whose client hung up frees its place');
    for (const s of [...streams, again]) s.close();
  } finally {
    await small.close();
  }
});

test('a_stopping_server_ends_every_stream_cleanly', async () => {
  const doomed = new Lab('events-stop');
  try {
    await doomed.startServer();
    const run = (await doomed.post('/runs', { experiment: 'copy', params: { n: 4096 } })).json;
    const streams = [openStream(doomed.base, '/api/events'), openStream(doomed.base, `/api/runs/${run.id}/events`),
      openStream(doomed.base, '/api/events')];
    await Promise.all(streams.map((s) => s.until((x) => x.events.length > 0 || x.comments > 0 || x.status === 200)));
    // Open streams do not hold the server up: it exits, and each ends.
    const code = await doomed.stop(doomed.server);
    assert.equal(code, 0, 'the server exits cleanly');
    await Promise.all(streams.map((s) => s.until((x) => x.ended || x.error, 30000)));
    assert.ok(streams.every((s) => s.ended && !s.error), `each stream ended with its last chunk: ${streams.map((s) => s.error)}`);
  } finally {
    await doomed.close();
  }
});
