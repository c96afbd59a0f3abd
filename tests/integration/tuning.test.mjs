// A tuning run on PoCL end to end: the transpose's tile and rows marked to
// tune, restrictions between them, "random" with a budget measuring exactly
// that many configurations, "model" measuring the budget it ranks best,
// best first, with its rank against the measured one (Spearman's rho),
// "exhaustive" every one the restrictions allow,
// the run's "tuning" naming the fastest and its margin over the catalog's
// settings, and bad requests refused naming the field.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Lab, ROOT } from './harness.mjs';

const lab = new Lab('tuning');
const SPACE = { n: 256, tile: [8, 16, 32], rows: [1, 2, 4, 8, 16] };

before(async () => {
  await lab.startServer();
  await lab.startRunner();
});
after(() => lab.close());

const config = (r) => `${r.params.tile}x${r.params.rows}`;

test('random_strategy_measures_exactly_its_budget_of_allowed_configurations', async () => {
  const run = await lab.postDone({
    experiment: 'transpose', variants: ['tiled'], seed: 11, repeat: 3, params: SPACE,
    restrict: ['tile * rows <= 128'], tune: { params: ['tile', 'rows'], strategy: 'random', budget: 4 },
  });
  assert.equal(run.results.length, 4, JSON.stringify(run.results.map(config)));
  assert.equal(new Set(run.results.map(config)).size, 4, 'four different configurations');
  for (const r of run.results) {
    assert.equal(r.verified, true, `${config(r)}: ${r.error}`);
    assert.ok(r.params.tile * r.params.rows <= 128 && r.params.tile % r.params.rows === 0, config(r));
  }
  assert.deepEqual(run.request.tune, { params: ['tile', 'rows'], strategy: 'random', objective: 'time', space: 15, budget: 4 });
  assert.equal(run.tuning.summary, 'tile × rows tuned, 15 configurations at each size; measured: 4 at random at each size.');
  const size = run.tuning.sizes[0];
  assert.equal(run.tuning.sizes.length, 1);
  assert.deepEqual(size.at, { n: 256 });
  assert.equal(size.configurations, 4);
  const fastest = run.results.reduce((a, b) => (b.median_ms < a.median_ms ? b : a));
  assert.deepEqual(size.best.config, { tile: fastest.params.tile, rows: fastest.params.rows });
  assert.equal(size.best.median_ms, fastest.median_ms);
  // The catalog's 32 x 8 is ruled out here: no baseline to compare with.
  assert.equal(size.baseline, null);
  assert.equal(size.margin, null);
  // Run again as stored: the same configurations, drawn with the same seed.
  const again = await lab.postDone(run.request);
  assert.deepEqual(again.results.map(config), run.results.map(config));
});

test('exhaustive_strategy_measures_every_allowed_configuration_and_its_margin', async () => {
  const run = await lab.postDone({
    experiment: 'transpose', variants: ['tiled', 'padded'], repeat: 3,
    params: { n: 256, tile: [16, 32], rows: [4, 8, 32] }, restrict: ['rows < 32'],
    tune: { params: ['tile', 'rows'] },
  });
  // rows 32 is ruled out, and is no divisor of 16 either: 2 x 2 left.
  assert.deepEqual([...new Set(run.results.map(config))].sort(), ['16x4', '16x8', '32x4', '32x8']);
  assert.equal(run.results.length, 8);
  const size = run.tuning.sizes[0];
  assert.equal(run.tuning.strategy, 'exhaustive');
  assert.equal(size.configurations, 4);
  const best = run.results.filter((r) => r.verified).reduce((a, b) => (b.median_ms < a.median_ms ? b : a));
  assert.equal(size.best.variant, best.variant);
  assert.equal(size.best.median_ms, best.median_ms);
  const base = run.results.find((r) => r.variant === best.variant && r.params.tile === 32 && r.params.rows === 8);
  assert.deepEqual(size.baseline, { config: { tile: 32, rows: 8 }, median_ms: base.median_ms, energy_j: null });
  assert.ok(Math.abs(size.margin - base.median_ms / best.median_ms) < 1e-12 && size.margin >= 1, String(size.margin));
  assert.equal(run.budget.inputs_made, 1, 'the four configurations share one setup');
  // "Run again with the best": the request with the search gone and the
  // best configuration set, which runs as an ordinary run.
  const again = run.tuning.best_request;
  assert.equal(again.tune, undefined);
  assert.equal(again.restrict, undefined);
  assert.deepEqual({ tile: again.params.tile, rows: again.params.rows }, size.best.config);
  const ordinary = await lab.postDone(again);
  assert.equal(ordinary.tuning, undefined, 'an ordinary run');
  assert.deepEqual(ordinary.results.map((r) => [r.variant, r.params.tile, r.params.rows]),
    ['tiled', 'padded'].map((v) => [v, size.best.config.tile, size.best.config.rows]));
});

