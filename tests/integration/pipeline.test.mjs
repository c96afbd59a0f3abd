// The core pipeline end to end: queue the README's transpose sweep and a copy
// run over HTTP, let the real runner execute them on PoCL, and read back the run,
// the list, the CSV, the catalog, the devices and health as the API promises.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('pipeline');
const SWEEP = { experiment: 'transpose', params: { n: { from: 256, to: 1024, step: 256 } } };
let sweep;

before(async () => {
  await lab.startServer();
  await lab.startRunner();
});
after(() => lab.close());

test('queues_transpose_sweep_with_201_location_and_url', async () => {
  const res = await lab.post('/api/runs', SWEEP);
  assert.equal(res.status, 201, res.text);
  assert.equal(res.json.status, 'queued');
  assert.ok(Number.isInteger(res.json.id) && res.json.id > 0);
  assert.equal(res.json.url, `/runs/${res.json.id}`);
  assert.equal(res.json.api, `/api/runs/${res.json.id}`);
  assert.equal(res.headers.get('location'), `/api/runs/${res.json.id}`);
  sweep = res.json.id;
});

test('runs_every_transpose_variant_at_every_size_verified', async () => {
  const run = await lab.waitDone(sweep);
  assert.equal(run.status, 'done', run.error);
  assert.deepEqual(run.progress, { done: 20, total: 20 });
  assert.equal(run.results.length, 20);
  const variants = new Set(run.results.map((r) => r.variant));
  assert.deepEqual([...variants].sort(), ['copy', 'diagonal', 'naive', 'padded', 'tiled']);
  const sizes = [...new Set(run.results.map((r) => r.params.n))].sort((a, b) => a - b);
  assert.deepEqual(sizes, [256, 512, 768, 1024]);
  for (const r of run.results) {
    assert.equal(r.verified, true, `${r.variant} n=${r.params.n}: ${r.error}`);
    assert.equal(r.error, null);
    assert.ok(r.median_ms > 0 && r.min_ms <= r.median_ms && r.median_ms <= r.max_ms, JSON.stringify(r));
    // The default: sample until the median is known to ±1%, from 10 to 100
    // launches, within a second.
    assert.ok(r.reps >= 10 && r.reps <= 100, `${r.reps} samples`);
    assert.ok(['noise', 'budget', 'max'].includes(r.stopped), r.stopped);
    assert.ok(r.ci_low_ms <= r.median_ms && r.median_ms <= r.ci_high_ms);
    assert.equal(r.bytes, 8 * r.params.n * r.params.n, 'bytes = matrix read + written');
    assert.ok(Math.abs(r.gbps - r.bytes / (r.median_ms * 1e6)) < 1e-9 * r.gbps, 'GB/s from bytes and median');
    assert.equal(r.params.tile, 32);
    assert.equal(r.params.rows, 8);
  }
  // Points first, then variants: all five variants of n=256 come before any n=512.
  assert.deepEqual(run.results.slice(0, 5).map((r) => r.params.n), [256, 256, 256, 256, 256]);
});

test('run_records_request_with_seed_device_and_provenance', async () => {
  const run = (await lab.get(`/api/runs/${sweep}`)).json;
  assert.equal(run.experiment, 'transpose');
  assert.deepEqual(run.request.params.n, SWEEP.params.n);
  assert.equal(run.request.repeat, 100);
  assert.equal(run.request.cache, 'cold');
  assert.equal(run.request.noise, 0.01);
  assert.equal(run.request.budget_ms, 1000);
  assert.equal(run.request.device, 'auto');
  assert.ok(Number.isInteger(run.request.seed), 'the seed is recorded');
  assert.deepEqual(run.request.variants, ['copy', 'naive', 'tiled', 'padded', 'diagonal']);
  assert.equal(run.device.type, 'cpu');
  assert.ok(run.device.name && run.device.driver && run.device.opencl, JSON.stringify(run.device));
  assert.ok(run.device.compute_units > 0 && run.device.local_mem_bytes > 0);
  assert.match(run.source_hash, /^[0-9a-f]{16}$/);
  assert.ok(run.runner_version);
  for (const k of ['created_at', 'started_at', 'finished_at'])
    assert.match(run[k], /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, k);
  assert.equal(run.url, `/runs/${sweep}`);
});

