// A CUDA kernel traced as itself: warplab-runner --trace with "language":
// "cuda" compiles the kernel with clang for the Oclgrind simulator
// (runner/trace/cuda_oclgrind.c, warplab-cuda-ir) and calls it as CUDA
// does. Every catalog CUDA twin's trace agrees with the declaration its
// OpenCL twin's trace is held to (trace.test.mjs), with the lines of the .cu
// file; a user's CUDA kernel gets the figures of its code; a construct the
// simulator cannot run, and a runner without clang 14, are said plainly.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { runToEnd, ROOT, SMALL_POINTS as POINTS } from './harness.mjs';

const CATALOG = JSON.parse(readFileSync(join(ROOT, 'kernels/catalog.json'), 'utf8'));

async function trace(spec, env) {
  const out = await runToEnd('warplab-runner', ['--kernels', 'kernels', '--trace', JSON.stringify(spec)], 180000, env);
  return { ...out, figures: out.code === 0 ? JSON.parse(out.stdout) : null };
}

// The naive transpose as a user would write it: line 5 reads a row and
// writes a column.
const NAIVE = `extern "C" __global__ void mine(float *odata, const float *idata, int n)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	odata[x * n + y] = idata[y * n + x];
}
`;

test('every_catalog_cuda_twin_traces_as_its_declaration_with_its_own_lines', async () => {
  const bad = [];
  let traced = 0;
  for (const e of CATALOG.experiments) {
    const lines = readFileSync(join(ROOT, 'kernels', e.cuda_source), 'utf8').split('\n').length;
    for (const v of e.variants) {
      const { code, stderr, figures } = await trace({ experiment: e.id, variants: [v.id], params: POINTS[e.id], language: 'cuda' });
      if (code !== 0) { bad.push(`${e.id}/${v.id}: ${stderr}`); continue; }
      traced++;
      const t = figures.traced;
      const d = figures.declared;
      const same = (a, b) => (a === null && b === null) || (a !== null && b !== null && Math.abs(a - b) < 1e-6);
      if (!same(t.sectors_per_request, d.sectors_per_request) || !same(t.conflict_degree, d.conflict_degree) ||
        (t.efficiency === null) !== (d.efficiency === null) || Math.abs(t.efficiency - d.efficiency) > 0.01) {
        bad.push(`${e.id}/${v.id}: traced ${JSON.stringify([t.sectors_per_request, t.conflict_degree, t.efficiency])}, declared ${JSON.stringify([d.sectors_per_request, d.conflict_degree, d.efficiency])}`);
      }
      // Its sites are the .cu file's lines, not the .cl twin's.
      if (!t.sites.every((s) => s.line >= 0 && s.line <= lines)) bad.push(`${e.id}/${v.id}: lines ${t.sites.map((s) => s.line)} past ${e.cuda_source}'s ${lines}`);
    }
  }
  assert.deepEqual(bad, []);
  assert.equal(traced, CATALOG.experiments.reduce((n, e) => n + e.variants.length, 0));
});

test('a_custom_cuda_kernel_is_traced_as_written', async () => {
  const point = POINTS.transpose;
  const { code, stderr, figures } = await trace({ experiment: 'transpose', variants: [], kernels: [{ name: 'mine', like: 'naive', source: NAIVE }], params: point, language: 'cuda' });
  assert.equal(code, 0, stderr);
  assert.equal(figures.declared, null, 'nothing declared');
  const load = figures.traced.sites.find((s) => s.op === 'load');
  const store = figures.traced.sites.find((s) => s.op === 'store');
  assert.deepEqual([load.line, store.line], [5, 5]);
  assert.equal(load.sectors_per_request, 4, 'the row is read coalesced');
  assert.equal(store.sectors_per_request, 32, 'the column is written a sector per lane');
  // The same code in OpenCL is traced alike.
  const opencl = await trace({ experiment: 'transpose', variants: ['naive'], params: point });
  assert.deepEqual(figures.traced.sites.map(({ line, ...f }) => f), opencl.figures.traced.sites.map(({ line, ...f }) => f));
});

test('a_constant_table_a_float4_helper_and_a_private_array_are_traced_as_the_gpu_reads_them', async () => {
  // A __constant__ table read at a uniform index: one sector per request;
  // a float4 read whole through a __device__ helper that returns one, and
  // a private array of the work-item's own: one 16-byte access each way.
  const source = `__constant__ unsigned char order[16] = { 5, 12, 0, 9, 3, 14, 7, 1, 10, 15, 2, 8, 13, 4, 11, 6 };
__device__ float4 scaled(float4 a, float s) { return make_float4(a.x * s, a.y * s, a.z * s, a.w * s); }

extern "C" __global__ void mine(const float4 *in, float4 *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	size_t j = (i & ~(size_t)15) + order[i & 15];
	float s[4] = { 1.0f, 2.0f, 3.0f, 4.0f };

	if (j < count)
		out[i] = scaled(in[j], s[count & 3]);
}
`;
  const { code, stderr, figures } = await trace({ experiment: 'copy', variants: [], kernels: [{ name: 'mine', like: 'float4', source }], params: POINTS.copy, language: 'cuda' });
  assert.equal(code, 0, stderr);
  const sites = figures.traced.sites.map((s) => [s.line, s.op, s.sectors_per_request]);
  assert.deepEqual(sites, [[7, 'load', 1], [11, 'load', 16], [11, 'store', 16]]);
});

