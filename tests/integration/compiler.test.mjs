// The compiler's account on PoCL (GET /api/runs/{id}/compiler): every variant
// of a run has the build it ran with — PoCL's local and private memory and
// its work-group limits as clGetKernelWorkGroupInfo gives them — with no
// registers, no PTX and no occupancy, each saying why; local memory given
// through arguments follows the point; and runs recorded before the account
// existed read "not recorded".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab, SMALL_POINTS as POINTS } from './harness.mjs';

const MINE = `__kernel __attribute__((reqd_work_group_size(LOCAL_SIZE, 1, 1)))
void mine(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	if (i < count)
		out[i] = in[i];
}
`;

const lab = new Lab('compiler');
before(async () => {
  lab.importStore('tests/fixtures/compare-runs.jsonl');
  await lab.startServer();
  await lab.startRunner();
});
after(() => lab.close());

async function account(body) {
  const posted = await lab.post('/api/runs', body);
  assert.equal(posted.status, 201, JSON.stringify(posted.json));
  const run = await lab.waitDone(posted.json.id);
  assert.equal(run.status, 'done', run.error);
  const got = await lab.get(`/api/runs/${run.id}/compiler`);
  assert.equal(got.status, 200);
  return got.json;
}

const buildOf = (acc, id) => acc.variants.find((v) => v.id === id).builds;

test('every_variant_has_pocls_figures_and_says_why_there_is_no_ptx', async () => {
  const acc = await account({ experiment: 'transpose', params: { n: 256 }, repeat: 2 });
  assert.equal(acc.recorded, true);
  assert.equal(acc.architecture, null);
  assert.match(acc.architecture_why, /no limits are known for this vendor/);
  assert.deepEqual(acc.variants.map((v) => v.id), ['copy', 'naive', 'tiled', 'padded', 'diagonal']);
  for (const v of acc.variants) {
    assert.equal(v.builds.length, 1, v.id);
    const [b] = v.builds;
    const f = b.figures;
    assert.equal(b.options, '-D TILE_DIM=32 -D BLOCK_ROWS=8', v.id);
    assert.deepEqual(b.work_group, [32, 8], v.id);
    assert.equal(f.reported_by, 'opencl', v.id);
    assert.equal(f.registers, null, `${v.id}: PoCL reports no registers`);
    assert.equal(f.spill_store_bytes, null, v.id);
    assert.ok(Number.isInteger(f.private_bytes) && f.private_bytes >= 0, `${v.id}: private ${f.private_bytes}`);
    assert.ok(f.max_work_group >= 256 && f.preferred_multiple > 0, `${v.id}: ${f.max_work_group}, ${f.preferred_multiple}`);
    assert.equal(b.ptx, null, v.id);
    assert.match(b.ptx_why, /no PTX: only NVIDIA's OpenCL/, v.id);
    assert.match(b.occupancy.unknown_why, /no limits are known/, v.id);
  }
  // The tiles: 32 x 32 floats, and 32 x 33 padded.
  assert.equal(buildOf(acc, 'tiled')[0].figures.local_bytes, 4096);
  assert.equal(buildOf(acc, 'padded')[0].figures.local_bytes, 4224);
  assert.equal(buildOf(acc, 'naive')[0].figures.local_bytes, 0);
});

test('every_catalog_variant_has_its_build_recorded', async () => {
  const catalog = (await lab.get('/api/experiments')).json;
  const missing = [];
  for (const e of catalog.experiments) {
    const acc = await account({ experiment: e.id, params: POINTS[e.id], repeat: 2 });
    for (const v of e.variants) {
      const builds = (acc.variants.find((x) => x.id === v.id) || { builds: [] }).builds;
      const f = builds.length ? builds[0].figures : {};
      if (builds.length !== 1 || builds[0].kernel !== v.kernel || !Number.isInteger(f.local_bytes) ||
        !Number.isInteger(f.private_bytes) || !(f.max_work_group > 0) || !(f.preferred_multiple > 0)) {
        missing.push(`${e.id}/${v.id}: ${JSON.stringify(builds)}`);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('local_memory_given_through_arguments_follows_the_point', async () => {
  const acc = await account({ experiment: 'banks', variants: ['stride'], params: { c: [1, 4], local: 64, groups: 4, iters: 64 }, repeat: 2 });
  const [b] = buildOf(acc, 'stride');
  // 4 * (local * c + 32) bytes per work-group, per the catalog's host.args.
  assert.deepEqual(b.launches.map((l) => [l.at.split(',')[0], l.local_bytes]), [['c=1', 384], ['c=4', 1152]]);
  assert.equal(b.figures.local_dynamic_bytes, 384);
  assert.equal(b.figures.local_static_bytes, 0);
});

test('a_custom_kernel_has_its_own_build', async () => {
  const acc = await account({ experiment: 'copy', variants: ['float'], params: { n: 8192 }, repeat: 2,
    kernels: [{ name: 'mine', like: 'float', source: MINE }] });
  const [family] = buildOf(acc, 'float');
  const [custom] = buildOf(acc, 'mine');
  assert.equal(custom.kernel, 'mine');
  assert.equal(family.kernel, 'copy_float');
  assert.notEqual(custom.source_hash, family.source_hash);
  assert.equal(custom.options, family.options);
});

test('runs_from_before_the_account_read_not_recorded', async () => {
  const got = await lab.get('/api/runs/1/compiler');
  assert.equal(got.status, 200);
  assert.equal(got.json.recorded, false);
  assert.match(got.json.note, /^not recorded: /);
  assert.equal((await lab.get('/api/runs/999/compiler')).status, 404);
});
