// An experiment of your own, end to end on PoCL against the real server and
// runner: the SAXPY of the API's example posted as written finishes with
// both variants checked against "scalar", traced predictions with their
// ceilings and a binding one, and a verdict naming the winner and its margin
// over "scalar"; a variant with a bug fails its check naming the first
// element that differs; a check of "none" says "not checked"; a CSR SpMV
// with generated structure and a transpose whose tile is a define run the
// same way; the run keeps its definition, and posted again it runs again;
// bad input is refused before anything is queued, naming the field.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from './harness.mjs';

const lab = new Lab('own');
const fixture = (name) => JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/own', `${name}.json`), 'utf8'));

before(async () => {
  await lab.startServer();
  process.env.ASAN_OPTIONS = `${process.env.ASAN_OPTIONS || ''}:handle_segv=0`;
  await lab.startRunner([], { trace: true });
  // The model's DRAM ceiling is the device's copy.
  await lab.postDone({ experiment: 'copy', params: { n: 1048576 }, repeat: 3, device: 'cpu' });
});
after(() => lab.close());

test('the_saxpy_example_runs_as_written_checked_traced_and_judged', async () => {
  const body = { ...fixture('saxpy'), device: 'cpu' };
  const posted = await lab.post('/api/runs', body);
  assert.equal(posted.status, 201, posted.text);
  const run = await lab.waitSettled(posted.json.id, 300000);
  assert.equal(run.status, 'done', run.error);
  assert.equal(run.experiment, 'saxpy');
  assert.deepEqual(run.request.definition, body.experiment, 'the run keeps its definition as given');
  assert.equal(run.results.length, 4);
  assert.equal(run.own_experiment.bytes_from, 'cost', 'its rate counts the cost.bytes it gives');
  for (const r of run.results) {
    const where = `${r.variant} ${JSON.stringify(r.params)}`;
    assert.equal(r.verified, true, `${where}: ${r.error}`);
    assert.equal(r.bytes, 12 * r.params.n, `${where}: the cost.bytes given`);
    assert.ok(r.gbps > 0, where);
    assert.equal(r.prediction.source, 'traced', `${where}: ${JSON.stringify(r.prediction)}`);
    assert.ok(['dram', 'cache', 'local', 'latency', 'barrier'].includes(r.prediction.binding), `${where}: binding ${r.prediction.binding}`);
    assert.ok(r.prediction.ms > 0 && r.prediction.ceilings.dram_ms > 0, `${where}: ${JSON.stringify(r.prediction.ceilings)}`);
  }
  // The verdict names the winner and measures it against the reference,
  // the variant everything is checked against.
  const v = run.verdict;
  assert.ok(['scalar', 'vec4'].includes(v.fastest), JSON.stringify(v));
  const headline = v.points.find((p) => p.params.n === 262144);
  assert.equal(headline.reference.variant, 'scalar');
  assert.ok(headline.reference.factor >= 1, JSON.stringify(headline));
  assert.match(v.sentence, new RegExp(`^${v.fastest} is the fastest`));
  // Posted again ("Run again"), the stored request is a request.
  const again = await lab.post('/api/runs', run.request);
  assert.equal(again.status, 201, again.text);
  assert.equal((await lab.waitDone(again.json.id)).status, 'done');
});

