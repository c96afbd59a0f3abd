// The catalog's programs built ahead: a starting worker builds what
// runs of every experiment at their defaults need while it describes its
// device, so a first run builds nothing; a run of several settings (a
// tuning run) has all its points' programs built on a thread of their own
// while its points are measured, each point taking its own as it is done,
// so no point builds; with --build-ahead never the run
// builds its own. On PoCL "always" is asked for: the default, "gpu", leaves a
// CPU device's cores to its probes. A word other than the three is refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { BUILD, Lab } from './harness.mjs';

const ahead = new Lab('build_ahead');
const never = new Lab('build_ahead_never');
after(() => Promise.all([ahead.close(), never.close()]));

const BODY = { experiment: 'copy', params: { n: 65536 }, variants: ['float4'], repeat: 3 };

// What the runner said between the run's start and its end.
function runLog(lab, run) {
  const log = lab.logs.runner;
  const from = log.indexOf(`run ${run.id} (${run.experiment}) started`);
  assert.ok(from >= 0, log);
  return log.slice(from, log.indexOf(`run ${run.id} done`, from));
}

test('a_first_run_finds_the_catalogs_programs_built_ahead', async () => {
  await ahead.startServer();
  await ahead.startRunner(['--build-ahead', 'always']);
  const said = ahead.logs.runner.match(/(\d+) of the catalog's (\d+) programs ready ahead/);
  assert.ok(said, ahead.logs.runner);
  assert.equal(said[1], said[2], 'every one built');
  assert.ok(Number(said[1]) >= 9, `one or more per family and the random fills: ${said[0]}`);
  assert.match(ahead.logs.runner, /built program \S+ for \S+ \(options '-D LOCAL_SIZE=256'\) ahead/);
  const run = await ahead.postDone(BODY);
  for (const r of run.results) assert.ok(r.verified, r.error);
  assert.doesNotMatch(runLog(ahead, run), /(built|loaded) program/);
});

test('a_tuning_runs_programs_are_built_beside_its_points', async () => {
  const run = await ahead.postDone({
    experiment: 'transpose', variants: ['tiled'], repeat: 2,
    params: { n: 256, tile: [8, 16, 32], rows: [1, 2, 4] }, tune: { params: ['tile', 'rows'] },
  });
  for (const r of run.results) assert.ok(r.verified, r.error);
  const log = runLog(ahead, run);
  const said = log.match(/(\d+) of the run's programs building beside its points/);
  // 9 settings, each its own program (the catalog's own 32 x 8 is not
  // among them), built on a thread of their own, each taken by its point.
  assert.ok(said, log);
  assert.equal(Number(said[1]), run.results.length);
  assert.equal(log.match(/built program \S+ for \S+ \(options '[^']*'\) beside the run/g)?.length, run.results.length, log);
  assert.doesNotMatch(log.slice(log.indexOf(said[0])), /(built|loaded) program \S+ for \S+ \(options '[^']*'\)\n/, 'no point built its own');
});

test('without_building_ahead_the_run_builds_its_own', async () => {
  await never.startServer();
  await never.startRunner(['--build-ahead', 'never']);
  assert.doesNotMatch(never.logs.runner, /ready ahead/);
  const run = await never.postDone(BODY);
  assert.match(runLog(never, run), /built program \S+ for \S+ \(options '-D LOCAL_SIZE=256'\)\n/);
});

test('build_ahead_takes_gpu_always_or_never', () => {
  const out = spawnSync(join(BUILD, 'warplab-runner'), ['--build-ahead', 'sometimes', '--db', '/nonexistent/x.db'],
    { encoding: 'utf8' });
  assert.equal(out.status, 1);
  assert.match(out.stderr, /--build-ahead 'sometimes': allowed are gpu, always and never/);
});
