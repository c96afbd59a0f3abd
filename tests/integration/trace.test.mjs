// Traced accesses: warplab-runner --trace runs one variant at one point in
// the Oclgrind simulator with its family's host code and counts the first
// work-group's loads and stores by the warp model's rules. Every catalog
// variant's trace agrees with its declaration; a custom kernel without one
// gets the figures of the code it is; a gather through a hash gets the
// sectors a random gather costs; a kernel that never ends or a point too big
// for the budget is refused, saying why.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, runToEnd, ROOT, SMALL_POINTS as POINTS } from './harness.mjs';

// A gather through a hash: each work-item's load lands in a sector of its own;
// line 5 is the gather.
const GATHER = readFileSync(join(ROOT, 'tests/fixtures/gather.cl'), 'utf8');

const lab = new Lab('trace');
before(() => lab.startServer());
after(() => lab.close());

async function trace(spec, extra = []) {
  const out = await runToEnd('warplab-runner', ['--kernels', 'kernels', ...extra, '--trace', JSON.stringify(spec)], 120000);
  return { ...out, figures: out.code === 0 ? JSON.parse(out.stdout) : null };
}

test('every_catalog_variants_trace_agrees_with_its_declaration', async () => {
  const catalog = (await lab.get('/api/experiments')).json;
  const bad = [];
  let traced = 0;
  for (const e of catalog.experiments) {
    for (const v of e.variants) {
      for (const lanes of [32]) {
        const { code, stderr, figures } = await trace({ experiment: e.id, variants: [v.id], params: POINTS[e.id], lanes });
        if (code !== 0) { bad.push(`${e.id}/${v.id}: ${stderr}`); continue; }
        traced++;
        const t = figures.traced;
        const d = figures.declared;
        // Sectors per request and conflict degrees are counts: equal. The
        // efficiency may differ by the reads a declaration leaves out (a
        // __constant argument) or the loop iterations it samples.
        const same = (a, b) => (a === null && b === null) || (a !== null && b !== null && Math.abs(a - b) < 1e-9);
        if (!same(t.sectors_per_request, d.sectors_per_request) || !same(t.conflict_degree, d.conflict_degree) ||
          (t.efficiency === null) !== (d.efficiency === null) || Math.abs(t.efficiency - d.efficiency) > 0.01) {
          bad.push(`${e.id}/${v.id} at ${lanes} lanes: traced ${JSON.stringify([t.sectors_per_request, t.conflict_degree, t.efficiency])}, declared ${JSON.stringify([d.sectors_per_request, d.conflict_degree, d.efficiency])}`);
        }
        // A site's line is its source line, or 0 where the compiler merged
        // the instructions of several (MyAdd's two branches).
        assert.ok(t.sites.every((s) => s.line >= 0 && s.line < 200), `${e.id}/${v.id}: lines ${t.sites.map((s) => s.line)}`);
      }
    }
  }
  assert.deepEqual(bad, []);
  assert.equal(traced, catalog.experiments.reduce((n, e) => n + e.variants.length, 0));
});

test('a_custom_kernel_without_declarations_gets_the_figures_of_its_code', async () => {
  const template = (await lab.get('/api/experiments/transpose/variants/padded/source')).json.template;
  const source = template.replace(/\bmtran_padded\b/, 'mine');
  const point = POINTS.transpose;
  const custom = await trace({ experiment: 'transpose', variants: [], kernels: [{ name: 'mine', like: 'padded', source }], params: point });
  const padded = await trace({ experiment: 'transpose', variants: ['padded'], params: point });
  assert.equal(custom.code, 0, custom.stderr);
  assert.equal(custom.figures.declared, null, 'nothing declared');
  assert.deepEqual(custom.figures.traced.sites.map(({ line, ...f }) => f), padded.figures.traced.sites.map(({ line, ...f }) => f));
  assert.equal(custom.figures.traced.conflict_degree, 1);
  assert.equal(custom.figures.traced.sectors_per_request, 4);
});

test('a_gather_through_a_hash_costs_a_sector_per_work_item', async () => {
  const source = GATHER;
  const { code, stderr, figures } = await trace({ experiment: 'copy', kernels: [{ name: 'gather', like: 'float', source }], params: { n: 1 << 20 } });
  assert.equal(code, 0, stderr);
  const load = figures.traced.sites.find((s) => s.op === 'load');
  const store = figures.traced.sites.find((s) => s.op === 'store');
  assert.ok(load.sectors_per_request >= 30, `the gather: ${load.sectors_per_request} sectors per request`);
  assert.equal(store.sectors_per_request, 4, 'the store stays coalesced');
  assert.equal(load.line, 5);
});

