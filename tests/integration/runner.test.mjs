// The runner's contract with the catalog and the kernel sources: it refuses to
// start on a catalog it cannot implement, builds each program once and reuses
// it, and turns a kernel that does not compile into the run's error, with the
// compiler's log, while it goes on serving.
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT, runToEnd } from './harness.mjs';

const lab = new Lab('runner');
const kernels = join(lab.dir, 'kernels');

before(async () => {
  cpSync(join(ROOT, 'kernels'), kernels, { recursive: true });
  await lab.startServer();
});
after(() => lab.close());

test('refuses_to_start_when_catalog_has_unimplemented_experiment', async () => {
  const odd = join(lab.dir, 'odd-kernels');
  cpSync(join(ROOT, 'kernels'), odd, { recursive: true });
  const cat = JSON.parse(readFileSync(join(odd, 'catalog.json'), 'utf8'));
  // An experiment that declares no buffers has no host side but a test
  // family's of its id.
  const { buffers, defines, check, ...ghost } = cat.experiments[0];
  cat.experiments.push({ ...ghost, id: 'ghost' });
  writeFileSync(join(odd, 'catalog.json'), JSON.stringify(cat));
  const { code, stderr } = await runToEnd('warplab-runner', ['--db', lab.db, '--kernels', odd]);
  assert.notEqual(code, 0);
  assert.match(stderr, /does not implement: ghost/);
});

test('refuses_to_start_on_a_broken_catalog', async () => {
  const odd = join(lab.dir, 'broken-kernels');
  cpSync(join(ROOT, 'kernels'), odd, { recursive: true });
  writeFileSync(join(odd, 'catalog.json'), '{"experiments": [');
  const { code, stderr } = await runToEnd('warplab-runner', ['--db', lab.db, '--kernels', odd]);
  assert.notEqual(code, 0);
  assert.match(stderr, /catalog\.json:\d+/);
});

test('builds_each_program_once_and_reuses_it', async () => {
  await lab.startRunner(['--kernels', kernels]);
  for (let i = 0; i < 2; i++) {
    const id = (await lab.post('/api/runs', { experiment: 'transpose', variants: ['naive', 'padded'], params: { n: 256 }, repeat: 2 })).json.id;
    const run = await lab.waitDone(id);
    assert.equal(run.status, 'done', run.error);
  }
  const builds = lab.logs.runner.match(/built program \w+ for \S+ \(options '-D TILE_DIM=32 -D BLOCK_ROWS=8'\)/g) || [];
  assert.equal(builds.length, 1, lab.logs.runner);
});

test('wrong_result_marks_only_its_point_unverified', async () => {
  // A kernel that is wrong at stride 3 only.
  const path = join(kernels, 'strided.cl');
  writeFileSync(path, readFileSync(path, 'utf8').replace('out[i] = a[i * (size_t)stride];',
    'out[i] = a[i * (size_t)stride] + (stride == 3 ? 1.0f : 0.0f);'));
  const id = (await lab.post('/api/runs', { experiment: 'strided', params: { n: 4096, stride: [1, 3, 4] }, repeat: 2 })).json.id;
  const run = await lab.waitDone(id);
  assert.equal(run.status, 'done', 'the run completes');
  assert.equal(run.results.length, 3);
  for (const r of run.results) {
    if (r.params.stride === 3) {
      assert.equal(r.verified, false);
      assert.match(r.error, /verification failed: 4096 of 4096 elements differ; first at \[0\]/);
      assert.ok(r.median_ms > 0, 'the time is still recorded, marked unverified');
    } else {
      assert.equal(r.verified, true, r.error);
    }
  }
});

test('refused_work_group_size_fails_only_its_point', async () => {
  // A kernel that declares a work-group of 64 while the runner launches 256:
  // the driver refuses every launch with CL_INVALID_WORK_GROUP_SIZE.
  const path = join(kernels, 'offset.cl');
  writeFileSync(path, readFileSync(path, 'utf8').replace('reqd_work_group_size(LOCAL_SIZE, 1, 1)', 'reqd_work_group_size(64, 1, 1)'));
  const id = (await lab.post('/api/runs', { experiment: 'offset', params: { n: 4096, offset: [0, 1] }, repeat: 2 })).json.id;
  const run = await lab.waitDone(id);
  assert.equal(run.status, 'done', 'the run goes on past a refused point');
  assert.equal(run.results.length, 2);
  for (const r of run.results) {
    assert.equal(r.verified, false);
    assert.equal(r.median_ms, null, 'a refused launch has no time');
    assert.match(r.error, /refused work-groups of 256 work-items for this kernel \(CL_INVALID_WORK_GROUP_SIZE\)/);
  }
});

test('build_failure_fails_run_with_build_log', async () => {
  const path = join(kernels, 'copy.cl');
  writeFileSync(path, readFileSync(path, 'utf8').replace('out[i] = in[i];', 'out[i] = in[i] + undeclared_thing;'));
  const id = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 2 })).json.id;
  const run = await lab.waitDone(id);
  assert.equal(run.status, 'failed');
  assert.match(run.error, /kernel build failed/);
  assert.match(run.error, /undeclared_thing/, 'the compiler log names the problem');
  assert.equal(run.results.length, 0);
  // The runner keeps serving other runs.
  const next = (await lab.post('/api/runs', { experiment: 'transpose', variants: ['tiled'], params: { n: 256 }, repeat: 2 })).json.id;
  assert.equal((await lab.waitDone(next)).status, 'done');
});
