// Live updates in a real browser: a run page opened while the run goes fills
// in from the run's event stream, asking GET /api/runs/{id} once; when the
// stream is cut (the server stopped), the banner says so, the page falls back
// to polling, and it finishes the run once the server is back. The home page
// moves a run through its statuses from the status stream alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage, shot } from './browser.mjs';

const lab = new Lab('e2e-live');
const SWEEP = { experiment: 'copy', params: { n: { from: 65536, to: 16777216, mul: 2 } }, repeat: 30, cache: 'hot' };
let browser;

before(async () => {
  await lab.startServer();
  await lab.startRunner();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

// The requests a page makes for the run's JSON and for its stream.
function watchRequests(page) {
  const seen = { id: null, json: 0, events: 0 };
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === `/api/runs/${seen.id}`) seen.json++;
    if (path === `/api/runs/${seen.id}/events`) seen.events++;
  });
  return seen;
}

const shownResults = (page) => page.locator('#table td[data-median-ms]').count();

// Queue a run with the device's worker stopped, open its page while it
// waits, and let it go once the page follows the stream: every result the
// page then shows came through the stream.
async function openWhileQueued(page, seen) {
  const worker = lab.workerPid();
  process.kill(worker, 'SIGSTOP');
  let run;
  try {
    run = (await lab.post('/runs', SWEEP)).json;
    seen.id = run.id;
    const stream = page.waitForRequest((r) => new URL(r.url()).pathname === `/api/runs/${run.id}/events`,
      { timeout: 60000 });
    await page.goto(`${lab.base}/runs/${run.id}`);
    await page.waitForFunction(() => document.getElementById('status').textContent === 'queued');
    await stream;
    assert.equal(seen.events, 1, 'the page opened the stream');
  } finally {
    process.kill(worker, 'SIGCONT');
  }
  await page.waitForFunction(() => document.querySelectorAll('#table td[data-median-ms]').length > 0, null, { timeout: 60000 });
  return { run, worker };
}

test('run_page_fills_in_from_the_stream_without_polling', async () => {
  const page = await openPage(browser);
  const seen = watchRequests(page);
  const { run, worker } = await openWhileQueued(page, seen);
  // Hold the run halfway and look: the page shows what the store holds.
  process.kill(worker, 'SIGSTOP');
  try {
    const now = (await lab.get(`/api/runs/${run.id}`)).json;
    assert.equal(now.status, 'running');
    // The stream brings what was committed before the hold: wait for it.
    const progress = `${now.progress.done} of ${now.progress.total} measurements`;
    await page.waitForFunction(([n, text]) => document.querySelectorAll('#table td[data-median-ms]').length === n &&
      document.getElementById('progress-text').textContent === text, [now.results.length, progress], { timeout: 60000 });
    assert.equal(await shownResults(page), now.results.length, 'every committed result is on the page');
    assert.equal(await page.locator('#status').innerText(), 'running');
    assert.equal(await page.locator('#progress-text').innerText(), progress);
  } finally {
    process.kill(worker, 'SIGCONT');
  }
  await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 120000 });
  const final = (await lab.get(`/api/runs/${run.id}`)).json;
  assert.equal(await shownResults(page), final.results.length);
  const medians = await page.locator('#table td[data-median-ms]').evaluateAll((cells) => cells.map((c) => Number(c.dataset.medianMs)).sort((a, b) => a - b));
  assert.deepEqual(medians, final.results.map((r) => r.median_ms).sort((a, b) => a - b), 'the same numbers as the API');
  assert.equal(seen.json, 1, `GET /api/runs/${run.id} once, for the first render; no polling while the stream is open`);
  assert.equal(seen.events, 1, 'one stream');
  await shot(page, 'run-live-1280x800');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('home_page_follows_a_run_through_its_statuses', async () => {
  const page = await openPage(browser);
  let polls = 0;
  page.on('request', (r) => { if (new URL(r.url()).pathname === '/api/runs') polls++; });
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#runs tr[data-run]');
  const run = (await lab.post('/runs', { experiment: 'copy', params: { n: 65536 }, repeat: 5, label: 'pushed to the home page' })).json;
  await page.waitForSelector(`#runs tr[data-run="${run.id}"]`, { timeout: 10000 });
  await page.waitForFunction((id) => /done/.test(document.querySelector(`#runs tr[data-run="${id}"]`).textContent), run.id, { timeout: 60000 });
  assert.match(await page.locator(`#runs tr[data-run="${run.id}"]`).innerText(), /pushed to the home page/);
  assert.equal(polls, 1, 'the list was read once; the stream did the rest');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('run_page_falls_back_to_polling_when_the_stream_is_cut', async () => {
  const page = await openPage(browser);
  const seen = watchRequests(page);
  const { run, worker } = await openWhileQueued(page, seen);
  process.kill(worker, 'SIGSTOP');
  const port = new URL(lab.base).port;
  try {
    await lab.stop(lab.server);
    await page.waitForFunction(() => /cannot be reached/.test(document.getElementById('banner').textContent), null, { timeout: 20000 });
    const polled = seen.json;
    assert.ok(polled >= 2, `the page polls once the stream is gone (${polled} requests)`);
    await lab.startServer(['--listen', `127.0.0.1:${port}`]);
  } finally {
    process.kill(worker, 'SIGCONT');
  }
  await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 120000 });
  await page.waitForFunction(() => document.getElementById('banner').hidden, null, { timeout: 10000 });
  const final = (await lab.get(`/api/runs/${run.id}`)).json;
  assert.equal(await shownResults(page), final.results.length, 'every result once the server is back');
  await page.context().close();
});