test('float4s built field by field keep their own lines once joined', async () => {
  // Clang stores a float4 made with make_float4 field by field; the
  // tracer joins the four stores into one 16-byte store as NVIDIA's
  // compiler does, and it keeps its statement's line.
  const source = `extern "C" __global__ void mine(const float4 *in, float4 *out, unsigned int count)
{
	size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
	float4 a = in[i];
	float4 b = in[i ^ 1];

	out[i] = make_float4(a.x, b.x, a.y, b.y);
	out[i ^ 1] = make_float4(a.z, b.z, a.w, b.w);
}
`;
  const { code, stderr, figures } = await trace({ experiment: 'copy', variants: [], kernels: [{ name: 'mine', like: 'float4', source }], params: POINTS.copy, language: 'cuda' });
  assert.equal(code, 0, stderr);
  assert.deepEqual(figures.traced.sites.map((s) => [s.line, s.op, s.sectors_per_request]),
    [[4, 'load', 16], [5, 'load', 16], [7, 'store', 16], [8, 'store', 16]]);
});

test('an_experiment_of_ones_own_in_cuda_is_traced_from_its_definition', async () => {
  const body = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/own/saxpy.json'), 'utf8'));
  body.experiment.source = `extern "C" __global__ void saxpy(unsigned n, float a, const float *x, float *y)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}
`;
  body.experiment.variants = [{ id: 'scalar', kernel: 'saxpy' }];
  delete body.device;
  const { code, stderr, figures } = await trace({ ...body, params: { n: [8192] }, language: 'cuda' });
  assert.equal(code, 0, stderr);
  assert.deepEqual(figures.traced.sites.map((s) => [s.line, s.op, s.sectors_per_request]),
    [[5, 'load', 4], [5, 'load', 4], [5, 'store', 4]]);
});

test('a_cuda_kernel_the_simulator_cannot_run_says_which_construct_and_where', async () => {
  const asm = NAIVE.replace('odata[x * n + y] = idata[y * n + x];',
    'float v;\n\tasm("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(idata + y * n + x));\n\todata[x * n + y] = v;');
  const shuffle = NAIVE.replace('idata[y * n + x]', '__shfl_down_sync(0xffffffff, idata[y * n + x], 1)');
  const typo = NAIVE.replace('idata[y * n + x];', 'idata[y * n + x] oops;');
  // A hand-written bit reversal (lines 5-10), which clang makes one
  // llvm.bitreverse; and a function the simulator does not have, which it
  // refuses when it makes the kernel, as it does an OpenCL kernel's.
  const reversed = NAIVE.replace('odata[x * n + y] = idata[y * n + x];', `unsigned r = x;
	r = ((r >> 1) & 0x55555555u) | ((r & 0x55555555u) << 1);
	r = ((r >> 2) & 0x33333333u) | ((r & 0x33333333u) << 2);
	r = ((r >> 4) & 0x0F0F0F0Fu) | ((r & 0x0F0F0F0Fu) << 4);
	r = ((r >> 8) & 0x00FF00FFu) | ((r & 0x00FF00FFu) << 8);
	r = (r >> 16) | (r << 16);
	odata[x * n + y] = idata[y * n + r % n];`);
  const external = 'extern "C" __device__ unsigned __nv_brev(unsigned);\n' +
    NAIVE.replace('idata[y * n + x]', 'idata[y * n + __nv_brev(x) % n]');
  const cases = [
    [asm, /not traced: the simulator cannot run this CUDA kernel as written: inline PTX \(asm\) at line 6; the kernel's measurements stand/],
    [shuffle, /cannot run this CUDA kernel as written: __shfl_down_sync \(a warp-level function\) at line 5/],
    [reversed, /cannot run this CUDA kernel as written: llvm\.bitreverse\.i32 \(a bit reversal, which the compiler made of line 10\)/],
    [external, /not traced: the simulator cannot run __nv_brev, a function it does not have \(at line 6\); the kernel's measurements stand/],
    [typo, /clang cannot compile the CUDA kernel for the simulator: kernel\.cu:5:\d+: error: expected ';'/],
  ];
  for (const [source, said] of cases) {
    const { code, stderr } = await trace({ experiment: 'transpose', variants: [], kernels: [{ name: 'mine', like: 'naive', source }], params: POINTS.transpose, language: 'cuda' });
    assert.equal(code, 1);
    assert.match(stderr, said);
    assert.doesNotMatch(stderr, /warplab-cuda-[A-Za-z0-9]{6}/, 'the temporary folder is not the user\'s business');
  }
});

test('a_runner_without_clang_14_says_a_cuda_kernel_needs_it', async () => {
  const { code, stderr } = await trace({ experiment: 'transpose', variants: ['naive'], params: POINTS.transpose, language: 'cuda' },
    { WARPLAB_CLANG: '/nonexistent/clang' });
  assert.equal(code, 1);
  assert.match(stderr, /tracing a CUDA kernel needs clang 14/);
});
