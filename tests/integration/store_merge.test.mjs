// Merging one lab's history into another's: `warplab-store import --merge`
// adds an export to a store that already holds runs. Each imported run gets
// a new id after the store's own, and reads at its new URL as it read at the
// old one (results, samples, traces, the compiler's account); the store's
// own runs read as before; the device both labs ran on is listed once. A
// store with runs is refused without --merge, a bad line refuses the whole
// file and leaves the store as it was, and PostgreSQL merges alike.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { BUILD, Lab } from './harness.mjs';

const from = new Lab('merge-from');
const into = new Lab('merge-into');
const pg = new Lab('merge-pg', { store: 'postgres' });
const fromIds = [];
const intoIds = [];
const answers = { from: {}, into: {} };
let exported = '';
let intoExported = '';

function store(args, input) {
  return spawnSync(join(BUILD, 'warplab-store'), args, { input, encoding: 'utf8', maxBuffer: 64 << 20 });
}

// The run as the API shows it at its URL, with its samples and the
// compiler's account, once its predictions are made: a server computes them
// on its own thread, which a slow (sanitized) build may not have done yet
// when the run is first read.
async function read(lab, id) {
  const run = await lab.waitSettled(id);
  const samples = (await lab.get(`/api/runs/${id}/samples`)).json;
  const compiler = await lab.get(`/api/runs/${id}/compiler`);
  assert.equal(run.id, id);
  return { run, samples, compiler: compiler.status === 200 ? compiler.json : compiler.status };
}

// value with every run it names ("run": N, "id": N of the run, "/runs/N")
// renamed by ids (a Map), as the merged store should name them.
function renamed(value, ids, key = '') {
  if (Array.isArray(value)) return value.map((v) => renamed(v, ids));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamed(v, ids, k)]));
  }
  if ((key === 'run' || key === 'id') && ids.has(value)) return ids.get(value);
  if (typeof value === 'string' && /^\/runs\/\d+$/.test(value) && ids.has(Number(value.slice(6)))) return `/runs/${ids.get(Number(value.slice(6)))}`;
  return value;
}

// value less what it says of the store's other runs: the "previous" run
// (the run's, each result's), which the server finds by id among the store's
// runs of the same experiment and device, so an imported run (its id after
// the store's own) rightly gets one of the store's own; and the model's
// record on the device ("model_record"), read from the store's ledger of
// its other runs, which the store's own runs join.
function withoutHistory(value) {
  if (Array.isArray(value)) return value.map(withoutHistory);
  if (value && typeof value === 'object') {
    // The verdict's "since" is the previous run's, and ends its sentence.
    const since = value.since && typeof value.sentence === 'string' ? ` ${value.since.sentence}` : null;
    const kept = since && value.sentence.endsWith(since) ? { ...value, sentence: value.sentence.slice(0, -since.length) } : value;
    return Object.fromEntries(Object.entries(kept).filter(([k]) => !['previous', 'model_record', 'since'].includes(k)).map(([k, v]) => [k, withoutHistory(v)]));
  }
  return value;
}

// A read run (read's) with each result's runner id as the order its runner
// first measured in the run (0, 1, ...): a merge numbers the other lab's
// runners anew, as it does its runs, and keeps who measured what.
function runnersInOrder(value) {
  const seen = new Map();
  const order = (id) => (seen.has(id) ? seen.get(id) : (seen.set(id, seen.size), seen.size - 1));
  const results = value.run.results?.map((r) => (r.runner_id === undefined ? r : { ...r, runner_id: order(r.runner_id) }));
  return { ...value, run: { ...value.run, results } };
}

before(async () => {
  await from.startServer();
  await from.startRunner([], { trace: true });
  fromIds.push((await from.post('/api/runs', { experiment: 'copy', params: { n: 65536 }, repeat: 3, label: 'from the other lab' })).json.id);
  fromIds.push((await from.post('/api/runs', { experiment: 'transpose', variants: ['naive', 'padded'], params: { n: 256 } })).json.id);
  for (const id of fromIds) assert.equal((await from.waitDone(id)).status, 'done');
  await from.stop(from.runner);
  // A run that never ran: cancelled while queued, no results.
  fromIds.push((await from.post('/api/runs', { experiment: 'copy', params: { n: 65536 } })).json.id);
  await from.post(`/api/runs/${fromIds[2]}/cancel`);
  for (const id of fromIds) answers.from[id] = await read(from, id);
  const out = store(['export', '--from', from.db]);
  assert.equal(out.status, 0, out.stderr);
  exported = out.stdout;

  await into.startServer();
  await into.startRunner();
  for (const n of [65536, 131072]) intoIds.push((await into.post('/api/runs', { experiment: 'copy', params: { n }, label: 'already here' })).json.id);
  for (const id of intoIds) assert.equal((await into.waitDone(id)).status, 'done');
  await into.stop(into.runner);
  for (const id of intoIds) answers.into[id] = await read(into, id);
  intoExported = store(['export', '--from', into.db]).stdout;
});
after(async () => { await from.close(); await into.close(); await pg.close(); });

