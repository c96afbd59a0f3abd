// How far a figure can be trusted, end to end on PoCL: the runner measures its
// device's last-level cache and shows it in /api/devices; cold and hot runs
// both verify, hot points that fit the cache are marked; sampling stops on
// the noise target or, for a request that asks too much, on its budget and
// says so; every result carries its interval and its samples can be
// downloaded; a run repeated shows "same within noise" for the points that
// did not move; drops need intervals apart.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('sampling');

before(async () => {
  await lab.startServer();
  // The full flush of the measured cache, not the suite's 8 MiB cap.
  await lab.startRunner(['--flush-max', '1073741824']);
});
after(() => lab.close());

const run = (body) => lab.postDone(body);

test('the_device_cache_is_found_and_shown', async () => {
  const dev = (await lab.get('/api/devices')).json.devices[0];
  assert.ok(dev.cache, 'the device has a cache description');
  // PoCL runs on the CPU: Linux says its cache size; without sysfs it is
  // probed, or said unknown.
  assert.ok(['system', 'probe', 'unknown'].includes(dev.cache.source), JSON.stringify(dev.cache));
  assert.equal(dev.cache.bytes > 0, dev.cache.source !== 'unknown');
  if (dev.cache.source === 'probe') {
    assert.equal(dev.cache.sizes.length, dev.cache.gbps.length);
    assert.ok(dev.cache.sizes.length >= 5 && dev.cache.sizes[0] === 1 << 20, `probed ${dev.cache.sizes}`);
    assert.ok(dev.cache.gbps.every((g) => g > 0));
    assert.ok(dev.cache.sizes.includes(dev.cache.bytes));
  }
  assert.match(lab.logs.runner, /last-level cache (\d+ bytes \((system|probe)\)|size unknown)/);
});

test('cold_and_hot_runs_verify_and_hot_points_in_cache_are_marked', async () => {
  const dev = (await lab.get('/api/devices')).json.devices[0];
  const common = { experiment: 'copy', params: { n: 65536 }, repeat: 6, variants: ['float4'] };
  const cold = await run({ ...common, cache: 'cold' });
  const hot = await run({ ...common, cache: 'hot' });
  assert.equal(cold.request.cache, 'cold');
  assert.equal(hot.request.cache, 'hot');
  for (const r of [...cold.results, ...hot.results]) assert.ok(r.verified, r.error);
  assert.equal(cold.results[0].in_cache, false, 'cold is never in cache');
  // Cold wrote four times the measured cache (at least 8 MiB), or 512 MiB
  // where the size is unknown, before each launch.
  const flush = dev.cache.bytes ? Math.max(4 * dev.cache.bytes, 8 << 20) : 512 << 20;
  assert.equal(cold.flush_bytes, Math.min(flush, 2 ** 30, dev.max_alloc_bytes, Math.floor(dev.global_mem_bytes / 4)));
  assert.equal(hot.flush_bytes, 0);
  // 512 KiB of data: in any cache the probe can find.
  assert.equal(hot.results[0].in_cache, dev.cache.bytes >= 8 * 65536);
  // The default for a bandwidth experiment is cold, for banks hot.
  assert.equal((await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 1 })).status, 201);
  const ids = (await lab.get('/api/runs?limit=1')).json.runs[0].id;
  assert.equal((await lab.waitDone(ids)).request.cache, 'cold');
});

test('sampling_stops_on_the_budget_and_says_so', async () => {
  const r = await run({ experiment: 'copy', params: { n: 4194304 }, variants: ['float'], cache: 'hot', noise: 0.0001, budget_ms: 40, repeat: 1000 });
  const res = r.results[0];
  assert.equal(res.stopped, 'budget');
  assert.ok(res.reps >= 10 && res.reps < 1000, `${res.reps} samples`);
  assert.ok(res.ci_low_ms <= res.median_ms && res.median_ms <= res.ci_high_ms);
  assert.ok(res.gbps_low <= res.gbps && res.gbps <= res.gbps_high);
  assert.ok(res.ci_pct > 0.01, 'a ±0.01% target was not reached');
  // A loose target is reached, and sampling stops there: its interval is
  // within the target (how many samples that took is the machine's noise).
  const loose = (await run({ experiment: 'copy', params: { n: 65536 }, variants: ['float'], cache: 'hot', noise: 0.5, repeat: 1000 })).results[0];
  assert.equal(loose.stopped, 'noise');
  assert.ok(loose.reps >= 10 && loose.ci_pct <= 50, `${loose.reps} samples, ±${loose.ci_pct}%`);
});

test('clocks_are_unknown_without_nvml', async () => {
  const r = await run({ experiment: 'copy', params: { n: 4096 }, repeat: 2 });
  assert.equal(r.clocks.available, false);
  assert.match(r.clocks.why, /^unknown: not an NVIDIA GPU/);
  assert.ok(r.results.every((x) => x.peak_pct === null && x.discarded === 0));
});

test('samples_are_kept_and_downloadable', async () => {
  const r = await run({ experiment: 'copy', params: { n: 65536 }, repeat: 7, noise: 0.0001, cache: 'hot' });
  const res = await lab.get(`/api/runs/${r.id}/samples`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-disposition'), /warplab-run-\d+-samples\.json/);
  assert.equal(res.json.results.length, r.results.length);
  for (const [i, s] of res.json.results.entries()) {
    const result = r.results[i];
    assert.equal(s.variant, result.variant);
    assert.equal(s.samples_ms.length, result.reps);
    assert.equal(result.stopped, 'max');
    const sorted = [...s.samples_ms].sort((a, b) => a - b);
    assert.ok(Math.abs(sorted[3] - result.median_ms) <= 1e-6 * result.median_ms, 'the median is the samples\' median');
    assert.ok(Math.abs(sorted[0] - result.min_ms) <= 1e-6 * result.min_ms, 'and its minimum');
  }
  assert.equal((await lab.get('/api/runs/999999/samples')).status, 404);
});

test('a_run_repeated_is_judged_against_the_one_before', async () => {
  // The verdict's own values are fixed in compare.test.mjs; here a live
  // repeat links to the run before it, with the noise it asked for, and the
  // run page and the compare table say the same of it.
  const body = { experiment: 'copy', params: { n: 16388 }, repeat: 6, noise: 0.0001, cache: 'hot', variants: ['float4'] };
  const first = await run(body);
  const second = await run(body);
  assert.equal(second.previous.run, first.id);
  const res = second.results[0];
  assert.equal(res.previous.median_ms, first.results[0].median_ms);
  const table = (await lab.get(`/api/compare?runs=${first.id},${second.id}`)).json;
  const cell = table.rows[0].cells.find((c) => c.run === second.id);
  assert.deepEqual([res.previous.verdict, res.previous.change_pct], [cell.verdict, cell.change_pct]);
  assert.equal(second.previous.min_change_pct, 0.01);
  assert.equal(first.previous, null, 'nothing before the first');
  // A cold run does not compare with hot ones.
  const cold = await run({ ...body, cache: 'cold' });
  assert.equal(cold.previous, null);
});
