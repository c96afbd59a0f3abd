// bench/run-screenshots.mjs [DIR] — the run page's first screen, as README
// and docs/ show it: the H100 runs of tests/fixtures/h100-catalog-runs.jsonl
// on a local server, each once the model's predictions are in. Shoots the
// partition-camping transpose sweep (run 3) at 1440×900 and the banks run
// (run 10) on a 390×844 phone into DIR (default docs), and prints for every
// run at both sizes the page's height and width, where the timing table
// starts and how wide it is: the figures bench/RESULTS.md quotes. Then the
// home page of the same lab, whole, at 1280 wide (docs/dashboard-home.png).
import { join } from 'node:path';

import { Lab } from '../tests/integration/harness.mjs';
import { launch, openPage } from '../tests/e2e/browser.mjs';

const dir = process.argv[2] || 'docs';
const RUNS = [1, 3, 10];
const SIZES = [[1440, 900], [390, 844]];
const SHOTS = { '3@1440': 'run-verdict-transpose.png', '10@390': 'run-verdict-phone.png' };

const lab = new Lab('run-shots');
lab.importStore('tests/fixtures/h100-catalog-runs.jsonl');
await lab.startServer();
const browser = await launch();
try {
  for (const run of RUNS) {
    await lab.waitRun(run, (r) => !r.predictions_pending);
    for (const [width, height] of SIZES) {
      const page = await openPage(browser, { width, height });
      await page.goto(`${lab.base}/runs/${run}`);
      await page.waitForSelector('#verdict .verdict-sentence[data-fastest]:not([data-fastest=""])');
      await page.waitForSelector('#table td[data-median-ms]');
      const file = SHOTS[`${run}@${width}`];
      if (file) await page.screenshot({ path: join(dir, file) });
      const m = await page.evaluate(() => {
        const table = document.getElementById('table').getBoundingClientRect();
        return {
          page_height: document.documentElement.scrollHeight,
          page_width: document.documentElement.scrollWidth,
          table_top: Math.round(table.top + window.scrollY),
          table_width: Math.round(table.width),
        };
      });
      console.log(`run ${run} at ${width}×${height}: ${JSON.stringify(m)}${file ? ` -> ${join(dir, file)}` : ''}`);
      await page.context().close();
    }
  }
  const home = await openPage(browser, { width: 1280, height: 900 });
  await home.goto(`${lab.base}/`);
  await home.waitForSelector('#runs tr[data-run]');
  await home.waitForSelector('#devices td[data-label]');
  await home.screenshot({ path: join(dir, 'dashboard-home.png'), fullPage: true });
  await home.context().close();
} finally {
  await browser.close();
  await lab.close();
}
