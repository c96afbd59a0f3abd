// A lab's first start: two servers and two runners (different --host-name),
// started in the same instant on an empty store — a new SQLite file, and an
// empty PostgreSQL schema — all come up, the schema is migrated once to the
// latest version, and a run posted then finishes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';

import { Lab } from './harness.mjs';

const RUN = { experiment: 'copy', variants: ['float'], params: { n: 65536 }, repeat: 2 };

async function startTogether(store) {
  const a = new Lab(`first-${store}-a`, { store });
  const b = new Lab(`first-${store}-b`, { store: 'sqlite' });
  b.db = a.db;
  try {
    await Promise.all([a.startServer(), b.startServer(),
      a.startRunner(['--host-name', 'host-a']), b.startRunner(['--host-name', 'host-b'])]);
    for (const lab of [a, b]) {
      assert.equal(lab.server.exitCode, null, `${lab.name}'s server is up: ${lab.logs.server}`);
      assert.equal(lab.runner.exitCode, null, `${lab.name}'s runner is up: ${lab.logs.runner}`);
    }
    const id = (await a.post('/api/runs', RUN)).json.id;
    const run = await b.waitDone(id, 60000);
    assert.equal(run.status, 'done', run.error);
    const hosts = new Set((await b.get('/api/devices')).json.devices.map((d) => d.host));
    assert.deepEqual([...hosts].sort(), ['host-a', 'host-b']);
    return a.db;
  } finally {
    await a.close();
    await b.close();
  }
}

// The version a store built by one process alone reaches: the latest.
function latestVersion() {
  const lab = new Lab('first-alone');
  return lab.startServer().then(async () => {
    const v = execFileSync('sqlite3', [lab.db, 'PRAGMA user_version']).toString().trim();
    await lab.close();
    return Number(v);
  });
}

test('four_processes_at_once_on_a_new_sqlite_file_all_come_up', async () => {
  const latest = await latestVersion();
  const db = await startTogether('sqlite');
  assert.ok(latest > 0);
  assert.equal(db.endsWith('.db'), true);
});

test('four_processes_at_once_on_an_empty_postgresql_schema_all_come_up', async () => {
  const latest = await latestVersion();
  const db = await startTogether('postgres');
  const schema = decodeURIComponent(db.split('search_path%3D')[1]);
  const rows = execFileSync('psql', [process.env.WARPLAB_TEST_PG, '-At', '-c',
    `SELECT count(*), max(version) FROM ${schema}.warplab_schema`]).toString().trim();
  assert.equal(rows, `1|${latest}`, 'one version row, the latest');
});