// PoCL has no energy counter: a search for energy measures as ever, and
// says why its best is the fastest.
test('energy_objective_without_a_counter_says_why_the_best_is_the_fastest', async () => {
  const run = await lab.postDone({
    experiment: 'transpose', variants: ['tiled'], repeat: 3, params: { n: 256, tile: [16, 32], rows: [4, 8] },
    tune: { params: ['tile', 'rows'], objective: 'energy' },
  });
  assert.equal(run.request.energy, true, 'the objective turns energy on');
  assert.equal(run.results.length, 4);
  const why = run.results[0].energy_error;
  assert.match(why, /no energy counter/);
  const size = run.tuning.sizes[0];
  const fastest = run.results.filter((r) => r.verified).reduce((a, b) => (b.median_ms < a.median_ms ? b : a));
  assert.deepEqual(size.best.config, { tile: fastest.params.tile, rows: fastest.params.rows });
  assert.match(size.best_sentence, /^At n = 256 the fastest of 4 configurations measured/);
  assert.deepEqual(size.energy, {
    objective: 'energy', measured: 0, error: why, front: null,
    sentence: `No configuration's energy was measured here (${why}), so the best is the fastest.`,
  });
  assert.match(run.tuning.summary, /Searched for the least energy a launch\.$/);
});

