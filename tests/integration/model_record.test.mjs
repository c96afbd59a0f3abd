// The model's record on PoCL, against the real server and runner: after a
// small subset of the catalog (a custom kernel and an experiment of one's
// own among it) has run, GET /api/model/accuracy counts, per device and per
// family, exactly what the runs' own JSON says of each result's prediction
// against its measurement, over all runs and over a window of their ends;
// a server whose model differs scores every run again rather than counting
// another's points; bad windows are refused naming the parameter. And the
// sentences are weighed by it: a point the model misses by more than 2× gets
// no cause, and on a CPU the model says what it does not model.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Lab, ROOT, SMALL_POINTS, waitFor } from './harness.mjs';

const lab = new Lab('model-record');
const saxpy = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/own/saxpy.json'), 'utf8'));
const MYCOPY = `__kernel void mycopy(__global const float *in, __global float *out, uint count)
{
	size_t i = get_global_id(0);
	if (i < count)
		out[i] = in[i];
}`;
const MYCOPY_ACCESSES = [
  { array: 'in', space: 'global', op: 'load', bytes: 4, index: 'gid0', when: 'gid0 < n' },
  { array: 'out', space: 'global', op: 'store', bytes: 4, index: 'gid0', when: 'gid0 < n' },
];
// The subset, run one after the other so that their ends differ: each
// family once, banks across its baseline (compared on slowdown), a custom
// kernel, and an experiment of one's own (predicted from its trace).
const REQUESTS = [
  { experiment: 'copy', params: SMALL_POINTS.copy, repeat: 3 },
  { experiment: 'banks', params: { ...SMALL_POINTS.banks, c: [1, 32] }, repeat: 3 },
  { experiment: 'copy', variants: ['float'], params: { n: [8192, 16384] }, repeat: 3,
    kernels: [{ name: 'mycopy', like: 'float', source: MYCOPY, accesses: MYCOPY_ACCESSES }] },
  { ...saxpy, params: { n: [65536] }, repeat: 3, device: 'cpu' },
  { experiment: 'reduction', params: SMALL_POINTS.reduction, repeat: 3 },
];
const runs = [];

before(async () => {
  await lab.startServer();
  // Traced: an experiment of one's own declares nothing, its predictions are its traces'.
  await lab.startRunner(['--trace-seconds', '20'], { trace: true });
  for (const body of REQUESTS) {
    const res = await lab.post('/api/runs', body);
    assert.equal(res.status, 201, res.text);
    const run = await lab.waitSettled(res.json.id, 300000);
    assert.equal(run.status, 'done', run.error);
    runs.push(run);
  }
});
after(() => lab.close());

// What a run's own JSON says: each point (a result whose time stands and
// whose prediction has a ratio) by device and family, with its factor.
function pointsOf(run) {
  const out = [];
  for (const r of run.results) {
    const p = r.prediction;
    if (r.verified === false || !(r.median_ms > 0) || !p || !(p.ratio > 0)) continue;
    // The ratio is predicted over measured: time, or slowdown where both are.
    const onSlowdown = p.slowdown > 0 && r.slowdown > 0;
    const ratio = onSlowdown ? p.slowdown / r.slowdown : p.ms / r.median_ms;
    assert.ok(Math.abs(ratio - p.ratio) <= 1e-9 * p.ratio, `${run.id} ${r.variant}: ratio ${p.ratio} against ${ratio}`);
    const family = run.own_experiment ? 'own experiment' : r.custom ? 'custom' : run.experiment;
    out.push({ device: run.device.id, family, factor: Math.max(p.ratio, 1 / p.ratio) });
  }
  return out;
}

function figures(factors) {
  const f = [...factors].sort((a, b) => a - b);
  const n = f.length;
  return {
    points: n,
    within_2x: f.filter((x) => x <= 2).length,
    within_1_5x: f.filter((x) => x <= 1.5).length,
    within_1_25x: f.filter((x) => x <= 1.25).length,
    median_factor: n ? (n % 2 ? f[(n - 1) / 2] : (f[n / 2 - 1] + f[n / 2]) / 2) : null,
    geomean_factor: n ? Math.exp(f.reduce((s, x) => s + Math.log(x), 0) / n) : null,
  };
}