test('same_seed_reproduces_inputs_and_verification', async () => {
  const first = (await lab.get(`/api/runs/${sweep}`)).json;
  const res = await lab.post('/api/runs', { experiment: 'transpose', variants: ['padded'], params: { n: 256 }, seed: first.request.seed, repeat: 3 });
  assert.equal(res.status, 201, res.text);
  const run = await lab.waitDone(res.json.id);
  assert.equal(run.request.seed, first.request.seed);
  assert.equal(run.results[0].verified, true);
});

test('copy_runs_three_widths_verified', async () => {
  const res = await lab.post('/api/runs', { experiment: 'copy', params: { n: 1 << 20 }, repeat: 5, label: 'ceiling' });
  assert.equal(res.status, 201, res.text);
  const run = await lab.waitDone(res.json.id);
  assert.equal(run.status, 'done', run.error);
  assert.equal(run.label, 'ceiling');
  assert.deepEqual(run.results.map((r) => r.variant), ['float', 'float2', 'float4']);
  for (const r of run.results) {
    assert.equal(r.verified, true, r.error);
    assert.equal(r.bytes, 8 * (1 << 20));
    assert.ok(r.gbps > 0);
  }
});

test('lists_runs_newest_first_with_keyset_paging', async () => {
  const all = (await lab.get('/api/runs')).json;
  assert.ok(all.runs.length >= 3);
  const ids = all.runs.map((r) => r.id);
  assert.deepEqual(ids, [...ids].sort((a, b) => b - a), 'newest first');
  assert.equal(all.next, null);
  for (const r of all.runs) {
    assert.ok(r.progress && r.status && r.experiment && r.url);
    assert.equal(r.results, undefined, 'summaries carry no results');
  }
  const page1 = (await lab.get('/api/runs?limit=1')).json;
  assert.equal(page1.runs.length, 1);
  assert.equal(page1.runs[0].id, ids[0]);
  assert.equal(page1.next, `/api/runs?before=${ids[0]}&limit=1`);
  const page2 = (await lab.get(page1.next)).json;
  assert.equal(page2.runs[0].id, ids[1]);
  const filtered = (await lab.get('/api/runs?experiment=copy')).json;
  assert.ok(filtered.runs.length >= 1 && filtered.runs.every((r) => r.experiment === 'copy'));
  const done = (await lab.get('/api/runs?status=done')).json;
  assert.ok(done.runs.every((r) => r.status === 'done'));
  const bad = await lab.get('/api/runs?limit=500');
  assert.equal(bad.status, 400);
  assert.equal(bad.json.error.field, 'limit');
});

test('downloads_results_as_csv', async () => {
  const res = await lab.get(`/api/runs/${sweep}/results.csv`, { raw: true });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^text\/csv/);
  assert.match(res.headers.get('content-disposition'), new RegExp(`warplab-run-${sweep}\\.csv`));
  const lines = res.text.trim().split(/\r\n/);
  assert.equal(lines[0], 'variant,n,tile,rows,median_ms,min_ms,max_ms,reps,bytes,gbps,gops,verified,custom,'
    + 'predicted_efficiency,predicted_sectors_per_request,predicted_conflict_degree,predicted_pct,predicted_ms,predicted_ratio,'
    + 'predicted_source,traced_efficiency,traced_sectors_per_request,traced_conflict_degree,predicted_binding,predicted_dram_ms,predicted_cache_ms,predicted_local_ms,predicted_latency_ms,predicted_barrier_ms,predicted_launch_ms,predicted_l1_ms,'
    + 'predicted_issue_ms,predicted_dram_read_bytes,predicted_dram_write_bytes,predicted_l2_hit_pct,predicted_own_bytes,own_gbps,like,'
    + 'ci_low_ms,ci_high_ms,ci_pct,spread,stopped,ceiling_pct,energy_j_per_launch,energy_avg_w,energy_idle_w,'
    + 'energy_pj_per_useful_byte,energy_pj_per_moved_byte,energy_throttled,energy_nj_per_op,'
    + 'energy_pj_per_useful_byte_above_idle,energy_moved_bytes,energy_moved_bytes_from,energy_error,'
    + 'tuning_rank,tuning_predicted_ms,runner_id,device_id,predicted_groups_ms,predicted_drain_ms');
  assert.equal(lines.length, 21);
  const run = (await lab.get(`/api/runs/${sweep}`)).json;
  const first = lines[1].split(',');
  assert.equal(first[0], run.results[0].variant);
  assert.equal(Number(first[1]), run.results[0].params.n);
  assert.ok(Math.abs(Number(first[4]) - run.results[0].median_ms) < 1e-6 * run.results[0].median_ms);
  assert.equal(first[11], 'true');
  assert.ok(Math.abs(Number(first[13]) - run.results[0].prediction.efficiency) < 1e-6, 'the model rides along');
  assert.equal(Number(first[14]), run.results[0].prediction.sectors_per_request);
  // The interval and how sampling ended, as the JSON has them.
  const head = lines[0].split(',');
  const col = (name) => first[head.indexOf(name)];
  for (const k of ['ci_low_ms', 'ci_high_ms', 'ci_pct', 'spread']) {
    assert.ok(Math.abs(Number(col(k)) - run.results[0][k]) <= 1e-6 * Math.abs(run.results[0][k]), `${k}: ${col(k)}`);
  }
  assert.equal(col('stopped'), run.results[0].stopped);
  assert.ok(Math.abs(Number(col('ceiling_pct')) - run.results[0].ceiling_pct) <= 1e-6 * run.results[0].ceiling_pct);
});