// Check lab's merged store: its own runs (ids) as before, the imported ones
// under newIds reading as they did in the other lab.
async function checkMerged(lab, ownIds, newIds) {
  for (const id of ownIds) assert.deepEqual(await read(lab, id), answers.into[id], `run ${id} of the store reads as before`);
  const ids = new Map(fromIds.map((id, k) => [id, newIds[k]]));
  for (const [k, id] of fromIds.entries()) {
    const merged = runnersInOrder(withoutHistory(await read(lab, newIds[k])));
    assert.deepEqual(merged, runnersInOrder(withoutHistory(renamed(answers.from[id], ids))), `run ${id} of the other lab reads as run ${newIds[k]}`);
  }
  const transpose = (await lab.get(`/api/runs/${newIds[1]}`)).json;
  assert.ok(transpose.traces.length > 0, 'the traces came along');
  assert.ok(transpose.results.every((r) => r.verified), 'and the results');
  const page = await lab.get(`/runs/${newIds[0]}`, { headers: { Accept: 'text/html' }, raw: true });
  assert.equal(page.status, 200, 'the new URL opens');
  const devices = (await lab.get('/api/devices')).json.devices.map((d) => d.id);
  assert.equal(new Set(devices).size, devices.length, `each device once: ${devices}`);
  const labelled = (await lab.get('/api/runs?label=other%20lab')).json.runs.map((r) => r.id);
  assert.deepEqual(labelled, [newIds[0]], 'the label search finds the imported run');
}

test('import_refuses_a_store_with_runs_unless_asked_to_merge', () => {
  const was = store(['export', '--from', into.db]).stdout;
  const res = store(['import', '--to', into.db], exported);
  assert.equal(res.status, 1);
  assert.match(res.stderr, /not empty .*add --merge to import its runs beside them under new ids/);
  assert.equal(store(['export', '--from', into.db]).stdout, was, 'nothing was written');
});

test('a_bad_line_refuses_the_whole_merge_and_leaves_the_store_as_it_was', () => {
  const was = store(['export', '--from', into.db]).stdout;
  // Every good record first, so the runs were in when the last line fails.
  const bad = `${exported}{"table":"results","row":{"run_id":${fromIds[0]},"seq":99,"variant":"float","params":"{}","reps":"three","verified":1}}\n`;
  const res = store(['import', '--to', into.db, '--merge'], bad);
  assert.equal(res.status, 1);
  const line = exported.trim().split('\n').length + 1;
  assert.match(res.stderr, new RegExp(`line ${line}: column reps: not a number \\(got "three"\\); nothing was written`));
  const dangling = store(['import', '--to', into.db, '--merge'], `${exported}{"table":"traces","row":{"run_id":77,"variant":"v","params":"{}","figures":"{}"}}\n`);
  assert.equal(dangling.status, 1);
  assert.match(dangling.stderr, /column run_id: run 77 is not among the runs this import has read so far/);
  assert.equal(store(['export', '--from', into.db]).stdout, was, 'nothing was written');
});

test('merge_adds_the_other_labs_runs_under_new_ids_on_sqlite', async () => {
  const res = store(['import', '--to', into.db, '--merge'], exported);
  assert.equal(res.status, 0, res.stderr);
  const first = Math.max(...intoIds) + 1;
  const newIds = fromIds.map((_, k) => first + k);
  const shift = first - fromIds[0];
  assert.match(res.stderr, new RegExp(`imported 3 runs as ids ${first}\\.\\.${first + 2} \\(ids ${fromIds[0]}\\.\\.${fromIds[2]} in the export, \\+${shift} each\\), \\d+ results .* beside its 2 runs; already there, kept once: .*device`));
  await checkMerged(into, intoIds, newIds);
  // The server that was running during the merge queues the next run after them.
  const next = await into.post('/api/runs', { experiment: 'copy', params: { n: 65536 } });
  assert.equal(next.status, 201, next.text);
  assert.equal(next.json.id, first + 3, 'the next run takes the next id');
  await into.post(`/api/runs/${next.json.id}/cancel`);
});

test('merge_into_postgresql_after_a_restore_that_kept_its_ids', async () => {
  const restored = store(['import', '--to', pg.db, '--merge'], intoExported);
  assert.equal(restored.status, 0, restored.stderr);
  assert.match(restored.stderr, /imported 2 runs, \d+ results \(\d+ records\) into PostgreSQL$/m, 'an empty store is a restore');
  const res = store(['import', '--to', pg.db, '--merge'], exported);
  assert.equal(res.status, 0, res.stderr);
  const first = Math.max(...intoIds) + 1;
  assert.match(res.stderr, new RegExp(`imported 3 runs as ids ${first}\\.\\.${first + 2} .* into PostgreSQL beside its 2 runs`));
  await pg.startServer();
  await checkMerged(pg, intoIds, fromIds.map((_, k) => first + k));
  const next = await pg.post('/api/runs', { experiment: 'copy', params: { n: 65536 } });
  assert.equal(next.status, 201, next.text);
  assert.equal(next.json.id, first + 3, 'the next run takes the next id');
});