test('the_tracers_budget_refuses_an_endless_kernel_and_a_huge_point', async () => {
  const spin = `__kernel void spin(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	while (in[0] == in[0])
		out[i] += 1.0f;
}`;
  const endless = await trace({ experiment: 'copy', kernels: [{ name: 'spin', like: 'float', source: spin }], params: { n: 1024 } }, ['--trace-seconds', '2']);
  assert.notEqual(endless.code, 0);
  assert.match(endless.stderr, /not traced: the simulation ran past its (2 s|CPU) budget/);
  const huge = await trace({ experiment: 'copy', variants: ['float'], params: { n: 1 << 27 } }, ['--trace-memory', String(256 << 20)]);
  assert.notEqual(huge.code, 0);
  assert.match(huge.stderr, /not traced: the point needs 1024 MiB of buffers, past the trace's memory budget of 256 MiB/);
});

// Runs are traced after their points — a declared variant at the run's
// point of least memory, an undeclared kernel at each — by the runner's worker (confined, as for the kernels it
// builds), and the page's JSON carries the traces and what they predict.
const runs = new Lab('trace-runs');
after(() => runs.close());

test('a_run_traces_each_variant_and_predicts_an_undeclared_kernel_from_it', async () => {
  await runs.startServer();
  await runs.startRunner(['--trace-seconds', '3'], { trace: true });
  const gather = GATHER;
  const spin = `__kernel void spin(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	while (in[0] == in[0] && count > 0)
		out[i] = in[i];
}`;
  const res = await runs.post('/api/runs', {
    experiment: 'copy', variants: ['float'], params: { n: [1 << 16, 1 << 18] }, repeat: 3,
    kernels: [{ name: 'gather', like: 'float', source: gather },
      // A copy that declares a strided read it does not make.
      { name: 'liar', like: 'float', source: gather.replace('gather', 'liar').replace('(i * 2654435761u) % count', 'i'),
        accesses: [{ array: 'in', space: 'global', op: 'load', bytes: 4, index: 'gid0*32' },
          { array: 'out', space: 'global', op: 'store', bytes: 4, index: 'gid0' }] }],
  });
  assert.equal(res.status, 201, res.text);
  const run = await runs.waitDone(res.json.id, 120000);
  assert.equal(run.status, 'done', run.error);
  // A declared variant at the smallest point (the trace checks the
  // declaration); the undeclared gather at each point (its prediction is
  // its trace's).
  assert.deepEqual(run.traces.map((t) => [t.variant, t.params.n]).sort(),
    [['float', 1 << 16], ['gather', 1 << 16], ['gather', 1 << 18], ['liar', 1 << 16]].sort(), 'declared once, undeclared at each point');
  // The copy ceiling is a built-in copy's, never a custom kernel's.
  assert.equal(run.ceiling.variant, 'float', JSON.stringify(run.ceiling));
  const liar = run.results.find((r) => r.variant === 'liar').prediction;
  assert.equal(liar.source, 'declared');
  assert.equal(liar.sectors_per_request, 32, 'the prediction is the declaration\'s');
  assert.equal(liar.traced.sectors_per_request, 4, 'the trace says what the code does');
  assert.equal(liar.trace_agrees, false);
  // The same kernels again, with another seed and sampling: the traces are
  // kept ones, the same.
  const again = await runs.post('/api/runs', { ...JSON.parse(JSON.stringify(run.request)), seed: 7, repeat: 2, label: 'again' });
  const repeated = await runs.waitDone(again.json.id, 120000);
  assert.deepEqual(repeated.traces, run.traces);
  for (const v of ['float', 'gather', 'liar']) assert.match(runs.logs.runner, new RegExp(`run ${repeated.id}: ${v} traced at \\S+ \\(kept from an earlier run\\)`));
  const csv = (await runs.get(`/api/runs/${run.id}/results.csv`, { raw: true })).text.trim().split(/\r\n/);
  const head = csv[0].split(',');
  const row = csv.find((l) => l.startsWith('gather,')).split(',');
  assert.equal(row[head.indexOf('predicted_source')], 'traced');
  assert.ok(Number(row[head.indexOf('traced_sectors_per_request')]) >= 30);
  for (const r of run.results.filter((x) => x.variant !== 'liar')) {
    const p = r.prediction;
    if (r.variant === 'float') {
      assert.equal(p.source, 'declared');
      // Judged where the trace was taken; the other point is another question.
      assert.equal(p.trace_agrees, r.params.n === 1 << 16 ? true : null, 'the catalog\'s declaration agrees with its code');
      assert.equal(p.traced.sectors_per_request, 4);
    } else {
      assert.equal(p.source, 'traced', 'nothing declared: predicted from the trace');
      assert.ok(p.sectors_per_request >= 30, `${p.sectors_per_request} sectors per request`);
      assert.ok(p.efficiency < 0.3 && p.gbps > 0 && p.ms > 0, JSON.stringify(p));
      assert.deepEqual(p.traced_at, { local: 256, n: r.params.n }, 'traced at its own point');
      // The same model as a declaration's: ceilings from PoCL's facts, the
      // traffic behind them, and the variant it runs as.
      assert.equal(p.model, 'ceilings', JSON.stringify(p));
      assert.ok(typeof p.binding === 'string' && p.launch_ms > 0 && p.traffic.own_bytes > 0, JSON.stringify(p.traffic));
      assert.equal(r.like, 'float');
      assert.ok(p.accesses.some((a) => a.op === 'load' && a.line === 5), 'the gather\'s line');
    }
  }
  // A kernel that is quick on the device but far too long to simulate: its
  // trace is refused by the budget, saying so, and its run still measures.
  const slow = `__kernel void slow(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	float acc = in[i];
	for (uint k = 0; k < count * 16u; k++)
		if (in[k % count] > 2.0f)
			acc += 1.0f;
	out[i] = acc;
}`;
  const second = await runs.post('/api/runs', {
    experiment: 'copy', variants: ['float'], params: { n: 4096 }, repeat: 2,
    kernels: [{ name: 'slow', like: 'float', source: slow }],
  });
  assert.equal(second.status, 201, second.text);
  const measured = await runs.waitDone(second.json.id, 120000);
  assert.equal(measured.status, 'done', measured.error);
  const r = measured.results.find((x) => x.variant === 'slow');
  assert.ok(r.verified && r.median_ms > 0, 'measured and verified');
  assert.match(measured.traces.find((t) => t.variant === 'slow').figures.error, /not traced: the simulation ran past its (3 s|CPU) budget/);
  assert.equal(r.prediction.source, 'traced');
  assert.match(r.prediction.error, /ran past its/);
});
