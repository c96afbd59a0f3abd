// Traced accesses in the browser: a custom kernel that declares nothing (a
// gather through a hash) is traced by the runner, and its run page marks the
// line that gathers with what one warp request of it costs, lists it in the
// accesses table as traced, and predicts from it. No console errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT } from '../integration/harness.mjs';
import { launch, openPage, shot } from './browser.mjs';

// A gather through a hash: each work-item's load lands in a sector of its own;
// line 5 is the gather.
const GATHER = readFileSync(join(ROOT, 'tests/fixtures/gather.cl'), 'utf8');

const lab = new Lab('e2e-trace');
let browser;

before(async () => {
  await lab.startServer();
  await lab.startRunner([], { trace: true });
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

test('the_source_view_shows_each_traced_line_with_its_figures', async () => {
  const source = GATHER;
  const res = await lab.post('/api/runs', {
    experiment: 'copy', variants: ['float'], params: { n: 1 << 16 }, repeat: 3,
    kernels: [{ name: 'gather', like: 'float', source }],
  });
  assert.equal(res.status, 201, res.text);
  const run = await lab.waitDone(res.json.id, 120000);
  assert.equal(run.status, 'done', run.error);
  const page = await openPage(browser, { width: 1400, height: 900 });
  await page.goto(`${lab.base}/runs/${run.id}`);
  const rows = page.locator('.source-panel.custom[data-variant="gather"] table.line-figures tr[data-line="5"]');
  await rows.first().waitFor();
  const text = (await rows.allInnerTexts()).join('\n');
  assert.match(text, /global load.*3[0-2](\.\d+)? sectors/, text);
  assert.match(text, /global store.*4 sectors/, text);
  assert.match(await page.locator('.source-panel.custom[data-variant="gather"] pre.source').getAttribute('data-line'), /(^|,)5(,|$)/, 'the line is marked in the source');
  assert.match(await page.locator('.source-panel.custom[data-variant="gather"] table.line-figures caption').innerText(), /Traced at n=65536/);
  // The built-in's panel lists its lines too, and the accesses table shows the
  // gather's traced sites and the float copy's trace beside its declaration.
  assert.ok(await page.locator('.source-panel[data-variant="float"] table.line-figures tr').count() >= 2);
  const table = await page.locator('#accesses').innerText();
  assert.match(table, /line 5 \(traced\)/);
  assert.match(table, /4 sectors/);
  assert.equal(await page.locator('#accesses tr.disagrees').count(), 0, 'the catalog\'s declaration agrees with its trace');
  await shot(page, 'run-traced-1400x900');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
