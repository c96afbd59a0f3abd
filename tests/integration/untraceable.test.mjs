// A kernel the Oclgrind simulator cannot run says why in words. clang makes
// the hand-written bit reversal below into the intrinsic llvm.bitreverse,
// which Oclgrind does not implement: it refuses to make the kernel, and the
// OpenCL call fails with CL_INVALID_KERNEL_NAME. The tracer says instead
// what it could not run, what that is and the line it came from; a run of
// the kernel on PoCL keeps every measured figure, the undeclared kernel's
// prediction gives the same reason, and a declared one keeps its declared
// prediction with the reason beside it.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';

import { Lab, runToEnd } from './harness.mjs';

// Work-item i copies element j, i's low bits reversed (count a power of two:
// a permutation, so the copy verifies). Lines 5-9 reverse 32 bits; clang
// makes them one llvm.bitreverse.i32, at line 9.
const BITREV = `__kernel void bitrev(__global const float *in, __global float *out, uint count)
{
	uint i = get_global_id(0);
	uint x = i;
	x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
	x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
	x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
	x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
	x = (x >> 16) | (x << 16);
	uint j = x >> clz(count - 1);
	if (i < count)
		out[j] = in[j];
}
`;
const SAID = /not traced: the simulator cannot run llvm\.bitreverse\.i32 \(a bit reversal, which the compiler made of line 9\); the kernel's measurements stand/;

test('the_tracer_names_the_intrinsic_the_simulator_cannot_run_and_its_line', async () => {
  const spec = { experiment: 'copy', kernels: [{ name: 'bitrev', like: 'float', source: BITREV }], params: { n: 8192 } };
  const { code, stderr } = await runToEnd('warplab-runner', ['--kernels', 'kernels', '--trace', JSON.stringify(spec)], 120000);
  assert.equal(code, 1);
  assert.match(stderr, SAID);
  assert.doesNotMatch(stderr.split('\n').filter((l) => l.includes('--trace: ')).join('\n'), /CL_INVALID_KERNEL_NAME/);
  // What stops the simulator while a work-group runs (here a trap at line
  // 7) refuses the trace too, with its line, rather than count the groups
  // that were left.
  const trap = `__kernel void trap(__global const float *in, __global float *out, uint count)
{
	uint i = get_global_id(0);
	if (i < count)
		out[i] = in[i];
	if (i == 3)
		__builtin_trap();
}
`;
  const stopped = await runToEnd('warplab-runner', ['--kernels', 'kernels', '--trace',
    JSON.stringify({ ...spec, kernels: [{ name: 'trap', like: 'float', source: trap }] })], 120000);
  assert.equal(stopped.code, 1);
  assert.match(stopped.stderr, /--trace: not traced: the simulator stopped: Encountered trap instruction \(at line 7\); the kernel's measurements stand/);
});

const lab = new Lab('untraceable');
after(() => lab.close());

test('a_run_of_an_untraceable_kernel_keeps_its_measurements_and_says_why_it_has_no_trace', async () => {
  await lab.startServer();
  await lab.startRunner(['--trace-seconds', '20'], { trace: true });
  const declared = BITREV.replace('void bitrev', 'void bitrev_declared');
  const run = await lab.postDone({
    experiment: 'copy', variants: ['float'], params: { n: 65536 }, repeat: 3,
    kernels: [{ name: 'bitrev', like: 'float', source: BITREV },
      // The same kernel with its accesses declared (each element read and
      // written once, as a copy's).
      { name: 'bitrev_declared', like: 'float', source: declared,
        accesses: [{ array: 'in', space: 'global', op: 'load', bytes: 4, index: 'gid0' },
          { array: 'out', space: 'global', op: 'store', bytes: 4, index: 'gid0' }] }],
  });
  for (const name of ['bitrev', 'bitrev_declared']) {
    const r = run.results.find((x) => x.variant === name);
    assert.ok(r.verified && r.median_ms > 0 && r.gbps > 0 && r.ci_low_ms > 0 && r.reps > 0,
      `${name}: measured and verified on PoCL: ${JSON.stringify(r)}`);
    assert.ok(r.ceiling_pct > 0, `${name}: a share of the copy ceiling`);
    const trace = run.traces.find((t) => t.variant === name);
    assert.match(trace.figures.error, SAID, `${name}'s stored trace says why`);
  }
  const undeclared = run.results.find((x) => x.variant === 'bitrev').prediction;
  assert.equal(undeclared.source, 'traced');
  assert.match(undeclared.error, SAID, 'the prediction gives the reason');
  const own = run.results.find((x) => x.variant === 'bitrev_declared').prediction;
  assert.equal(own.source, 'declared', 'a declaration is used');
  assert.ok(own.ms > 0 && own.model === 'ceilings', JSON.stringify(own));
  assert.match(own.trace_error, SAID, 'and the trace\'s reason is beside it');
  // The built-in traced as ever.
  assert.equal(run.traces.find((t) => t.variant === 'float').figures.traced.sectors_per_request, 4);
  assert.doesNotMatch(JSON.stringify(run), /CL_INVALID_KERNEL_NAME/);
});
