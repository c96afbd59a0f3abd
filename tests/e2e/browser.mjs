// Headless Chromium for the dashboard tests: Debian's browser, driven by
// playwright-core, with the flags that keep it off the network. Every page
// records its console errors and uncaught exceptions so a test can assert there
// were none; screenshots go to tests/e2e/out/ (ignored by git).
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { chromium } from 'playwright-core';

import { ROOT } from '../integration/harness.mjs';

export const OUT = join(ROOT, 'tests/e2e/out');
mkdirSync(OUT, { recursive: true });

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A new context (no cookies, no storage: a teammate's browser) and a page in it
// that collects console errors into page.errors.
export async function openPage(browser, { width = 1280, height = 800 } = {}) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  page.errors = [];
  page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}

// How many pixels of the canvas are painted (not transparent).
export function paintedPixels(page, selector) {
  return page.$eval(selector, (c) => {
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
    return n;
  });
}

// The pages' Content-Security-Policy allows no inline script, so axe goes in
// through the debugging protocol rather than a <script> tag.
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// axe-core's serious and critical violations on the page as it shows now,
// and the moderate ones these pages are held to as well (two landmarks of one
// name, a header cell with no words):
// [{id, impact, count, nodes: ["<target>: <what fails>", ...up to 4]}].
const HELD = ['landmark-unique', 'empty-table-header'];
export async function axeSerious(page) {
  await page.evaluate(AXE);
  return page.evaluate(async (held) => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || held.includes(v.id))
      .map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length, nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1, 2).join('').trim()}`) }));
  }, HELD);
}

export function shot(page, name) {
  return page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
}
