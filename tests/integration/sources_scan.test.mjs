// POST /api/sources/scan against the real server: a pasted source's kernels
// with each parameter as its signature writes it, and a first draft of an
// experiment of one's own that the server then takes as it is; a CUDA
// source's pointers are device memory; a bad body is refused naming the
// field, a source over the own experiment's limit is a 400 on "source" and
// a body over the server's limit its 413. And what an own run shows before
// a runner takes it: its definition's source and title (the sources view
// once brought the server down for such a run), and a server started with
// --no-custom-kernels runs no code of one's own, experiments included.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from './harness.mjs';

const lab = new Lab('scan');
const closed = new Lab('scan-closed');
const saxpy = () => JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/own/saxpy.json'), 'utf8'));

before(async () => {
  await Promise.all([lab.startServer(), closed.startServer(['--no-custom-kernels'])]);
});
after(() => Promise.all([lab.close(), closed.close()]));

const scan = (body) => lab.post('/api/sources/scan', body);

test('the_saxpy_source_is_read_into_its_kernels_and_a_draft_the_server_takes', async () => {
  const res = await scan({ source: saxpy().experiment.source });
  assert.equal(res.status, 200, res.text);
  const { kernels, draft, notes, language } = res.json;
  assert.equal(language, 'opencl');
  assert.deepEqual(kernels.map((k) => [k.name, k.line]), [['saxpy', 1], ['saxpy4', 2]]);
  assert.equal(kernels[0].signature, '__kernel void saxpy(uint n, float a, __global const float *x, __global float *y)');
  assert.deepEqual(kernels[1].params.map((p) => [p.name, p.type, p.elem, p.pointer, p.space, p.const]), [
    ['n', 'uint', 'uint', 0, null, false], ['a', 'float', 'float', 0, null, false],
    ['x', '__global const float4 *', 'float4', 1, 'global', true], ['y', '__global float4 *', 'float4', 1, 'global', false]]);
  assert.deepEqual(notes, []);
  assert.deepEqual(draft.variants, [{ id: 'saxpy', kernel: 'saxpy' }, { id: 'saxpy4', kernel: 'saxpy4' }]);
  assert.deepEqual(draft.buffers, [{ name: 'x', type: 'float', count: 'n', init: 'random' }, { name: 'y', type: 'float', count: 'n', output: true }]);
  assert.deepEqual(draft.scalars, [{ name: 'a', type: 'float', value: '1.5' }]);
  assert.deepEqual(draft.host, { global: ['n'], local: ['local'], args: ['n', 'a', 'x', 'y'] });
  assert.deepEqual(draft.check, { against: 'saxpy', rel: 1e-6 });
  const estimate = await lab.post('/api/runs/estimate', { experiment: draft, params: { n: [65536, 262144] } });
  assert.equal(estimate.status, 200, estimate.text);
  assert.equal(estimate.json.measurements, 4);
});

test('a_cuda_source_reads_its_pointers_as_device_memory', async () => {
  const source = 'extern "C" __global__ void scale(const float *__restrict__ in, float *out, int n, double s) {}';
  const res = await scan({ source, language: 'cuda' });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.language, 'cuda');
  assert.deepEqual(res.json.kernels[0].params.map((p) => [p.name, p.space, p.const, p.restrict]),
    [['in', 'global', true, true], ['out', 'global', false, false], ['n', null, false, false], ['s', null, false, false]]);
  assert.equal(res.json.draft.check, 'none', 'one kernel is checked against nothing');
  assert.deepEqual(res.json.draft.host.args, ['in', 'out', 'n', 's']);
});

test('a_bad_body_is_refused_naming_the_field', async () => {
  const cases = [
    [{}, 'invalid_field', 'source', /source: is required/],
    [{ source: 7 }, 'invalid_field', 'source', /expected a string, got an integer/],
    [{ source: '', language: 'hip' }, 'invalid_field', 'language', /'hip' is not allowed/],
    [{ source: '', colour: 1 }, 'invalid_field', 'colour', /unknown field \(allowed: source, language\)/],
    [{ source: 'x'.repeat(65537) }, 'invalid_field', 'source', /65537 bytes; at most 65536/],
    [[1], 'bad_json', undefined, /must be a JSON object/],
    ['{"source": "a", "source": "b"}', 'bad_json', undefined, /duplicate/],
  ];
  for (const [body, code, field, message] of cases) {
    const res = await scan(body);
    assert.equal(res.status, 400, `${JSON.stringify(body).slice(0, 60)}: ${res.text}`);
    assert.equal(res.json.error.code, code, res.text);
    assert.equal(res.json.error.field, field, res.text);
    assert.match(res.json.error.message, message);
  }
  const big = await scan({ source: 'x'.repeat(270000) });
  assert.equal(big.status, 413, 'over the body limit is the server\'s 413');
  assert.equal(big.json.error.code, 'too_large');
  const text = await lab.post('/api/sources/scan', '{"source": ""}', { headers: { 'Content-Type': 'text/plain' } });
  assert.equal(text.status, 415);
  assert.equal((await lab.get('/api/sources/scan')).status, 405);
});

test('a_queued_own_run_shows_its_definition_source_and_title', async () => {
  const body = saxpy();
  const posted = await lab.post('/api/runs', body);
  assert.equal(posted.status, 201, posted.text);
  const sources = await lab.get(`/api/runs/${posted.json.id}/sources`);
  assert.equal(sources.status, 200, sources.text);
  assert.deepEqual(sources.json.family, { file: null, hash: sources.json.family.hash, as_of: 'definition' });
  assert.deepEqual(sources.json.variants.map((v) => [v.id, v.kernel, v.line]), [['scalar', 'saxpy', 1], ['vec4', 'saxpy4', 2]]);
  assert.ok(sources.json.variants[1].source.startsWith('__kernel void saxpy4('));
  const run = (await lab.get(`/api/runs/${posted.json.id}`)).json;
  assert.equal(run.own_experiment.title, body.experiment.title);
  assert.deepEqual(run.own_experiment.variants.map((v) => v.id), ['scalar', 'vec4']);
  assert.equal((await lab.get('/api/health')).status, 200, 'the server still stands');
});

test('a_server_without_custom_kernels_runs_no_experiment_of_ones_own', async () => {
  assert.equal((await closed.get('/api/experiments')).json.custom_kernels, false);
  for (const path of ['/api/runs', '/api/runs/estimate']) {
    const res = await closed.post(path, saxpy());
    assert.equal(res.status, 400, `${path}: ${res.text}`);
    assert.equal(res.json.error.field, 'experiment');
    assert.match(res.json.error.message, /--no-custom-kernels/);
  }
  assert.equal((await closed.get('/api/runs')).json.runs.length, 0);
});