test('model_strategy_ranks_the_space_and_measures_its_budget_best_predicted_first', async () => {
  const run = await lab.postDone({
    experiment: 'transpose', variants: ['tiled', 'padded'], repeat: 3, params: SPACE,
    restrict: ['tile * rows <= 128'], tune: { params: ['tile', 'rows'], strategy: 'model', budget: 4 },
  });
  const tune = run.request.tune;
  assert.equal(tune.ranked, 11, 'every allowed configuration predicted');
  assert.deepEqual(tune.chosen.map((c) => c.rank), [1, 2, 3, 4]);
  for (let i = 1; i < 4; i++) assert.ok(tune.chosen[i].predicted_ms >= tune.chosen[i - 1].predicted_ms);
  // Exactly the 4 chosen, both variants each, in the ranking's order.
  assert.equal(run.results.length, 8);
  assert.deepEqual([...new Set(run.results.map(config))], tune.chosen.map((c) => `${c.params.tile}x${c.params.rows}`));
  for (const r of run.results) assert.equal(r.verified, true, `${r.variant} ${config(r)}: ${r.error}`);
  const model = run.tuning.sizes[0].model;
  assert.equal(model.configs.length, 4);
  assert.deepEqual(model.configs.map((c) => c.predicted_rank), [1, 2, 3, 4]);
  assert.deepEqual([...model.configs.map((c) => c.measured_rank)].sort(), [1, 2, 3, 4]);
  const d2 = model.configs.reduce((sum, c) => sum + (c.predicted_rank - c.measured_rank) ** 2, 0);
  assert.ok(Math.abs(model.spearman - (1 - (6 * d2) / (4 * 15))) < 1e-12, `rho ${model.spearman}, d2 ${d2}`);
  const first = model.configs[0];
  assert.deepEqual(model.best_predicted.config, first.config);
  const best = Math.min(...model.configs.map((c) => c.median_ms));
  assert.ok(Math.abs(model.gap - first.median_ms / best) < 1e-12 && model.gap >= 1);
  // Each result and its CSV row carry the model's rank of its configuration
  // and the time it predicted when ranking.
  const csv = (await lab.get(`/api/runs/${run.id}/results.csv`, { raw: true })).text.trim().split(/\r\n/);
  const head = csv[0].split(',');
  const rankAt = head.indexOf('tuning_rank'), predictedAt = head.indexOf('tuning_predicted_ms');
  // The columns that came later go after these, whichever they are.
  assert.deepEqual(head.slice(rankAt, rankAt + 4), ['tuning_rank', 'tuning_predicted_ms', 'runner_id', 'device_id']);
  run.results.forEach((r, i) => {
    const chosen = tune.chosen.find((c) => `${c.params.tile}x${c.params.rows}` === config(r));
    assert.deepEqual(r.ranked, { rank: chosen.rank, predicted_ms: chosen.predicted_ms });
    const cells = csv[i + 1].split(',');
    assert.equal(Number(cells[rankAt]), chosen.rank);
    assert.ok(Math.abs(Number(cells[predictedAt]) - chosen.predicted_ms) <= 1e-8 * chosen.predicted_ms);
    assert.equal(cells[head.indexOf('device_id')], r.device_id);
  });
  // The whole space: every allowed configuration ranked, the measured
  // ones with their time, the others with the model's alone.
  const space = (await lab.get(`/api/runs/${run.id}/space.csv`, { raw: true })).text.trim().split(/\r\n/);
  assert.equal(space[0], 'n,tile,rows,rank,predicted_ms,measured_ms,variant,energy_j');
  const rows = space.slice(1).map((line) => line.split(','));
  assert.equal(rows.length, 11, 'a row per allowed configuration');
  assert.deepEqual(rows.map((c) => Number(c[3])), [...Array(11).keys()].map((k) => k + 1));
  for (let i = 1; i < rows.length; i++) assert.ok(Number(rows[i][4]) >= Number(rows[i - 1][4]), 'best predicted first');
  const measuredRows = rows.filter((c) => c[5] !== '');
  assert.deepEqual(measuredRows.map((c) => `${c[1]}x${c[2]}`), tune.chosen.map((c) => `${c.params.tile}x${c.params.rows}`));
  for (const c of measuredRows) {
    const entry = run.tuning.sizes[0].space.find((e) => e.config.tile === Number(c[1]) && e.config.rows === Number(c[2]));
    assert.ok(Math.abs(Number(c[5]) - entry.median_ms) <= 1e-5 * entry.median_ms, `${c[5]} against ${entry.median_ms}`);
    assert.equal(c[6], entry.variant);
  }
  for (const c of rows) assert.ok(Number(c[1]) * Number(c[2]) <= 128, 'only what the restrictions allow');
  // A run that tunes nothing has no space.
  const plain = await lab.postDone({ experiment: 'transpose', variants: ['tiled'], repeat: 3, params: { n: 256 } });
  const none = await lab.get(`/api/runs/${plain.id}/space.csv`, { raw: true });
  assert.equal(none.status, 404);
  assert.match(none.text, /is not a tuning run/);
});

test('bad_tuning_requests_are_refused_naming_the_field', async () => {
  const cases = [
    [{ tune: { params: ['tile'], strategy: 'random', budget: 0 } }, 'tune.budget', /0 is not allowed/],
    [{ tune: { params: ['width'] } }, 'tune.params[0]', /'width' is not a parameter of transpose/],
    [{ restrict: ['tile * '] }, 'restrict[0]', /restrict\[0\]/],
    [{ restrict: ['tile > 64'] }, 'restrict', /none of the 15 configurations/],
    [{ tune: { params: ['tile'], strategy: 'annealing', budget: 4 } }, 'tune.strategy', /'annealing' is not allowed \(allowed: exhaustive, random, model\)/],
    // Energy turned off by hand cannot go with a search for it.
    [{ energy: false, tune: { params: ['tile'], objective: 'both' } }, 'tune.objective', /'both' is not allowed with "energy": false/],
  ];
  for (const [extra, field, message] of cases) {
    for (const path of ['/api/runs', '/api/runs/estimate']) {
      const res = await lab.post(path, { experiment: 'transpose', params: SPACE, ...extra });
      assert.equal(res.status, 400, `${path} ${JSON.stringify(extra)}: ${res.text}`);
      assert.equal(res.json.error.field, field, res.text);
      assert.match(res.json.error.message, message);
    }
  }
  const list = (await lab.get('/api/runs')).json;
  assert.equal((list.runs || list).filter((r) => r.status === 'queued').length, 0, 'nothing refused was queued');
});

