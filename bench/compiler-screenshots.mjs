// bench/compiler-screenshots.mjs [DIR] — the run page's compiler account, as
// docs/ shows it: the H100 runs of tests/fixtures/h100-compiler-runs.jsonl
// (recorded by bench/compiler-gpu.sh) on a local server, three pictures into
// DIR (default docs): float4's PTX beside its source with line 36 selected,
// the spilling custom kernel's figures, and the padded transpose's panel.
import { join } from 'node:path';

import { Lab } from '../tests/integration/harness.mjs';
import { launch, openPage } from '../tests/e2e/browser.mjs';

const dir = process.argv[2] || 'docs';
const lab = new Lab('shots');
lab.importStore('tests/fixtures/h100-compiler-runs.jsonl');
await lab.startServer();
const browser = await launch();
const page = await openPage(browser, { width: 1280, height: 900 });
await page.goto(`${lab.base}/runs/2`);
const panel = page.locator('.source-panel[data-variant="float4"]');
await panel.locator('> summary').click();
await panel.locator('.ptx-panel > summary').click();
await panel.locator('.ptx-source li.has-ptx', { hasText: 'out[i] = in[i]' }).click();
await panel.screenshot({ path: join(dir, 'run-compiler-ptx.png') });
await page.locator('.source-panel[data-variant="spill"] .compiler').screenshot({ path: join(dir, 'run-compiler-spill.png') });
await page.goto(`${lab.base}/runs/1`);
const padded = page.locator('.source-panel[data-variant="padded"]');
await padded.locator('> summary').click();
await padded.screenshot({ path: join(dir, 'run-compiler-transpose.png') });
await browser.close();
await lab.close();
