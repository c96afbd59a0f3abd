// A run that waits is never left unseen on its page: when the last device
// that could take it goes offline while it waits behind another, the status
// line says so, in the server's words, without the page being reloaded.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage } from './browser.mjs';

const lab = new Lab('e2e-waiting');
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

test('a_waiting_run_says_so_when_its_last_device_goes_offline', async () => {
  // A long run holds the device; the second waits behind it.
  const long = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 16777216 }, repeat: 10000, noise: 0.0001, budget_ms: 60000 })).json.id;
  await lab.waitRun(long, (r) => r.status === 'running');
  const waiting = (await lab.post('/api/runs', { experiment: 'copy', params: { n: 4096 }, repeat: 2 })).json;
  assert.equal(waiting.warning, undefined, 'an online device will take it');
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/${waiting.id}`);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'queued');
  assert.equal(await page.locator('#banner').isHidden(), true, 'nothing to warn of yet');
  // The runner stops: its device goes offline, and the page says why the run waits.
  await lab.stop(lab.runner);
  await page.waitForSelector('#banner:not([hidden])', { timeout: 60000 });
  // In the server's words (its runner's last check-in may have moved since).
  const now = (await lab.get(`/api/runs/${waiting.id}`)).json;
  const shape = (text) => text.replace(/last checked in at \S+\)/, 'last checked in at T)');
  assert.match(now.warning, /^no online device can run it: /);
  assert.equal(shape(await page.locator('#banner').innerText()), shape(`This run waits: ${now.warning}.`));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