// The user's own tiled transpose (tests/fixtures/own/tiled.json), its
// variants' accesses declared as the catalog declares its own: the model
// ranks its tile sizes and measures the best two, as it does a lesson.
test('model_strategy_ranks_an_experiment_of_ones_own', async () => {
  const own = JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/own/tiled.json'), 'utf8')).experiment;
  const once = { var: 'b', from: '0', while: 'b < 1', next: 'b + 1' };
  own.variants[0].model = { accesses: [
    { array: 'in', space: 'global', op: 'load', bytes: 4, index: 'gid1*n + gid0' },
    { array: 'out', space: 'global', op: 'store', bytes: 4, index: 'gid0*n + gid1' }] };
  own.variants[1].model = { accesses: [
    { array: 'in', space: 'global', op: 'load', bytes: 4, index: '(grp1*tile + lid1)*n + grp0*tile + lid0' },
    { array: 't', space: 'local', op: 'store', bytes: 4, index: 'lid1*(tile + 1) + lid0' },
    { array: 't', space: 'local', op: 'load', bytes: 4, index: 'lid0*(tile + 1) + lid1' },
    { array: 'out', space: 'global', op: 'store', bytes: 4, index: '(grp0*tile + lid1)*n + grp1*tile + lid0' }], barriers: once };
  const run = await lab.postDone({
    experiment: own, repeat: 3, params: { n: 512, tile: [4, 8, 16, 32] },
    tune: { params: ['tile'], strategy: 'model', budget: 2 },
  });
  const tune = run.request.tune;
  assert.equal(tune.ranked, 4, 'every tile predicted');
  assert.deepEqual(tune.chosen.map((c) => c.rank), [1, 2]);
  const measured = [...new Set(run.results.map((r) => r.params.tile))];
  assert.deepEqual(measured.sort((a, b) => a - b), tune.chosen.map((c) => c.params.tile).sort((a, b) => a - b));
  assert.equal(run.results.length, 4, 'two tiles, both variants');
  for (const r of run.results) assert.equal(r.verified, true, `${r.variant} ${r.params.tile}: ${r.error}`);
  assert.equal(run.tuning.sizes[0].model.configs.length, 2);
  // Someone else's code tuned counts nothing unless asked; its best, run
  // again, counts as any run does.
  assert.equal(run.request.counters, 'off');
  assert.equal(run.tuning.best_request.counters, undefined, JSON.stringify(run.tuning.best_request));
  // Its check's reference variant is made again at each configuration, on
  // the inputs the size's first made.
  assert.equal(run.budget.inputs_made, 1, JSON.stringify(run.budget));
});

// The configurations of a size share their inputs: made once a size, each
// configuration verified against the reference made from them; an
// ordinary sweep makes each point's own.
test('configurations_of_a_size_share_their_inputs', async () => {
  const run = await lab.postDone({
    experiment: 'transpose', variants: ['tiled', 'padded'], repeat: 3,
    params: { n: [256, 512], tile: [16, 32], rows: 8 }, tune: { params: ['tile'] },
  });
  assert.equal(run.results.length, 8);
  for (const r of run.results) assert.equal(r.verified, true, `${r.variant} ${JSON.stringify(r.params)}: ${r.error}`);
  assert.equal(run.budget.inputs_made, 2, `two sizes: ${JSON.stringify(run.budget)}`);
  const sweep = await lab.postDone({
    experiment: 'transpose', variants: ['tiled'], repeat: 3, params: { n: 256, tile: [16, 32], rows: 8 },
  });
  assert.equal(sweep.budget.inputs_made, 2, `two points of a sweep: ${JSON.stringify(sweep.budget)}`);
});
