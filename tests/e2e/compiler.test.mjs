// The compiler's account on the run page, from two runs recorded on the H100
// (tests/fixtures/h100-compiler-runs.jsonl: a transpose at n = 4096, and the
// copies with a custom kernel that spills, driver 580.159.04): each variant's
// registers, local memory and occupancy as the server computed them, the
// spill, and the PTX beside the source — a click on a source line marks the
// PTX lines it became, and a click on a PTX line marks its source line. With
// no runner: nothing there depends on a GPU. On PoCL (a runner of its own),
// the page says why there is no PTX, and a run from before the account says
// it was not recorded.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage, shot } from './browser.mjs';

const lab = new Lab('e2e-compiler');
// PoCL: runs from before the account (tests/fixtures/compare-runs.jsonl), then one measured here.
const pocl = new Lab('e2e-compiler-pocl');
let browser;

before(async () => {
  lab.importStore('tests/fixtures/h100-compiler-runs.jsonl');
  pocl.importStore('tests/fixtures/compare-runs.jsonl');
  await Promise.all([lab.startServer(), pocl.startServer()]);
  await pocl.startRunner();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
  await pocl.close();
});

// The figures table of variant id as {figure: text}.
async function figures(page, id) {
  return page.$eval(`.source-panel[data-variant="${id}"] table.compiler-figures`, (t) => Object.fromEntries(
    [...t.querySelectorAll('tr')].map((tr) => [tr.dataset.figure, tr.querySelector('td').textContent.trim()])));
}

test('transpose_page_shows_registers_local_memory_and_occupancy', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/1`);
  await page.waitForSelector('.source-panel[data-variant="padded"] table.compiler-figures', { state: 'attached' });
  const tiled = await figures(page, 'tiled');
  const padded = await figures(page, 'padded');
  assert.equal(tiled.registers, '28 per work-item');
  assert.match(tiled['local memory'], /^4,100 B per work-group/);
  assert.match(padded['local memory'], /^4,228 B per work-group/);
  assert.match(padded.occupancy, /8 work-groups, 64 of 64 warps per compute unit \(100%\), limited by warps and registers/);
  assert.equal(padded.spills, 'none');
  assert.match(await page.locator('.compiler-meanings').textContent(), /Hopper \(compute capability 9\.0\)/);
  await page.locator('.source-panel[data-variant="padded"] > summary').click();
  await shot(page, 'compiler-transpose');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the_run_carries_each_variants_resident_warps_for_the_model', async () => {
  // From the compiler's account and the H100's limits: the model's latency
  // ceiling takes each variant's own occupancy.
  const transpose = (await lab.get('/api/runs/1')).json;
  assert.deepEqual(transpose.occupancy.padded, { warps: 64, groups: 8 });
  const copy = (await lab.get('/api/runs/2')).json;
  assert.deepEqual(copy.occupancy.spill, { warps: 8, groups: 1 }, '255 registers: one group of 8 warps');
});

test('clicking_a_source_line_marks_its_ptx_and_back', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/2`);
  const panel = page.locator('.source-panel[data-variant="float4"]');
  await panel.locator('> summary').click();
  await panel.locator('.ptx-panel > summary').click();
  // The line of out[i] = in[i] became one 16-byte load and one 16-byte store.
  const line = panel.locator('.ptx-source li.has-ptx', { hasText: 'out[i] = in[i]' });
  const n = await line.getAttribute('data-src-line');
  await line.click();
  const linked = panel.locator('.ptx-code li.linked');
  assert.ok(await linked.count() >= 2, 'the PTX lines of the source line are marked');
  const texts = await linked.allInnerTexts();
  assert.ok(texts.some((t) => /ld\.global\.v4\.f32/.test(t) && /global ld v4 · 16 B/.test(t)), texts.join('\n'));
  assert.ok(texts.some((t) => /st\.global\.v4\.f32/.test(t)), texts.join('\n'));
  assert.equal(await panel.locator('.ptx-source li.linked').getAttribute('data-src-line'), n);
  // And back: a PTX line of another source line moves the mark there.
  const other = panel.locator(`.ptx-code li[data-src-line]:not([data-src-line="${n}"]):not([data-src-line="0"])`).first();
  const m = await other.getAttribute('data-src-line');
  await other.click();
  assert.equal(await panel.locator('.ptx-source li.linked').getAttribute('data-src-line'), m);
  assert.equal(await panel.locator(`.ptx-code li.linked:not([data-src-line="${m}"])`).count(), 0);
  await shot(page, 'compiler-copy-float4');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a_spilling_custom_kernel_shows_its_spills', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/2`);
  await page.waitForSelector('.source-panel[data-variant="spill"] table.compiler-figures');
  const spill = await figures(page, 'spill');
  assert.equal(spill.registers, '255 per work-item');
  assert.match(spill.spills, /^664 B stored, 632 B loaded per work-item/);
  assert.match(spill.occupancy, /1 work-group, 8 of 64 warps .* limited by registers/);
  assert.equal(await page.locator('.source-panel[data-variant="spill"] tr.spills').count(), 1);
  await shot(page, 'compiler-spill');
  await page.context().close();
});

test('on_pocl_the_page_says_why_there_is_no_ptx_and_old_runs_say_not_recorded', async () => {
  const posted = await pocl.post('/api/runs', { experiment: 'transpose', params: { n: 256 }, variants: ['tiled'], repeat: 2 });
  await pocl.waitDone(posted.json.id);
  const page = await openPage(browser);
  await page.goto(`${pocl.base}/runs/${posted.json.id}`);
  const panel = page.locator('.source-panel[data-variant="tiled"]');
  await panel.locator('table.compiler-figures').waitFor({ state: 'attached' });
  await panel.locator('> summary').click();
  assert.match(await panel.locator('.ptx-why').innerText(), /^No PTX: only NVIDIA's OpenCL gives a program as PTX text/);
  assert.match((await figures(page, 'tiled')).occupancy, /^not known: no limits are known/);
  assert.match((await figures(page, 'tiled'))['local memory'], /^4,096 B per work-group/);
  await page.goto(`${pocl.base}/runs/1`);
  await page.locator('.compiler-note').first().waitFor({ state: 'attached' });
  assert.match(await page.locator('.compiler-note').first().textContent(), /What the compiler made of it: not recorded: /);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
