// An own experiment's programs built by builder processes beside its points
// (runner/device/builders.h), on PoCL against the real server and runner:
// each configuration that compiles comes from a builder, one that does not is
// built again at its point and fails there in the compiler's words, a
// builder killed mid-run costs nothing but time (the points whose programs
// did not come build their own, and every one is verified), and with
// --builders 0 every point builds its own: none beside the run.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from './harness.mjs';

const lab = new Lab('builders');
const tiled = () => JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/own/tiled.json'), 'utf8'));

// Queue the tiled transpose of one's own at n = 64 over tiles, its source
// after head (another head is another source: nothing of it is cached);
// resolves with the run's id.
async function queueTiled(head, tiles) {
  const body = tiled();
  body.experiment.source = head + body.experiment.source;
  body.params = { n: 64, tile: tiles };
  body.device = 'cpu';
  const posted = await lab.post('/api/runs', body);
  assert.equal(posted.status, 201, posted.text);
  return posted.json.id;
}

before(async () => {
  await lab.startServer();
  // PoCL is no GPU: builders are asked for as a GPU gets them by default.
  await lab.startRunner(['--build-ahead', 'always']);
});
after(() => lab.close());

// The options each program came with from a builder, by the runner's log.
const fromBuilders = () => [...lab.logs.runner.matchAll(/options '([^']*)'\) by a builder process beside the run/g)]
  .map((m) => m[1]);

test('an_own_experiments_programs_come_from_builders_and_one_that_does_not_build_fails_at_its_point', async () => {
  const id = await queueTiled('#if tile == 8\n#error no tile of 8 here\n#endif\n', [4, 8, 16]);
  const run = await lab.waitSettled(id, 600000);
  assert.equal(run.status, 'done', run.error);
  for (const r of run.results) {
    const where = `${r.variant} at tile ${r.params.tile}`;
    if (r.params.tile === 8) {
      assert.equal(r.verified, false, where);
      assert.match(r.error, /no tile of 8 here/, `${where}: the compiler's words, from the point's own build`);
    } else {
      assert.equal(r.verified, true, `${where}: ${r.error}`);
    }
  }
  assert.deepEqual(fromBuilders().sort(), ['-D tile=16', '-D tile=4'],
    'the two programs that build came from builders, the one that does not from none');
});

test('a_builder_killed_mid_run_leaves_its_programs_to_their_points', async () => {
  const before = fromBuilders().length;
  const from = lab.logs.runner.length;
  const id = await queueTiled('// killed builder\n', [4, 8, 16, 32]);
  // A builder lasts from the run's start until its last program is built:
  // killed as the worker says it started, it has built at most its first.
  const started = await lab.waitLogged(/builder process (\d+) started/, from);
  try {
    process.kill(Number(started[1]), 'SIGKILL');
  } catch (e) {
    // Gone already: it built all four, which the assertion below says.
    if (e.code !== 'ESRCH') throw e;
  }
  const run = await lab.waitSettled(id, 600000);
  assert.equal(run.status, 'done', run.error);
  assert.equal(run.results.length, 8);
  for (const r of run.results)
    assert.equal(r.verified, true, `${r.variant} at tile ${r.params.tile}: ${r.error}`);
  assert.ok(fromBuilders().length - before < 4,
    `the killed builder's program and those after it were built at their points (${fromBuilders().length - before} of 4 came from builders)`);
});

test('with_no_builders_each_point_builds_its_own', async () => {
  await lab.stop(lab.runner);
  await lab.startRunner(['--build-ahead', 'always', '--builders', '0']);
  const beside = () => (lab.logs.runner.match(/beside the run/g) || []).length;
  const before = beside();
  const run = await lab.waitSettled(await queueTiled('// no builders\n', [4, 8, 16]), 600000);
  assert.equal(run.status, 'done', run.error);
  for (const r of run.results)
    assert.equal(r.verified, true, `${r.variant} at tile ${r.params.tile}: ${r.error}`);
  assert.equal(beside(), before, 'no program of someone else\'s was built beside the run, on a thread or by a builder');
});
