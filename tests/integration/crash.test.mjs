// Crash safety: kill -9 of the server while clients are posting loses no run
// it answered 201 for; kill -9 of the runner mid-run never leaves a run stuck;
// after repeated kills of both the store passes SQLite's integrity check.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('crash');
const accepted = new Set();

before(() => lab.startServer());
after(() => lab.close());

test('no_run_answered_201_is_lost_when_the_server_is_killed', async () => {
  for (let cycle = 0; cycle < 5; cycle++) {
    const posting = lab.postLoop(8, () => ({ experiment: 'copy', params: { n: 1024 }, repeat: 1, label: 'crash test' }), accepted);
    await posting.answered(4 + 4 * cycle);
    await lab.stop(lab.server, 'SIGKILL');
    await posting.stop();
    await lab.startServer();
  }
  const missing = [];
  for (const id of accepted) if ((await lab.get(`/api/runs/${id}`)).status !== 200) missing.push(id);
  assert.deepEqual(missing, [], 'every run answered 201 is in the store');
});

test('repeated_runner_and_server_kills_leave_no_run_stuck_and_a_sound_store', async () => {
  const long = { experiment: 'transpose', params: { n: { from: 512, to: 2048, step: 256 } }, repeat: 5 };
  const ids = [];
  for (let cycle = 0; cycle < 3; cycle++) {
    await lab.startRunner(['--heartbeat', '3']);
    // The posting above can fill the queue to its limit (1000) on a fast
    // machine: then this run waits for the runner to drain some (429).
    let res = await lab.post('/api/runs', long);
    while (res.status === 429) {
      await new Promise((r) => setTimeout(r, 200));
      res = await lab.post('/api/runs', long);
    }
    assert.equal(res.status, 201, res.text);
    const id = res.json.id;
    ids.push(id);
    await lab.waitRun(id, (r) => r.status === 'running' && r.progress.done >= 1);
    await lab.stop(lab.runner, 'SIGKILL');
    await lab.stop(lab.server, 'SIGKILL');
    await lab.startServer();
  }
  // One last runner finishes everything: the killed runs and the copies above.
  await lab.startRunner(['--heartbeat', '3']);
  const counts = await lab.waitIdle();
  assert.equal(counts.running, 0, 'no run is stuck running');
  assert.equal(counts.queued, 0, 'every queued run ran');
  for (const id of ids) {
    const run = (await lab.get(`/api/runs/${id}`)).json;
    assert.equal(run.status, 'done', `run ${id}: ${run.error}`);
    assert.ok(run.attempts >= 2 && run.results.every((r) => r.verified), `run ${id}`);
  }
  await lab.stop(lab.runner);
  await lab.stop(lab.server);
  const check = execFileSync('sqlite3', [lab.db, 'PRAGMA integrity_check; PRAGMA foreign_key_check;']).toString().trim();
  assert.equal(check, 'ok');
});
