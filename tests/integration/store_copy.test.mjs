// Moving a lab's history: `warplab-store copy` from the SQLite file a lab
// started with into PostgreSQL keeps every run, its results and samples,
// its id and so its URL, and the next run gets the next id; a store that is
// not empty is refused; `export` and `import` round-trip the same records as
// JSON lines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { BUILD, Lab } from './harness.mjs';

const sqlite = new Lab('copy-from');
const pg = new Lab('copy-to', { store: 'postgres' });
const ids = [];
const answers = {};

function store(...args) {
  return spawnSync(join(BUILD, 'warplab-store'), args, { encoding: 'utf8', maxBuffer: 64 << 20 });
}

// The run as the API shows it, without what depends on the reading server:
// read once the server's predictions are in (a busy machine may take a
// while to compute them for a server that has just started).
async function read(lab, id) {
  const run = await lab.waitRun(id, (r) => !r.predictions_pending);
  const samples = (await lab.get(`/api/runs/${id}/samples`)).json;
  return { run, samples };
}

before(async () => {
  await sqlite.startServer();
  await sqlite.startRunner();
  ids.push((await sqlite.post('/api/runs', { experiment: 'copy', params: { n: 65536 }, repeat: 3, label: 'before the move' })).json.id);
  ids.push((await sqlite.post('/api/runs', { experiment: 'transpose', variants: ['naive', 'padded'], params: { n: 256 } })).json.id);
  for (const id of ids) assert.equal((await sqlite.waitDone(id)).status, 'done');
  await sqlite.stop(sqlite.runner);
  ids.push((await sqlite.post('/api/runs', { experiment: 'copy', params: { n: 65536 } })).json.id);
  await sqlite.post(`/api/runs/${ids[2]}/cancel`);
  for (const id of ids) answers[id] = await read(sqlite, id);
  await sqlite.stop(sqlite.server);
});
after(async () => { await sqlite.close(); await pg.close(); });

test('copy_moves_every_run_with_its_id_and_url', async () => {
  const res = store('copy', '--from', sqlite.db, '--to', pg.db);
  assert.equal(res.status, 0, res.stderr);
  assert.match(res.stderr, /copied 3 runs, \d+ results .* into PostgreSQL/);
  assert.doesNotMatch(res.stderr, /postgresql:\/\//, 'the URI (and any password in it) is not printed');
  await pg.startServer();
  for (const id of ids) {
    const moved = await read(pg, id);
    assert.deepEqual(moved, answers[id], `run ${id} reads the same from PostgreSQL`);
  }
  const page = await pg.get(`/runs/${ids[0]}`, { headers: { Accept: 'text/html' }, raw: true });
  assert.equal(page.status, 200, 'the share URL still opens');
  const next = await pg.post('/api/runs', { experiment: 'copy', params: { n: 65536 } });
  assert.equal(next.status, 201, next.text);
  assert.equal(next.json.id, Math.max(...ids) + 1, 'the next run takes the next id');
});

test('copy_refuses_a_store_that_is_not_empty', () => {
  const res = store('copy', '--from', sqlite.db, '--to', pg.db);
  assert.equal(res.status, 1);
  assert.match(res.stderr, /not empty/);
});

test('export_and_import_round_trip_as_json_lines', async () => {
  const out = store('export', '--from', pg.db);
  assert.equal(out.status, 0, out.stderr);
  const lines = out.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(lines.every((r) => typeof r.table === 'string' && typeof r.row === 'object'));
  assert.equal(lines.filter((r) => r.table === 'runs').length, 4);
  const again = join(sqlite.dir, 'restored.db');
  const imported = spawnSync(join(BUILD, 'warplab-store'), ['import', '--to', again], { input: out.stdout, encoding: 'utf8' });
  assert.equal(imported.status, 0, imported.stderr);
  const back = store('export', '--from', again);
  assert.equal(back.stdout, out.stdout, 'the restored store exports the same records');

  const bad = spawnSync(join(BUILD, 'warplab-store'), ['import', '--to', join(sqlite.dir, 'bad.db')],
    { input: '{"table":"runs","row":{"id":"seven"}}\n', encoding: 'utf8' });
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /line 1: column id: not a number \(got "seven"\); nothing was written/);
});
