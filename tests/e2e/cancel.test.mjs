// Cancel on the run page: a queued run (no runner is online here, so it
// waits) is cancelled from its page; where the server asks for a write
// token, the page asks for it and sends it. The button goes once the run
// can no longer be cancelled.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage } from './browser.mjs';

const lab = new Lab('e2e-cancel');
const tokens = join(lab.dir, 'tokens');
const TOKEN = 'cancel-5d2a91';
let browser;

before(async () => {
  writeFileSync(tokens, `${TOKEN}\n`);
  await lab.startServer(['--token-file', tokens]);
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

test('a_queued_run_is_cancelled_from_its_page_with_the_token_the_server_asks_for', async () => {
  const auth = { headers: { Authorization: `Bearer ${TOKEN}` } };
  const id = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 1 }, auth)).json.id;
  const page = await openPage(browser);
  // Cancel asks once each time it is pressed: declined, nothing happens.
  const asked = [];
  let accept = false;
  page.on('dialog', (d) => { asked.push(d.message()); if (accept) d.accept(); else d.dismiss(); });
  await page.goto(`${lab.base}/runs/${id}`);
  await page.waitForSelector('#cancel:not([hidden])');
  await page.click('#cancel');
  assert.match(asked[0] || '', new RegExp(`^Cancel run #${id}\\? It has not started\\.$`));
  assert.equal(await page.locator('#cancel-token-box').isHidden(), true, 'declined: not even the token is asked');
  accept = true;
  assert.equal(await page.locator('#status').innerText(), 'queued');
  // No token saved in this browser: the server says 401 and the page asks.
  await page.click('#cancel');
  await page.waitForSelector('#cancel-token-box:not([hidden])');
  assert.equal((await lab.get(`/api/runs/${id}`)).json.status, 'queued', 'nothing cancelled without the token');
  await page.fill('#cancel-token', TOKEN);
  await page.click('#cancel');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'cancelled');
  assert.equal((await lab.get(`/api/runs/${id}`)).json.status, 'cancelled');
  assert.equal(await page.locator('#cancel').isHidden(), true, 'no Cancel on a cancelled run');
  assert.equal(asked.length, 3, 'asked once for each press');
  assert.equal(await page.locator('#cancel-said').innerText(), '', 'what Cancel said is past once the status says it');
  assert.deepEqual(page.errors.filter((e) => !/status of 401/.test(e)), []);
  await page.context().close();
});

test('a_run_cancelled_while_running_says_how_far_it_got', async () => {
  const auth = { headers: { Authorization: `Bearer ${TOKEN}` } };
  await lab.startRunner();
  const id = (await lab.post('/api/runs', { experiment: 'transpose', params: { n: { from: 512, to: 3072, step: 256 } }, repeat: 10 }, auth)).json.id;
  await lab.waitRun(id, (r) => r.status === 'running' && r.progress.done >= 5);
  assert.equal((await lab.post(`/api/runs/${id}/cancel`, {}, auth)).status, 200);
  const run = await lab.waitDone(id);
  assert.equal(run.status, 'cancelled');
  const seen = run.verdict.points_seen;
  assert.ok(seen >= 1 && seen < 11, `cut short: ${seen} of 11`);
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/${id}`);
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('cancelled'));
  assert.equal(await page.locator('#status').innerText(), `cancelled after ${seen} of 11 points`);
  assert.match(await page.locator('#verdict').innerText(), new RegExp(`^Verdict: Cancelled after ${seen} of 11 points: `));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
