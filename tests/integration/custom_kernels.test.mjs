// Custom kernels end to end on PoCL, against the real server and runner: a
// user's transpose that is right verifies and sits in the table beside the
// built-ins; one that is wrong keeps its time and names its first difference;
// one that does not compile fails its points with a build log naming the line;
// one that never ends is stopped at its deadline and the runner serves the
// next run; one that crashes the worker fails its run, not the runner; an
// #include is refused before anything is queued; reductions and dot products
// (local memory, partial sums) work too; and a server started with
// --no-custom-kernels refuses them all.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('custom');

before(async () => {
  await lab.startServer();
  // A crash must reach the supervisor as the signal it is, not as a
  // sanitizer's report (when the suite runs under ASan).
  process.env.ASAN_OPTIONS = `${process.env.ASAN_OPTIONS || ''}:handle_segv=0`;
  await lab.startRunner();
});
after(() => lab.close());

async function template(experiment, variant) {
  const res = await lab.get(`/api/experiments/${experiment}/variants/${variant}/source`);
  assert.equal(res.status, 200, res.text);
  return res.json;
}

async function queue(body) {
  const res = await lab.post('/api/runs', body);
  assert.equal(res.status, 201, res.text);
  return res.json.id;
}

test('variant_template_holds_the_kernel_its_signature_and_launch', async () => {
  const t = await template('transpose', 'padded');
  assert.equal(t.kernel, 'mtran_padded');
  assert.match(t.signature, /^__kernel .*void mtran_padded\(__global float \*odata, __global const float \*idata, int n\)$/);
  assert.match(t.launch, /TILE_DIM/);
  assert.match(t.template, /#define TILE_DIM 32/);
  assert.doesNotMatch(t.template, /mtran_diagonal|mtran_coalesced/, 'the other kernels are cut out');
  const cat = (await lab.get('/api/experiments')).json;
  assert.equal(cat.custom_kernels, true);
  for (const exp of cat.experiments) for (const v of exp.variants) assert.match(v.signature, new RegExp(`${v.kernel}\\(`), `${exp.id}/${v.id}`);
  assert.equal((await lab.get('/api/experiments/transpose/variants/nope/source')).status, 404);
});

test('custom_transposes_right_wrong_and_broken_sit_beside_the_built_ins', async () => {
  const padded = (await template('transpose', 'padded')).template;
  const mine = padded.replace('mtran_padded', 'mine').replace('[TILE_DIM + 1]', '[TILE_DIM + 2]');
  const wrong = padded.replace('= tile[get_local_id(0)][get_local_id(1) + i];', '= tile[get_local_id(1)][get_local_id(0) + i];');
  const lines = padded.split('\n');
  const at = lines.findIndex((l) => l.includes('int index_out'));
  lines[at] = lines[at].replace('x + y * n', 'x + y * n + missing_name');
  const broken = lines.join('\n');
  // mine pads by two columns and says so: the model finds the column read
  // 2-way (34 words a row put every other row in the same bank).
  const rows = [{ var: 'i', from: '0', while: 'i < tile', next: 'i + rows' }];
  const accesses = [
    { array: 'idata', space: 'global', op: 'load', bytes: 4, index: '(grp1*tile + lid1 + i)*n + grp0*tile + lid0', loops: rows },
    { array: 'tile', space: 'local', op: 'store', bytes: 4, index: '(lid1 + i)*(tile + 2) + lid0', loops: rows },
    { array: 'tile', space: 'local', op: 'load', bytes: 4, index: 'lid0*(tile + 2) + lid1 + i', loops: rows },
    { array: 'odata', space: 'global', op: 'store', bytes: 4, index: '(grp0*tile + lid1 + i)*n + grp1*tile + lid0', loops: rows },
  ];
  const refused = await lab.post('/api/runs', {
    experiment: 'transpose', params: { n: 256 },
    kernels: [{ name: 'mine', like: 'padded', source: mine, accesses: [{ ...accesses[2], index: 'lid0*(tile + 2) + lid9' }] }],
  });
  assert.equal(refused.status, 400);
  assert.equal(refused.json.error.field, 'kernels[0].accesses[0].index');
  assert.match(refused.json.error.message, /'lid0\*\(tile \+ 2\) \+ lid9': unknown variable 'lid9'/);
  const id = await queue({
    experiment: 'transpose', params: { n: [256, 512] }, repeat: 2,
    kernels: [{ name: 'mine', like: 'padded', source: mine, accesses },
      { name: 'wrong', like: 'padded', source: wrong },
      { name: 'broken', like: 'tiled', source: broken }],
  });
  const run = await lab.waitDone(id);
  assert.equal(run.status, 'done', run.error);
  assert.deepEqual(run.variants.map((v) => [v.id, v.custom]),
    [['copy', false], ['naive', false], ['tiled', false], ['padded', false], ['diagonal', false], ['mine', true], ['wrong', true], ['broken', true]]);
  assert.equal(run.results.length, 2 * 8);
  const of = (v) => run.results.filter((r) => r.variant === v);
  for (const r of of('mine')) {
    assert.ok(r.verified && r.custom, `mine at n=${r.params.n}: ${r.error}`);
    assert.ok(r.gbps > 0 && r.bytes === 8 * r.params.n * r.params.n, 'the bytes of its like variant');
    assert.equal(r.prediction.conflict_degree, 2, 'its declared accesses are predicted');
    assert.equal(r.prediction.efficiency, 1);
  }
  for (const r of of('wrong')) assert.equal(r.prediction, null, 'no declaration, no prediction');
  for (const r of of('padded')) assert.equal(r.prediction.conflict_degree, 1);
  for (const r of of('wrong')) {
    assert.equal(r.verified, false);
    assert.ok(r.median_ms > 0, 'a wrong result keeps its time');
    assert.match(r.error, /verification failed: \d+ of \d+ elements differ; first at \[\d+\]\[\d+\]/);
  }
  for (const r of of('broken')) {
    assert.equal(r.median_ms, null);
    assert.match(r.error, /custom kernel 'broken' did not build/);
    assert.match(r.error, new RegExp(`<source>:${at + 1}:\\d+:.*use of undeclared identifier 'missing_name'`));
    assert.doesNotMatch(r.error, /kcache|tempfile/, 'no path of the runner host in the log');
  }
  // The hash covers the custom code; the page's sources carry all of it.
  assert.match(run.source_hash, /^[0-9a-f]{16}\+[0-9a-f]{16}$/);
  const src = (await lab.get(`/api/runs/${id}/sources`)).json;
  assert.equal(src.family.as_of, 'run');
  assert.equal(src.family.hash, run.source_hash.slice(0, 16));
  const custom = src.variants.find((v) => v.id === 'mine');
  assert.equal(custom.source, mine);
  assert.equal(custom.like_source, padded, 'diffed against the template it came from');
  assert.match(src.variants.find((v) => v.id === 'padded').source, /void mtran_padded/);
  const csv = (await lab.get(`/api/runs/${id}/results.csv`)).text.split('\r\n');
  const customCol = csv[0].split(',').indexOf('custom');
  assert.ok(csv.some((l) => l.startsWith('mine,256,') && l.split(',')[customCol] === 'true'), 'custom rows marked in the CSV');
  // Run again re-submits the kernels: the stored request holds them.
  assert.equal(run.request.kernels.length, 3);
  assert.equal(run.request.kernels[0].entry, 'mine');
  assert.deepEqual(run.request.kernels[0].accesses, accesses);
});

test('a_kernel_with_other_parameters_fails_its_points_saying_why', async () => {
  const id = await queue({
    experiment: 'transpose', params: { n: 256 }, repeat: 1, variants: [],
    kernels: [{ name: 'two_args', like: 'naive', source: '__kernel void two_args(__global float *o, int n) { o[0] = 1; }' }],
  });
  const run = await lab.waitDone(id);
  assert.equal(run.status, 'done', run.error);
  assert.match(run.results[0].error, /two_args takes 2 parameters, but the harness calls it like mtran, with 3/);
});

test('custom_reduction_and_dot_with_local_memory_verify', async () => {
  const red = (await template('reduction', 'sequential'));
  const dot = (await template('dot', 'local'));
  const r = await queue({
    experiment: 'reduction', params: { n: 65536 }, repeat: 2, variants: ['sequential'],
    kernels: [{ name: 'my_sum', like: 'sequential', source: red.template.replace(new RegExp(`\\b${red.kernel}\\b`), 'my_sum') }],
  });
  const d = await queue({
    experiment: 'dot', params: { n: 65536, items: 1024, local: 128 }, repeat: 2, variants: ['local'],
    kernels: [{ name: 'my_dot', like: 'local', source: dot.template.replace(new RegExp(`\\b${dot.kernel}\\b`), 'my_dot') }],
  });
  for (const id of [r, d]) {
    const run = await lab.waitDone(id);
    assert.equal(run.status, 'done', run.error);
    const custom = run.results.filter((x) => x.custom);
    assert.equal(custom.length, 1);
    assert.ok(custom[0].verified, custom[0].error);
    assert.ok(custom[0].gbps > 0);
  }
});

test('include_is_refused_before_anything_is_queued', async () => {
  const before = (await lab.get('/api/runs?limit=200')).json.runs.length;
  for (const source of ['#include "/etc/passwd"\n__kernel void x(void) { }',
    '#  /* sneaky */ include </etc/passwd>\n__kernel void x(void) { }',
    '%:include "/etc/passwd"\n__kernel void x(void) { }',
    '#inc\\\nlude "/etc/passwd"\n__kernel void x(void) { }']) {
    const res = await lab.post('/api/runs', { experiment: 'transpose', kernels: [{ name: 'x', like: 'naive', source }] });
    assert.equal(res.status, 400, source);
    assert.equal(res.json.error.field, 'kernels[0].source');
    assert.match(res.json.error.message, /line 1 uses #include, which is not allowed/);
  }
  const bad = await lab.post('/api/runs', { experiment: 'transpose', kernels: [{ name: 'x', like: 'naive', source: 'x'.repeat(65537) }] });
  assert.equal(bad.status, 400, 'over 64 KiB of source is a 400, not a 413');
  assert.match(bad.json.error.message, /at most 65536/);
  assert.equal((await lab.get('/api/runs?limit=200')).json.runs.length, before, 'nothing was queued');
});

// Someone else's kernel that never ends is stopped at its first launch's
// own deadline (WL_PROBE_MIN_S for a kernel this small), not at the
// point's, which is minutes; the runner serves the next run.
test('endless_kernel_times_out_at_its_first_launch_and_the_runner_serves_the_next_run', async () => {
  const hang = await queue({
    experiment: 'transpose', params: { n: 256 }, repeat: 1, variants: [],
    kernels: [{
      name: 'forever', like: 'naive',
      source: '__kernel void forever(__global float *odata, __global const float *idata, int n)\n{\n'
        + '\tvolatile __global const float *p = idata;\n\twhile (p[0] != 12345.0f)\n\t\t;\n\todata[0] = p[0];\n}\n',
    }],
  });
  const next = await queue({ experiment: 'copy', params: { n: 4096 }, repeat: 2 });
  const run = await lab.waitDone(hang, 300000);
  assert.equal(run.status, 'failed');
  assert.match(run.error, /^timed out after 10 s: the first launch of 'forever' at n=256, tile=32, rows=8 ran past the deadline someone else's kernel has for one launch/);
  const served = await lab.waitDone(next, 300000);
  assert.equal(served.status, 'done', served.error);
  assert.equal(lab.runner.exitCode, null, 'the runner is still up');
});

test('kernel_that_crashes_the_worker_fails_its_run_not_the_runner', async () => {
  const crash = await queue({
    experiment: 'transpose', params: { n: 256 }, repeat: 1, variants: ['naive'],
    kernels: [{
      name: 'crash', like: 'naive',
      source: '__kernel void crash(__global float *odata, __global const float *idata, int n)\n{\n'
        + '\t__global volatile int *wild = (__global volatile int *)(ulong)64;\n\twild[get_global_id(0)] = n;\n}\n',
    }],
  });
  const next = await queue({ experiment: 'copy', params: { n: 4096 }, repeat: 2 });
  const run = await lab.waitDone(crash, 60000);
  assert.equal(run.status, 'failed');
  assert.match(run.error, /custom kernel 'crash' crashed the device process at n=256, tile=32, rows=8 \(.*signal 11/);
  assert.equal(run.attempts, 1, 'not retried');
  assert.ok(run.results.some((r) => r.variant === 'naive' && r.verified), 'the built-in measured before it stays');
  const served = await lab.waitDone(next, 60000);
  assert.equal(served.status, 'done', served.error);
  assert.equal(lab.runner.exitCode, null, 'the runner is still up');
});

test('a_server_started_with_no_custom_kernels_refuses_them', async () => {
  const other = new Lab('custom-off');
  try {
    await other.startServer(['--no-custom-kernels']);
    const res = await other.post('/api/runs', { experiment: 'transpose', kernels: [{ name: 'x', like: 'naive', source: '__kernel void x(void) { }' }] });
    assert.equal(res.status, 400);
    assert.equal(res.json.error.field, 'kernels');
    assert.match(res.json.error.message, /--no-custom-kernels/);
    assert.equal((await other.get('/api/experiments')).json.custom_kernels, false);
    assert.equal((await other.post('/api/runs', { experiment: 'copy', params: { n: 4096 } })).status, 201, 'built-ins still queue');
  } finally {
    await other.close();
  }
});