test('serves_catalog_devices_and_health', async () => {
  const cat = (await lab.get('/api/experiments')).json;
  const t = cat.experiments.find((e) => e.id === 'transpose');
  assert.ok(t && cat.experiments.find((e) => e.id === 'copy'));
  assert.deepEqual(t.variants.map((v) => v.id), ['copy', 'naive', 'tiled', 'padded', 'diagonal']);
  assert.equal(t.params.n.type, 'int');
  assert.ok(t.params.n.min && t.params.n.max && t.params.n.default);
  assert.equal(t.metric, 'bandwidth');

  const devs = (await lab.get('/api/devices')).json.devices;
  assert.ok(devs.length >= 1);
  const cpu = devs.find((d) => d.type === 'cpu');
  for (const k of ['id', 'name', 'vendor', 'platform', 'driver', 'opencl', 'type', 'compute_units',
    'global_mem_bytes', 'local_mem_bytes', 'max_work_group_size', 'fp64', 'warp_width', 'online', 'last_seen'])
    assert.ok(k in cpu, `device has ${k}`);
  assert.equal(cpu.online, true);
  assert.match(cpu.id, /^[a-z0-9-]+-\d+$/);

  const health = await lab.get('/api/health');
  assert.equal(health.status, 200);
  assert.equal(health.json.status, 'ok');
  assert.equal(health.json.db, 'ok');
  assert.ok(health.json.runners.some((r) => r.online && r.devices.includes(cpu.id)));
  assert.equal(typeof health.json.queued, 'number');

  const metrics = await lab.get('/metrics', { raw: true });
  assert.equal(metrics.status, 200);
  assert.match(metrics.text, /warplab_runs\{status="done"\} \d+/);
  assert.match(metrics.text, /warplab_http_requests_total\{route="\/api\/runs",status="201"\} \d+/);
  const done = Number(metrics.text.match(/warplab_runs\{status="done"\} (\d+)/)[1]);
  assert.match(metrics.text, new RegExp(`warplab_run_duration_seconds_count ${done}\n`), 'every finished run in the histogram');
  assert.match(metrics.text, new RegExp(`warplab_run_duration_seconds_bucket\\{le="\\+Inf"\\} ${done}\n`));
  assert.match(metrics.text, /warplab_runner_last_seen_seconds\{runner="\d+"\} \d+\.\d+/);
});

test('serves_dashboard_pages_with_security_headers', async () => {
  for (const [path, type] of [['/', /text\/html/], [`/runs/${sweep}`, /text\/html/], ['/style.css', /text\/css/],
    ['/js/run.js', /javascript/], ['/vendor/chart.umd.js', /javascript/]]) {
    const res = await lab.get(path, { raw: true });
    assert.equal(res.status, 200, path);
    assert.match(res.headers.get('content-type'), type, path);
    assert.equal(res.headers.get('content-security-policy'), "default-src 'self'", path);
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff', path);
    assert.equal(res.headers.get('referrer-policy'), 'same-origin', path);
  }
  const api = await lab.get('/api/health');
  assert.equal(api.headers.get('x-content-type-options'), 'nosniff');
  const run = await lab.get(`/runs/${sweep}`, { raw: true });
  assert.match(run.text, /<canvas id="chart"/);
  assert.doesNotMatch(run.text, /<script>(?!<\/script>)/, 'no inline scripts');
});
