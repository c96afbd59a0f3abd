// Custom kernels in a real browser, against the real server and runner on
// PoCL: "Add your kernel" starts from the like variant's source with its
// signature shown, a bad name is refused next to its field, the edited kernel
// is queued and appears in the table (marked custom), the chart, and the
// highlighted Source section with its diff against the template; a kernel that
// does not build has its log shown and its line marked; "Run again" brings the
// kernel back into the form. No console errors.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { launch, openPage, paintedPixels, shot } from './browser.mjs';

const lab = new Lab('e2e-custom');
let browser;
let runId;

before(async () => {
  await lab.startServer();
  await lab.startRunner();
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

async function transposeForm(page) {
  await page.goto(`${lab.base}/`);
  await page.waitForSelector('#run-form');
  await page.selectOption('#f-experiment', 'transpose');
  const row = page.locator('.param[data-param="n"]');
  await row.locator('select.mode').selectOption('list');
  await row.locator('[name="params.n.list"]').fill('256, 512');
  await page.fill('#f-repeat', '2');
}

test('adds_a_kernel_from_the_template_and_sees_it_beside_the_built_ins', async () => {
  const page = await openPage(browser, { width: 1400, height: 900 });
  await transposeForm(page);
  await page.click('.add-kernel');
  const editor = page.locator('fieldset.kernel').first();
  await editor.locator('select[name=like]').selectOption('padded');
  // The template of padded arrives with its signature.
  await page.waitForFunction(() => /mtran_padded/.test(document.querySelector('fieldset.kernel textarea').value));
  assert.match(await editor.locator('.sig').innerText(), /void mtran_padded\(__global float \*odata, __global const float \*idata, int n\)/);
  assert.match(await editor.locator('.launch').innerText(), /TILE_DIM=tile/);
  const lines = (await editor.locator('textarea').inputValue()).split('\n').length;
  assert.equal((await editor.locator('.gutter').innerText()).trim().split('\n').length, lines, 'a line number per line');

  // A bad name is refused next to the name field; nothing is queued.
  await editor.locator('input[name=name]').fill('my-kernel');
  await page.click('#run-form button[type=submit]');
  const nameError = editor.locator('[data-field="kernels[0].name"] .field-error');
  await nameError.waitFor({ state: 'visible' });
  assert.match(await nameError.innerText(), /^your kernel 1's name: 'my-kernel' is not allowed/);
  assert.equal((await lab.get('/api/runs')).json.runs.length, 0);

  // Edit the template: two columns of padding.
  await editor.locator('input[name=name]').fill('pad2');
  const source = (await editor.locator('textarea').inputValue())
    .replace('float tile[TILE_DIM][TILE_DIM + 1];', 'float tile[TILE_DIM][TILE_DIM + 2];');
  assert.match(source, /float tile\[TILE_DIM\]\[TILE_DIM \+ 2\];/);
  await editor.locator('textarea').fill(source);
  await Promise.all([page.waitForURL(/\/runs\/\d+$/), page.click('#run-form button[type=submit]')]);
  runId = Number(page.url().match(/\/runs\/(\d+)$/)[1]);
  await page.waitForFunction(() => document.getElementById('status').textContent === 'done', null, { timeout: 120000 });

  const run = (await lab.get(`/api/runs/${runId}`)).json;
  assert.equal(run.request.kernels[0].source, source);
  // The table: a pad2 column marked custom, with the API's verified numbers.
  const head = page.locator('#table th[data-variant="pad2"]');
  assert.match(await head.innerText(), /pad2\s*custom, like padded/);
  assert.match(await head.getAttribute('class'), /custom/);
  const cells = await page.$$eval('#table td[data-variant="pad2"]', (tds) => tds.map((td) => Number(td.dataset.medianMs)));
  assert.deepEqual(cells.sort(), run.results.filter((r) => r.variant === 'pad2').map((r) => r.median_ms).sort());
  assert.ok(run.results.filter((r) => r.variant === 'pad2').every((r) => r.verified));
  // The chart has its line.
  const labels = await page.evaluate(() => window.Chart.getChart('chart').data.datasets.map((d) => d.label));
  assert.ok(labels.includes('pad2 (custom, like padded)'), labels.join(', '));
  assert.ok(await paintedPixels(page, '#chart') > 2000);
  // The Source section: every variant, highlighted, the custom one with its diff.
  await page.waitForSelector('#sources .source-panel[data-variant="pad2"] pre.source code .token');
  assert.equal(await page.locator('#sources .source-panel').count(), 6);
  assert.match(await page.locator('#sources .source-panel[data-variant="padded"] summary').innerText(), /mtran_padded, line \d+/);
  const custom = page.locator('#sources .source-panel[data-variant="pad2"]');
  assert.equal(await custom.locator('.line-numbers-rows > span').count(), source.split('\n').length - (source.endsWith('\n') ? 1 : 0));
  await custom.locator('.diff-panel summary').click();
  assert.match(await custom.locator('.diff-summary').innerText(), /1 line\(s\) added, 1 removed/);
  assert.match(await custom.locator('.diff-del').first().innerText(), /TILE_DIM \+ 1\]/);
  assert.match(await custom.locator('.diff-add').first().innerText(), /TILE_DIM \+ 2\]/);
  // The verdict answers first what a user who added a kernel asks: did
  // pad2 beat padded, by how much, within noise or not — in the server's words.
  const mine = run.verdict.custom.find((c) => c.kernel === 'pad2');
  assert.ok(['faster', 'slower', 'same'].includes(mine.outcome), JSON.stringify(mine));
  assert.match(mine.sentence, mine.outcome === 'same' ? /^Your kernel pad2 is within noise of padded, the variant it is like/
    : new RegExp(`^Your kernel pad2 is [\\d.]+× ${mine.outcome} than padded, the variant it is like`));
  assert.ok((await page.locator('#verdict').innerText()).includes(mine.sentence), 'the page shows it');
  await shot(page, 'run-custom-kernel');
  // The one 400 is the refused name, answered as the form expects.
  assert.deepEqual(page.errors.filter((e) => !/status of 400/.test(e)), []);
  await page.context().close();
});

test('a_kernel_that_does_not_build_shows_its_log_and_marks_the_line', async () => {
  const padded = (await lab.get('/api/experiments/transpose/variants/padded/source')).json.template;
  const lines = padded.split('\n');
  const at = lines.findIndex((l) => l.startsWith('\tbarrier('));
  lines[at] = '\tbarrier(CLK_LOCAL_MEM_FENCE)  // the semicolon is missing';
  const id = (await lab.post('/api/runs', {
    experiment: 'transpose', params: { n: 256 }, repeat: 1, variants: ['padded'],
    kernels: [{ name: 'broken', like: 'padded', source: lines.join('\n') }],
  })).json.id;
  await lab.waitDone(id);
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/${id}`);
  const panel = page.locator('#sources .source-panel[data-variant="broken"]');
  await panel.locator('.build-log').waitFor();
  assert.match(await panel.locator('.build-log .log').innerText(), /<source>:\d+:\d+: expected ';'/);
  const marked = await panel.locator('pre.source').getAttribute('data-line');
  assert.ok(marked.split(',').map(Number).some((n) => n === at + 1 || n === at + 2), `marked ${marked}, the error is at ${at + 1}`);
  await page.waitForSelector('#sources .source-panel[data-variant="broken"] .line-highlight');
  assert.match(await page.locator('#problem-list').innerText(), /broken.*did not build/);
  // The verdict names it too, with the compiler's first words.
  assert.match(await page.locator('#verdict').innerText(), /Your kernel broken did not build: custom kernel 'broken' did not build/);
  await shot(page, 'run-custom-kernel-build-failure');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('run_again_brings_the_custom_kernel_back_into_the_form', async () => {
  const page = await openPage(browser);
  await page.goto(`${lab.base}/runs/${runId}`);
  await Promise.all([page.waitForURL(/\?again=/), page.click('#again')]);
  await page.waitForSelector('fieldset.kernel');
  const run = (await lab.get(`/api/runs/${runId}`)).json;
  assert.equal(await page.locator('fieldset.kernel input[name=name]').inputValue(), 'pad2');
  assert.equal(await page.locator('fieldset.kernel select[name=like]').inputValue(), 'padded');
  assert.equal(await page.locator('fieldset.kernel textarea').inputValue(), run.request.kernels[0].source);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