test('a_buggy_variant_fails_its_check_naming_the_first_element_and_none_checks_nothing', async () => {
  const body = fixture('saxpy');
  body.experiment.source += '\n__kernel void saxpy_bug(uint n, float a, __global const float *x, __global float *y) { uint i = get_global_id(0); if (i < n) y[i] = a * x[i] + (i == 777 ? 0.0f : y[i]); }';
  body.experiment.variants.push({ id: 'bug', kernel: 'saxpy_bug' });
  body.params = { n: 65536 };
  body.device = 'cpu';
  const run = await lab.postDone(body);
  const bug = run.results.find((r) => r.variant === 'bug');
  assert.equal(bug.verified, false);
  assert.match(bug.error, /^verification failed: y\[777\] = .*, scalar's is .* \(checked rel 1e-06\); 1 of 65536 values differ$/);
  assert.ok(bug.median_ms > 0, 'a wrong result keeps its time');
  assert.equal(run.results.find((r) => r.variant === 'vec4').verified, true);

  const none = fixture('saxpy');
  none.experiment.check = 'none';
  none.params = { n: 65536 };
  none.device = 'cpu';
  const unchecked = await lab.postDone(none);
  for (const r of unchecked.results) {
    assert.equal(r.verified, null, `${r.variant}: not checked is neither true nor false`);
    assert.equal(r.error, null);
    assert.ok(r.gbps > 0);
  }
  assert.match(unchecked.verdict.sentence, /is the fastest/, 'an unchecked time still counts');
  const csv = await lab.get(`/api/runs/${unchecked.id}/results.csv`);
  const header = csv.text.split('\n')[0].split(',');
  const row = csv.text.split('\n')[1].split(',');
  assert.equal(row[header.indexOf('verified')], '', 'the CSV says nothing verified');
});

test('a_csr_spmv_and_a_tile_as_a_define_run_the_same_way', async () => {
  for (const name of ['spmv', 'tiled']) {
    const run = await lab.postDone({ ...fixture(name), device: 'cpu' });
    assert.ok(run.results.length >= 4, name);
    // The SpMV gives no cost.bytes: its buffers' bytes are counted, and the
    // run says so.
    assert.equal(run.own_experiment.bytes_from, name === 'spmv' ? 'buffers' : 'cost', name);
    for (const r of run.results) assert.equal(r.verified, true, `${name} ${r.variant} ${JSON.stringify(r.params)}: ${r.error}`);
  }
  // A tile the transpose does not define as a multiple of n is refused.
  const bad = fixture('tiled');
  bad.params = { n: 40, tile: 16 };
  const res = await lab.post('/api/runs', bad);
  assert.equal(res.status, 400, res.text);
  assert.equal(res.json.error.field, 'params.n');
});

// A variant that never ends holds the device for its first launch's own
// deadline, not the point's; the next run is served.
test('a_variant_that_never_ends_is_stopped_at_its_first_launch', async () => {
  const body = fixture('saxpy');
  body.experiment.source += '\n__kernel void spin(uint n, float a, __global const float *x, __global float *y) '
    + '{ volatile __global const float *p = x; while (p[0] != 12345.0f) ; y[0] = a; }';
  body.experiment.variants.push({ id: 'spin', kernel: 'spin' });
  body.params = { n: 65536 };
  body.device = 'cpu';
  const hang = (await lab.post('/api/runs', body)).json.id;
  const next = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 2, device: 'cpu' })).json.id;
  const run = await lab.waitDone(hang, 300000);
  assert.equal(run.status, 'failed');
  assert.match(run.error, /^timed out after 10 s: the first launch of 'spin' at n=65536, local=256 ran past the deadline/);
  assert.ok(run.results.some((r) => r.variant === 'vec4' && r.verified), 'what was measured before it stays');
  assert.equal((await lab.waitDone(next, 300000)).status, 'done');
});

test('bad_input_is_refused_before_queueing_naming_the_field', async () => {
  const cases = [
    [(b) => { b.experiment.buffers[0].count = 'n*n*n*n'; }, 400, 'experiment.buffers[0].count', /buffer 'x' of 'n\*n\*n\*n' elements: the value overflows 64 bits at n=65536/],
    [(b) => { b.experiment.buffers[0].count = 'n*64'; b.params = { n: 268435456 }; }, 422, 'experiment.buffers[0].count',
      /at n=268435456, local=256, buffer 'x' of 'n\*64' elements takes 64\.0 GiB; device .* allocates at most .* in one buffer/],
    // Sixteen buffers of 1.9 GiB: each fits one allocation, together not.
    [(b) => {
      for (const x of b.experiment.buffers) x.count = 'n*120';
      for (let i = 2; i < 16; i++) b.experiment.buffers.push({ name: `b${i}`, type: 'float', count: 'n*120', init: 'zeros' });
      b.params = { n: 4194304 };
    }, 422, 'experiment.buffers', /at n=4194304, local=256 the buffers take 30\.0 GiB \(x 1\.9 GiB, y 1\.9 GiB, b2 1\.9 GiB, .*\); device .* has/],
    [(b) => { b.experiment.host.args[1] = 'b'; }, 400, 'experiment.variants[0].host.args[1]', /'b' is no buffer, scalar or expression/],
    [(b) => { b.experiment.buffers[1].type = 'float5'; }, 400, 'experiment.buffers[1].type', /'float5' is no type \(allowed: char/],
    [(b) => { b.experiment.check = { against: 'vec8' }; }, 400, 'experiment.check.against', /'vec8' is no variant \(allowed: scalar, vec4\)/],
    [(b) => { b.experiment.variants[1].kernel = 'saxpy8'; }, 400, 'experiment.variants[1].kernel', /'saxpy8' is not defined in the source/],
    [(b) => { b.experiment.source = `#include "/etc/passwd"\n${b.experiment.source}`; }, 400, 'experiment.source', /#include/],
    [(b) => { b.experiment.id = 'transpose'; }, 400, 'experiment.id', /a catalog experiment's/],
    [(b) => { b.experiment.variants = Array.from({ length: 9 }, (_, i) => ({ id: `v${i}`, kernel: 'saxpy' })); }, 400, 'experiment.variants', /at most 8/],
  ];
  const before = (await lab.get('/api/health')).json.runs;
  for (const [change, status, field, message] of cases) {
    const body = { ...fixture('saxpy'), device: 'cpu' };
    change(body);
    const res = await lab.post('/api/runs', body);
    assert.equal(res.status, status, `${field}: ${res.text}`);
    assert.equal(res.json.error.field, field, res.text);
    assert.match(res.json.error.message, message);
  }
  const after = (await lab.get('/api/health')).json.runs;
  assert.deepEqual(after, before, 'nothing was queued');
});