function assertFigures(seen, expected, where) {
  for (const k of ['points', 'within_2x', 'within_1_5x', 'within_1_25x']) assert.equal(seen[k], expected[k], `${where}: ${k}`);
  for (const k of ['median_factor', 'geomean_factor']) {
    if (expected[k] === null) assert.equal(seen[k], null, `${where}: ${k}`);
    else assert.ok(Math.abs(seen[k] - expected[k]) <= 1e-9 * expected[k], `${where}: ${k} ${seen[k]} against ${expected[k]}`);
  }
}

// The server's answer against what the runs say, per device and family.
function assertAccuracy(body, chosen) {
  const points = chosen.flatMap(pointsOf);
  assertFigures(body.all, figures(points.map((p) => p.factor)), 'all');
  const devices = [...new Set(points.map((p) => p.device))].sort();
  assert.deepEqual(body.devices.map((d) => d.device), devices);
  for (const d of body.devices) {
    const mine = points.filter((p) => p.device === d.device);
    assertFigures(d.all, figures(mine.map((p) => p.factor)), d.device);
    const families = [...new Set(mine.map((p) => p.family))].sort();
    assert.deepEqual(d.families.map((f) => f.family), families);
    for (const f of d.families) assertFigures(f, figures(mine.filter((p) => p.family === f.family).map((p) => p.factor)), `${d.device} ${f.family}`);
  }
}

// The answer once every run of the query's window is scored.
async function settledAccuracy(query = '') {
  let body;
  await waitFor(async () => {
    const res = await lab.get(`/api/model/accuracy${query}`);
    assert.equal(res.status, 200, res.text);
    body = res.json;
    return body.runs_pending === 0;
  }, 'every run scored', 120000);
  return body;
}

test('accuracy_counts_what_the_runs_own_predictions_and_measurements_say', async () => {
  const body = await settledAccuracy();
  assertAccuracy(body, runs);
  const families = body.devices.flatMap((d) => d.families.map((f) => f.family));
  for (const f of ['copy', 'banks', 'custom', 'own experiment', 'reduction']) assert.ok(families.includes(f), `${f} in ${families}`);
  assert.match(body.model_version, /^\w+-[0-9a-f]{12}$/);
  // One device's record is the whole record here; another device has none.
  const device = runs[0].device.id;
  assertAccuracy(await settledAccuracy(`?device=${device}`), runs);
  const none = await settledAccuracy('?device=no-such-device');
  assert.equal(none.all.points, 0);
  assert.deepEqual(none.devices, []);
});

test('a_window_counts_the_runs_that_ended_in_it', async () => {
  // From the custom kernel's run (included) to the reduction's (excluded).
  const since = runs[2].finished_at;
  const until = runs[4].finished_at;
  const inside = runs.filter((r) => r.finished_at >= since && r.finished_at < until);
  assert.equal(inside.length, 2);
  const body = await settledAccuracy(`?since=${since}&until=${until}`);
  assert.equal(body.since, since);
  assert.equal(body.until, until);
  assertAccuracy(body, inside);
  // The same window written with an offset.
  const at = new Date(since);
  const local = new Date(at.getTime() + 2 * 3600 * 1000).toISOString().replace('Z', '+02:00');
  assertAccuracy(await settledAccuracy(`?since=${encodeURIComponent(local)}&until=${until}`), inside);
  // Before every run: nothing.
  assert.equal((await settledAccuracy('?until=2000-01-01T00:00:00Z')).all.points, 0);
});

