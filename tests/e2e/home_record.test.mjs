// The model's record on the home page, in a real browser, from the H100's
// catalog runs (tests/fixtures/h100-catalog-runs.jsonl, every family): each
// device's families with the figures GET /api/model/accuracy gives, as the
// server scored them, at 1280 px and on a 390-px phone without sideways
// scrolling, and no console error.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, waitFor } from '../integration/harness.mjs';
import { launch, openPage, OUT } from './browser.mjs';

const lab = new Lab('e2e-home-record');
let browser;

before(async () => {
  lab.importStore('tests/fixtures/h100-catalog-runs.jsonl');
  await lab.startServer();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

test('the_home_page_shows_the_models_record_per_device_and_family', async () => {
  let body;
  // The imported runs are scored as the record is asked for, a batch a read.
  await waitFor(async () => {
    body = (await lab.get('/api/model/accuracy')).json;
    return body.runs_pending === 0;
  }, 'every imported run scored', 120000);
  assert.ok(body.all.points > 0 && body.devices.length === 1, JSON.stringify(body.all));
  const device = body.devices[0];
  const name = (await lab.get('/api/devices')).json.devices.find((d) => d.id === device.device)?.name || device.device;
  for (const [w, h] of [[1280, 900], [390, 844]]) {
    const page = await openPage(browser, { width: w, height: h });
    await page.goto(`${lab.base}/`);
    await page.waitForSelector('#record article.record');
    const seen = await page.evaluate(() => ({
      wide: document.documentElement.scrollWidth,
      devices: [...document.querySelectorAll('#record article.record')].map((a) => ({
        id: a.dataset.device,
        title: a.querySelector('h3').textContent,
        summary: a.querySelector('.record-summary').textContent,
        rows: [...a.querySelectorAll('tbody tr')].map((tr) => ({
          family: tr.dataset.family,
          cells: [...tr.querySelectorAll('td')].map((td) => td.textContent),
        })),
      })),
    }));
    assert.equal(seen.devices.length, 1);
    const d = seen.devices[0];
    assert.equal(d.id, device.device);
    assert.equal(d.title, name);
    assert.ok(d.summary.startsWith(`${device.all.points} points: ${device.all.within_2x} within 2×, ${device.all.within_1_5x} within 1.5×, ${device.all.within_1_25x} within 1.25×`), d.summary);
    assert.deepEqual(d.rows.map((r) => r.family), device.families.map((f) => f.family));
    for (const [i, f] of device.families.entries()) {
      const cells = d.rows[i].cells;
      assert.equal(cells[0], String(f.points), f.family);
      assert.ok(cells[1].startsWith(`${f.within_2x} (`) && cells[2].startsWith(`${f.within_1_5x} (`) && cells[3].startsWith(`${f.within_1_25x} (`), `${f.family}: ${cells}`);
      assert.equal(Number(cells[4].replace('×', '')).toPrecision(3), f.median_factor.toPrecision(3), `${f.family}: median`);
      assert.equal(Number(cells[5].replace('×', '')).toPrecision(3), f.geomean_factor.toPrecision(3), `${f.family}: geometric mean`);
    }
    assert.ok(seen.wide <= w, `no sideways scroll at ${w}: ${seen.wide}`);
    await (await page.$('#record-section')).screenshot({ path: join(OUT, `home-record-${w}.png`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
