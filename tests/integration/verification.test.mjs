// Verification catches one wrong element in every family: for each, a user's
// kernel that is the built-in's own template with exactly one output element
// (or one partial sum) changed runs beside the built-in, on PoCL; the
// built-in verifies and the changed one does not, naming the difference. The
// references are now computed per element or once per point (never from a
// host copy of the inputs), so this is what keeps them honest.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('verification');

before(async () => {
  await lab.startServer();
  await lab.startRunner();
});
after(() => lab.close());

// [experiment, variant, params, the line of its template, that line changed]
const families = [
  ['copy', 'float', { n: 65536 }, 'out[i] = in[i];', 'out[i] = i == 1000 ? -in[i] : in[i];'],
  ['transpose', 'naive', { n: 256 }, 'odata[x * n + y] = idata[y * n + x];',
    'odata[x * n + y] = (x == 3 && y == 200) ? -idata[y * n + x] : idata[y * n + x];'],
  ['transpose', 'copy', { n: 256 }, 'odata[index + i * n] = idata[index + i * n];',
    'odata[index + i * n] = index + i * n == 777 ? -idata[index + i * n] : idata[index + i * n];'],
  ['strided', 'stride', { stride: 4, n: 65536 }, 'out[i] = a[i * (size_t)stride];',
    'out[i] = i == 77 ? -a[i * (size_t)stride] : a[i * (size_t)stride];'],
  ['offset', 'offset', { offset: 3, n: 65536 }, 'out[i] = a[i + offset];', 'out[i] = i == 77 ? -a[i + offset] : a[i + offset];'],
  ['reduction', 'interleaved', { n: 65536 }, 'partial[get_group_id(0)] = tile_data[0];',
    'partial[get_group_id(0)] = tile_data[0] + (get_group_id(0) == 3 ? 1.0f : 0.0f);'],
  ['dot', 'naive', { n: 65536, items: 4096 }, 'resps[i] = val;', 'resps[i] = val + (i == 5 ? 1.0f : 0.0f);'],
  ['myadd', 'MyAdd', { n: 256 }, 'get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j);',
    'get(C, N, i, j) = get(A, N, i, j) + get(A, N, i, j) + (i == 4 && j == 9 ? 1 : 0);'],
  ['minplus', 'v0', { n: 128 }, 'r[n * i + j] = v;', 'r[n * i + j] = (i == 1 && j == 2) ? v + 1.0f : v;'],
  ['banks', 'stride', { c: 3 }, 'out[get_global_id(0)] = acc;', 'out[get_global_id(0)] = get_global_id(0) == 9 ? acc + 1.0f : acc;'],
];

test('one_wrong_element_fails_verification_in_every_family', async () => {
  const queued = [];
  for (const [experiment, variant, params, line, changed] of families) {
    const t = await lab.get(`/api/experiments/${experiment}/variants/${variant}/source`);
    assert.equal(t.status, 200, t.text);
    assert.ok(t.json.template.includes(line), `${experiment}/${variant}: the template holds "${line}"`);
    const source = t.json.template.replace(line, changed);
    const res = await lab.post('/api/runs', {
      experiment, params, repeat: 2, variants: [variant],
      kernels: [{ name: 'wrong', like: variant, source }],
    });
    assert.equal(res.status, 201, `${experiment}: ${res.text}`);
    queued.push([experiment, variant, res.json.id]);
  }
  for (const [experiment, variant, id] of queued) {
    const run = await lab.waitDone(id);
    assert.equal(run.status, 'done', `${experiment}: ${run.error}`);
    const built = run.results.filter((r) => r.variant === variant);
    const wrong = run.results.filter((r) => r.variant === 'wrong');
    assert.ok(built.length > 0 && built.every((r) => r.verified), `${experiment}/${variant} verifies: ${JSON.stringify(built.map((r) => r.error))}`);
    assert.ok(wrong.length > 0 && wrong.every((r) => !r.verified && /verification failed/.test(r.error)),
      `${experiment}: the changed kernel fails: ${JSON.stringify(wrong.map((r) => r.error))}`);
    if (!['reduction', 'dot'].includes(experiment))
      assert.ok(wrong.every((r) => /1 of \d+ (elements|checked entries|work-items)/.test(r.error)), `${experiment}: ${wrong[0].error}`);
  }
});
