// bench/run-screenshots.mjs [DIR] — the run page's first screen, as README
// and docs/ show it, from the H100 runs recorded in tests/fixtures on local
// servers, each page once the model's predictions are in. Shoots the
// partition-camping transpose sweep (h100-catalog-runs.jsonl, run 3) at
// 1440×900, the banks run (run 10) on a 390×844 phone and the copy with a
// custom kernel that spills (h100-compiler-runs.jsonl, run 2) at 1440×900
// into DIR (default docs), and prints for every run of the catalog fixture
// at both sizes the page's height and width, where the timing table starts
// and how wide it is: the figures bench/RESULTS.md quotes. Then the home
// page of the catalog's lab, whole, at 1280 wide (docs/dashboard-home.png).
import { join } from 'node:path';

import { Lab } from '../tests/integration/harness.mjs';
import { launch, openPage } from '../tests/e2e/browser.mjs';

const dir = process.argv[2] || 'docs';
const SIZES = [[1440, 900], [390, 844]];
const PAGES = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].flatMap((run) => SIZES.map(([width, height]) => ({ lab: 'catalog', run, width, height }))),
  { lab: 'compiler', run: 2, width: 1440, height: 900 },
];
const SHOTS = { 'catalog 3@1440': 'run-verdict-transpose.png', 'catalog 10@390': 'run-verdict-phone.png', 'compiler 2@1440': 'run-verdict-custom.png' };

const labs = { catalog: new Lab('run-shots'), compiler: new Lab('run-shots-compiler') };
labs.catalog.importStore('tests/fixtures/h100-catalog-runs.jsonl');
labs.compiler.importStore('tests/fixtures/h100-compiler-runs.jsonl');
await Promise.all(Object.values(labs).map((l) => l.startServer()));
const browser = await launch();
try {
  for (const p of PAGES) {
    const lab = labs[p.lab];
    const run = await lab.waitRun(p.run, (r) => !r.predictions_pending);
    const page = await openPage(browser, { width: p.width, height: p.height });
    await page.goto(`${lab.base}/runs/${p.run}`);
    await page.waitForSelector('#verdict .verdict-sentence[data-fastest]:not([data-fastest=""])');
    await page.waitForSelector('#table td[data-median-ms]');
    const file = SHOTS[`${p.lab} ${p.run}@${p.width}`];
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
    console.log(`${p.lab} run ${p.run} (${run.experiment}) at ${p.width}×${p.height}: ${JSON.stringify(m)}${file ? ` -> ${join(dir, file)}` : ''}`);
    await page.context().close();
  }
  const home = await openPage(browser, { width: 1280, height: 900 });
  await home.goto(`${labs.catalog.base}/`);
  await home.waitForSelector('#runs tr[data-run]');
  await home.waitForSelector('#devices td[data-label]');
  await home.screenshot({ path: join(dir, 'dashboard-home.png'), fullPage: true });
  await home.context().close();
} finally {
  await browser.close();
  await Promise.all(Object.values(labs).map((l) => l.close()));
}
