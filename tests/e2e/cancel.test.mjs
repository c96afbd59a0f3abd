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
  await page.goto(`${lab.base}/runs/${id}`);
  await page.waitForSelector('#cancel:not([hidden])');
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
  assert.deepEqual(page.errors.filter((e) => !/status of 401/.test(e)), []);
  await page.context().close();
});
