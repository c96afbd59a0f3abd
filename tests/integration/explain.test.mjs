// Nothing waits on the explainers: a run is done when it is
// measured and verified; its traces, and the predictions built on them,
// follow in the runner's idle time, with the run saying what is still
// coming ("explain": "pending", then "done") and its event stream carrying
// the update. The traces never hold up a queued run, a trace the lab
// already keeps is not taken again, and an idle runner keeps the catalog's
// built-ins at their defaults before anyone asks.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT, waitFor } from './harness.mjs';
import { openStream } from './sse.mjs';

const GATHER = readFileSync(join(ROOT, 'tests/fixtures/gather.cl'), 'utf8');
const lab = new Lab('explain');

before(async () => {
  await lab.startServer();
  await lab.startRunner(['--trace-seconds', '20'], { trace: true });
});
after(() => lab.close());

const finished = (r) => ['done', 'failed', 'cancelled'].includes(r.status);
const ms = (iso) => new Date(iso).getTime();

test('a_run_is_done_before_its_traces_and_they_follow_as_an_update', async () => {
  // A gather that declares nothing (its prediction is its trace's), then a
  // second run right behind it: the runner takes the queued run before it
  // traces the first, so the first reads done with its traces to come for
  // as long as the second is measured.
  const first = (await lab.post('/api/runs', {
    experiment: 'copy', variants: ['float'], params: { n: [1 << 16, 1 << 18] }, repeat: 20, cache: 'hot', label: 'undeclared',
    kernels: [{ name: 'gather', like: 'float', source: GATHER }],
  })).json;
  const second = (await lab.post('/api/runs', {
    experiment: 'copy', variants: ['float', 'float4'], params: { n: [1 << 16, 1 << 17, 1 << 18] }, repeat: 20, cache: 'hot',
  })).json;
  const stream = openStream(lab.base, `/api/runs/${first.id}/events`);
  await stream.ready;
  await lab.waitRun(second.id, (r) => r.status !== 'queued');
  const done = (await lab.get(`/api/runs/${first.id}`)).json;
  assert.equal(done.status, 'done', done.error);
  assert.equal(done.explain, 'pending', 'the traces are still to come');
  assert.deepEqual(done.traces, [], 'no trace taken while a run waits');
  const gather = done.results.filter((r) => r.variant === 'gather');
  assert.equal(gather.length, 2);
  for (const r of gather) assert.notEqual(r.prediction && r.prediction.source, 'traced', JSON.stringify(r.prediction));
  // Every millisecond between the run's start and finish is in its budget.
  const wall = ms(done.finished_at) - ms(done.started_at);
  assert.ok(Math.abs(wall - done.budget.total_ms) <= 0.1 * wall, `wall ${wall} ms, budget ${done.budget.total_ms} ms`);

  // The stream stays open until the traces are in, then ends with them.
  await stream.until((s) => s.ended, 240000);
  const runs = stream.events.filter((e) => e.event === 'run').map((e) => e.data);
  assert.ok(runs.some((r) => r.status === 'done' && r.explain === 'pending'), 'the stream said done, traces to come');
  const end = stream.events[stream.events.length - 1];
  assert.equal(end.event, 'end');
  assert.equal(end.data.explain, 'done');
  assert.ok(end.data.explain_ms > 0 && end.data.explained_at, JSON.stringify(end.data));
  assert.deepEqual(end.data.traces.map((t) => [t.variant, t.params.n]).sort(),
    [['float', 1 << 16], ['gather', 1 << 16], ['gather', 1 << 18]].sort());
  assert.ok(ms(end.data.explained_at) >= ms(end.data.finished_at));
  const settled = await lab.waitSettled(first.id);
  for (const r of settled.results.filter((x) => x.variant === 'gather')) assert.equal(r.prediction.source, 'traced', JSON.stringify(r.prediction));
  await lab.waitDone(second.id);
});

test('a_trace_the_lab_keeps_is_not_taken_again_by_another_run', async () => {
  // The same gather in a new run with other sampling: its traces come from
  // the lab's store, not from the tracer.
  const again = (await lab.post('/api/runs', {
    experiment: 'copy', variants: ['float'], params: { n: [1 << 16, 1 << 18] }, repeat: 5, cache: 'hot', seed: 3,
    kernels: [{ name: 'gather', like: 'float', source: GATHER }],
  })).json;
  const run = await lab.waitDone(again.id, 240000);
  assert.equal(run.explain, 'done');
  for (const v of ['float', 'gather']) assert.match(lab.logs.runner, new RegExp(`run ${again.id}: ${v} traced at \\S+ \\(kept from an earlier run\\)`));
  assert.equal(run.traces.length, 3);
  assert.ok(finished(run));
});

test('an_idle_runner_keeps_the_catalogs_defaults_so_a_first_run_finds_them', async () => {
  const lab2 = new Lab('explain-catalog');
  try {
    await lab2.startServer();
    await lab2.startRunner(['--trace-seconds', '20'], { trace: true, catalogTraces: true });
    // Copy is the catalog's first experiment: its variants are kept first.
    await waitFor(() => /catalog: copy float4 traced at \S+ for the lab/.test(lab2.logs.runner), 'the catalog traced while idle', 240000);
    const id = (await lab2.post('/api/runs', { experiment: 'copy', repeat: 3, cache: 'hot' })).json.id;
    const run = await lab2.waitDone(id, 240000);
    assert.equal(run.status, 'done', run.error);
    assert.equal(run.explain, 'done');
    for (const v of ['float', 'float2', 'float4']) {
      assert.match(lab2.logs.runner, new RegExp(`run ${id}: ${v} traced at \\S+ \\(kept from an earlier run\\)`));
    }
  } finally {
    await lab2.close();
  }
});