test('bad_windows_are_refused_naming_the_parameter', async () => {
  const cases = [
    ['?since=yesterday', 'since', /since: 'yesterday' is not allowed \(an RFC 3339 time/],
    ['?since=2026-02-30T00:00:00Z', 'since', /2026-02-30T00:00:00Z/],
    ['?until=2026-11-28', 'until', /until: '2026-11-28' is not allowed/],
    ['?since=2026-11-28T10:00:00Z&until=2026-11-28T09:00:00Z', 'until', /is not after since/],
    ['?device=Not%2Fa%20device', 'device', /device: 'Not\/a device' is not allowed/],
  ];
  for (const [query, field, message] of cases) {
    const res = await lab.get(`/api/model/accuracy${query}`);
    assert.equal(res.status, 400, `${query}: ${res.text}`);
    assert.equal(res.json.error.code, 'invalid_field');
    assert.equal(res.json.error.field, field, query);
    assert.match(res.json.error.message, message);
  }
});

test('another_model_scores_every_run_again_and_never_counts_the_others_points', async () => {
  const before = (await settledAccuracy()).model_version;
  // The same runs read by a server whose catalog differs (a title): its model
  // is another version, so the points scored so far are not its own.
  const kernels = lab.kernelsWith((cat) => { cat.experiments[0].title = `${cat.experiments[0].title} (edited)`; }, 'kernels-edited');
  await lab.stop(lab.server);
  await lab.startServer(['--catalog', join(kernels, 'catalog.json')]);
  const first = (await lab.get('/api/model/accuracy')).json;
  assert.notEqual(first.model_version, before);
  assert.ok(first.scored_now <= 16, 'a read scores a bounded batch');
  assert.equal(first.scored_now + first.runs_pending, runs.length, JSON.stringify(first));
  assert.equal(first.runs_pending_other_version, first.runs_pending, 'what is pending was scored by the other model');
  const body = await settledAccuracy();
  assert.equal(body.model_version, first.model_version);
  assertAccuracy(body, runs);
});

// The factor as the sentences say it.
const factorText = (f) => (f < 9.95 ? `${f.toFixed(1)}×` : `${Math.round(f)}×`);
const factorOf = (r) => Math.max(r.prediction.ratio, 1 / r.prediction.ratio);
const literally = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('a_point_the_model_misses_by_more_than_2x_gets_no_cause', async () => {
  const run = (await lab.get(`/api/runs/${runs[4].id}`)).json;
  const missed = run.results.filter((r) => r.prediction && r.prediction.ratio > 0 && factorOf(r) > 2);
  assert.ok(missed.length > 0, 'PoCL runs the reductions far from the model');
  for (const r of missed) {
    assert.equal(r.prediction.explains, false);
    assert.equal(r.prediction.trust, 'point');
    assert.match(r.prediction.departure, /^Measured [\d.]+× (faster|slower) than predicted: the model does not explain this point and names no cause/);
    assert.doesNotMatch(r.prediction.departure, /likely cause/);
  }
  // The verdict's points and its run sentence: where the fastest (or the
  // slowest) is missed, no ceiling is named for it.
  const title = (id) => run.variants.find((v) => v.id === id).title;
  for (const p of run.verdict.points) {
    const best = run.results.find((r) => r.variant === p.fastest && JSON.stringify(r.params) === JSON.stringify(p.params));
    if (best && factorOf(best) > 2) {
      assert.doesNotMatch(p.sentence, /bound by/, p.sentence);
      assert.match(p.sentence, new RegExp(`the model is ${factorText(factorOf(best))} off here: it does not explain this point`), p.sentence);
    }
  }
  const head = run.verdict.points.find((p) => JSON.stringify(p.params) === JSON.stringify(run.verdict.headline));
  const best = run.results.find((r) => r.variant === head.fastest);
  const slowest = run.results.find((r) => r.variant === head.slowest);
  if (factorOf(best) > 2 || factorOf(slowest) > 2) {
    assert.doesNotMatch(run.verdict.sentence, /In the model|bound by/, run.verdict.sentence);
    const off = [best, slowest].filter((r) => factorOf(r) > 2);
    for (const r of off) assert.match(run.verdict.sentence, new RegExp(`${factorText(factorOf(r))} off for ${literally(title(r.variant))}`), run.verdict.sentence);
  }
});

test('on_a_cpu_the_model_says_what_it_does_not_model', async () => {
  const cpuWords = 'On a CPU the model has no local-memory, first-level, latency, barrier, issue or work-group ceiling';
  for (const run of runs) {
    const seen = (await lab.get(`/api/runs/${run.id}`)).json;
    assert.equal(seen.device.warp_width, null, 'PoCL tells no warp width');
    assert.ok(seen.verdict.sentence.includes(cpuWords), `${run.experiment}: ${seen.verdict.sentence}`);
  }
  // Banks across its baseline: the model puts no cost on a CPU's bank
  // conflicts, so no sentence names them as a reason.
  const banks = (await lab.get(`/api/runs/${runs[1].id}`)).json;
  const conflicted = banks.results.filter((r) => r.params.c === 32 && r.prediction && r.prediction.conflict_degree > 1);
  assert.ok(conflicted.length > 0, 'the model counts conflicts at c = 32');
  assert.doesNotMatch(banks.verdict.sentence, /-way bank conflicts/, banks.verdict.sentence);
  for (const p of banks.verdict.points) assert.doesNotMatch(p.sentence, /-way bank conflicts/, p.sentence);
});
