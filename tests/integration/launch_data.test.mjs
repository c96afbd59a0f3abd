// The launch of a variant is catalog data (kernels/catalog.json "host"): a new
// variant that its experiment's reference can check needs no C, and a
// declaration the experiment cannot make stops the runner at start, saying why.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { Lab, runToEnd } from './harness.mjs';

const lab = new Lab('launch-data');
after(() => lab.close());

const transpose = (cat) => cat.experiments.find((e) => e.id === 'transpose');

test('a_new_variant_with_an_existing_host_code_is_catalog_data_only', async () => {
  // The seed's naive kernel again under a new id: one element per work-item
  // (its own grid), checked against the transpose; and the copy kernel
  // declared as a transpose would be refused by verification, so its output
  // must come from the declaration too.
  const kernels = lab.kernelsWith((cat) => {
    const t = transpose(cat);
    const naive = t.variants.find((v) => v.id === 'naive');
    const copy = t.variants.find((v) => v.id === 'copy');
    t.variants.push({ ...naive, id: 'naive_again', title: 'naive, declared twice' });
    t.variants.push({ ...copy, id: 'copy_again', title: 'copy, declared twice' });
  });
  await lab.startServer(['--catalog', join(kernels, 'catalog.json')]);
  await lab.startRunner(['--kernels', kernels]);
  const res = await lab.post('/api/runs', {
    experiment: 'transpose', variants: ['naive_again', 'copy_again'],
    params: { n: 96, tile: 32, rows: 8 }, repeat: 2,
  });
  assert.equal(res.status, 201, res.text);
  const run = await lab.waitDone(res.json.id, 120000);
  assert.equal(run.status, 'done', JSON.stringify(run.error));
  assert.deepEqual(run.results.map((r) => [r.variant, r.verified]),
    [['naive_again', true], ['copy_again', true]]);
  const shown = (await lab.get('/api/experiments')).json.experiments.find((e) => e.id === 'transpose');
  assert.deepEqual(shown.variants.find((v) => v.id === 'naive_again').host.global, ['n', 'n']);
  assert.equal(shown.variants.find((v) => v.id === 'copy_again').host.output, 'copied');
});

test('the_runner_refuses_a_launch_its_experiment_cannot_make', async () => {
  const cases = [
    [(v) => { v.host = { args: ['odata', 'nowhere', 'n'] }; }, /experiment 'transpose'\.variants\[2\]\.host\.args\[1\]: 'nowhere' is no buffer, scalar or expression of the parameters/],
    [(v) => { v.host = { output: 'sideways' }; }, /variant 'tiled' host\.output: 'sideways' is not one its check knows \(allowed: transposed, copied\)/],
  ];
  for (const [i, [edit, message]] of cases.entries()) {
    const kernels = lab.kernelsWith((cat) => edit(transpose(cat).variants.find((v) => v.id === 'tiled')), `bad-${i}`);
    const out = await runToEnd('warplab-runner',
      ['--db', join(lab.dir, `bad-${i}.db`), '--kernels', kernels]);
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, message);
  }
});
