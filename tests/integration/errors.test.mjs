// The error contract over HTTP: every bad request gets its status and a JSON
// error naming the field, creates no run, and leaves the server serving.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('errors');

before(async () => {
  await lab.startServer();
  await lab.startRunner();
});
after(() => lab.close());

async function runCount() {
  const runs = (await lab.get('/api/runs?limit=200')).json.runs;
  return runs.length;
}

const BAD = [
  ['malformed JSON', '{"experiment":', 400, 'bad_json', undefined],
  ['not an object', '[1]', 400, 'bad_json', undefined],
  ['duplicate keys', '{"experiment":"copy","experiment":"copy"}', 400, 'bad_json', undefined],
  ['deep nesting', '['.repeat(5000) + ']'.repeat(5000), 400, 'bad_json', undefined],
  ['NUL byte', '{"experiment":"copy"\u0000}', 400, 'bad_json', undefined],
  ['escaped NUL in a string', '{"experiment":"co\\u0000py"}', 400, 'bad_json', undefined],
  ['unknown experiment', { experiment: 'warp' }, 400, 'unknown_experiment', 'experiment'],
  ['unknown variant', { experiment: 'transpose', variants: ['naive', 'fast'] }, 400, 'unknown_variant', 'variants[1]'],
  ['unknown field', { experiment: 'copy', priority: 1 }, 400, 'invalid_field', 'priority'],
  ['unknown param', { experiment: 'copy', params: { size: 4 } }, 400, 'invalid_param', 'params.size'],
  ['wrong type', { experiment: 'copy', repeat: '10' }, 400, 'invalid_field', 'repeat'],
  ['out of range', { experiment: 'transpose', params: { n: 100000 } }, 400, 'invalid_param', 'params.n'],
  ['non-integer', { experiment: 'transpose', params: { n: 256.5 } }, 400, 'invalid_param', 'params.n'],
  ['not a multiple', { experiment: 'transpose', params: { n: 1000 } }, 400, 'invalid_param', 'params.n'],
  ['backwards range', { experiment: 'transpose', params: { n: { from: 1024, to: 256, step: 256 } } }, 400, 'invalid_param', 'params.n'],
  ['zero step', { experiment: 'transpose', params: { n: { from: 256, to: 1024, step: 0 } } }, 400, 'invalid_param', 'params.n.step'],
  ['too many points', { experiment: 'transpose', params: { n: { from: 32, to: 32768, step: 32 } } }, 400, 'too_many_points', 'params'],
  ['oversized label', { experiment: 'copy', label: 'x'.repeat(201) }, 400, 'invalid_field', 'label'],
  ['unknown device', { experiment: 'copy', device: 'quantum-9' }, 400, 'invalid_field', 'device'],
  ['no such device kind', { experiment: 'copy', device: 'gpu' }, 422, 'device_limit', 'device'],
];

for (const [name, body, status, code, field] of BAD) {
  test(`rejects_${name.replace(/\W+/g, '_')}`, async () => {
    const before = await runCount();
    const res = await lab.post('/api/runs', body);
    if (name === 'no such device kind' && res.status === 201) return; // a machine with a GPU
    assert.equal(res.status, status, res.text);
    assert.match(res.headers.get('content-type'), /^application\/json/);
    assert.equal(res.json.error.code, code, res.text);
    assert.ok(res.json.error.message.length > 10, 'a message a person can act on');
    if (field) {
      assert.equal(res.json.error.field, field);
      assert.ok(res.json.error.message.startsWith(field.split('[')[0]), `message names the field: ${res.json.error.message}`);
    }
    assert.equal(await runCount(), before, 'no run was created');
  });
}

test('rejects_request_over_device_memory_with_422', async () => {
  const dev = (await lab.get('/api/devices')).json.devices.find((d) => d.type === 'cpu');
  // The smallest transpose whose one buffer (4 n^2 bytes) is over the device's largest allocation.
  let n = 32;
  while (4 * n * n <= dev.max_alloc_bytes) n *= 2;
  if (n > 32768) return; // a device this large cannot be refused with a valid n
  const before = await runCount();
  const res = await lab.post('/api/runs', { experiment: 'transpose', params: { n }, device: dev.id });
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.error.code, 'device_limit');
  assert.match(res.json.error.message, new RegExp(dev.id));
  assert.equal(await runCount(), before);
});

test('rejects_body_that_is_not_json_content_type', async () => {
  const res = await lab.post('/api/runs', '{"experiment":"copy"}', { headers: { 'Content-Type': 'text/plain' } });
  assert.equal(res.status, 415);
  assert.equal(res.json.error.code, 'unsupported_media_type');
});

test('rejects_body_over_256_kib_with_413', async () => {
  const res = await lab.post('/api/runs', JSON.stringify({ experiment: 'copy', label: 'x'.repeat(270000) }));
  assert.equal(res.status, 413);
  assert.equal(res.json.error.code, 'too_large');
});

test('answers_405_with_allow_for_wrong_methods', async () => {
  for (const [method, path, allow] of [['DELETE', '/api/runs', 'GET, HEAD, POST'], ['PUT', '/api/runs/1', 'GET, HEAD'],
    ['GET', '/api/runs/1/cancel', 'POST'], ['POST', '/api/experiments', 'GET, HEAD'], ['POST', '/', 'GET, HEAD']]) {
    const res = await lab.request(method, path);
    assert.equal(res.status, 405, `${method} ${path}`);
    assert.equal(res.headers.get('allow'), allow, `${method} ${path}`);
    assert.equal(res.json.error.code, 'method_not_allowed');
  }
});

test('answers_404_for_unknown_runs_and_paths', async () => {
  for (const path of ['/api/runs/999999', '/api/runs/abc', '/api/runs/0', '/api/runs/-1', '/api/nothing', '/api/runs/1/other']) {
    const res = await lab.get(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.json.error.code, 'not_found', path);
  }
  for (const path of ['/nothing.html', '/../kernels/catalog.json', '/%2e%2e/kernels/catalog.json', '/.hidden', '/js/../../Makefile', '/runs/abc']) {
    const res = await lab.get(path, { raw: true });
    assert.equal(res.status, 404, path);
    assert.doesNotMatch(res.text, /max_measurements|CFLAGS/, `${path} must not leak files`);
  }
});

test('cancels_queued_run_and_refuses_finished_one', async () => {
  // Stop the runner so the run stays queued.
  await lab.stop(lab.runner);
  const queued = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 } })).json.id;
  const res = await lab.post(`/api/runs/${queued}/cancel`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, 'cancelled');
  const again = await lab.post(`/api/runs/${queued}/cancel`);
  assert.equal(again.status, 409);
  assert.equal(again.json.error.code, 'conflict');
  const missing = await lab.post('/api/runs/424242/cancel');
  assert.equal(missing.status, 404);
});

test('server_still_serves_after_every_bad_request', async () => {
  const res = await lab.get('/api/health');
  assert.equal(res.status, 200);
  assert.equal(lab.server.exitCode, null);
});
