// A lab on PostgreSQL under fire: 20 cycles, each killing (kill -9) one of two
// runners on different hosts or the server at random while clients post runs;
// afterwards every run answered 201 is in the store and ends done, or failed
// with a reason, and none is left queued or running.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('pgkills', { store: 'postgres' });
const accepted = new Set();
const runners = {};
const RUNS = [
  { experiment: 'copy', variants: ['float'], params: { n: 65536 }, repeat: 2, label: 'kills' },
  { experiment: 'transpose', variants: ['naive', 'tiled'], params: { n: { from: 256, to: 768, step: 256 } }, repeat: 3 },
];

function startRunner(host) {
  return lab.startRunner(['--host-name', host, '--heartbeat', '3']).then((c) => { runners[host] = c; });
}

before(async () => {
  await lab.startServer();
  await startRunner('gpu-a');
  await startRunner('gpu-b');
});
after(() => lab.close());

test('twenty_random_kills_lose_no_run_answered_201', async () => {
  let seed = 12345;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let cycle = 0; cycle < 20; cycle++) {
    const posting = lab.postLoop(3, (i, k) => RUNS[(i + k) % RUNS.length], accepted);
    await posting.answered(2 + Math.floor(4 * random()));
    const victim = ['gpu-a', 'gpu-b', 'server'][Math.floor(random() * 3)];
    if (victim === 'server') {
      await lab.stop(lab.server, 'SIGKILL');
      await posting.stop();
      await lab.startServer();
    } else {
      await lab.stop(runners[victim], 'SIGKILL');
      await posting.stop();
      await startRunner(victim);
    }
  }
  const counts = await lab.waitIdle();
  assert.equal(counts.queued + counts.running, 0, `nothing left waiting: ${JSON.stringify(counts)}`);
  const bad = [];
  for (const id of accepted) {
    const res = await lab.get(`/api/runs/${id}`);
    const run = res.json;
    if (res.status !== 200) bad.push(`${id}: missing (${res.status})`);
    else if (run.status === 'failed' ? !run.error : run.status !== 'done') bad.push(`${id}: ${run.status} ${run.error}`);
    else if (run.status === 'done' && run.results.length !== run.progress.total) bad.push(`${id}: ${run.results.length} results`);
  }
  assert.deepEqual(bad, [], 'every run answered 201 ends done, or failed with a reason');
});
