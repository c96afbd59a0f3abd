// bench/counted-screenshots.mjs [DIR] — the run page's hardware counts, as
// docs/ shows them: the H100 CUDA reductions of
// tests/fixtures/h100-cuda-runs.jsonl on a local server, the timing table's
// cells (measured, the model, counted) and the counted-beside-predicted
// table, into DIR (default docs).
import { join } from 'node:path';

import { Lab } from '../tests/integration/harness.mjs';
import { launch, openPage } from '../tests/e2e/browser.mjs';

const dir = process.argv[2] || 'docs';
const lab = new Lab('counted-shots');
lab.importStore('tests/fixtures/h100-cuda-runs.jsonl');
await lab.startServer();
const browser = await launch();
const page = await openPage(browser, { width: 1280, height: 900 });
// The predictions are computed on first read: read until they are there.
for (let i = 0; i < 50; i++) {
  const run = (await lab.get('/api/runs/6')).json;
  if (!run.predictions_pending) break;
  await new Promise((r) => setTimeout(r, 200));
}
await page.goto(`${lab.base}/runs/6`);
await page.waitForSelector('#counted tbody tr.disagrees', { state: 'attached' });
await page.locator('#counted-box').screenshot({ path: join(dir, 'run-counted-table.png') });
// The cells with every figure beside the measurement shown.
await page.check('#show-detail');
await page.locator('#table').screenshot({ path: join(dir, 'run-counted-cells.png') });
await browser.close();
await lab.close();
