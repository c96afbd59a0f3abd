// Every page of the dashboard, read as a keyboard or screen-reader user and
// on a phone would: axe-core (from npm, injected into the page) finds no
// serious or critical violation; the headings go down one level at a time
// under exactly one h1; every chart carries a label that says what it shows;
// everything that reacts to a click can be reached with Tab; and the page is
// never wider than the window, at 1440×900 and at 390×844. The pages: home,
// /runs, run pages of each kind measured here on PoCL (a transpose sweep, a
// banks run, a run with a custom kernel, and a run's compiler account without
// CUDA), a compare page and the 404 page, and the H100 runs recorded in
// tests/fixtures (the catalog's copy, partition-camping sweep and banks; the
// compiler's account with its PTX; the CUDA runs with the hardware's
// counts; the transpose with each variant's energy). Every <details> is opened first, so what is folded is checked
// too. Each page's findings also go to tests/e2e/out/a11y-*.json. Then the
// PTX lines chosen by keyboard alone, and what the pages say: local times,
// the seed article of each lesson, "1 sector", sizes on the chart's axis.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { axeSerious, launch, OUT, openPage, shot } from './browser.mjs';

const SIZES = [[1440, 900], [390, 844]];

const pocl = new Lab('e2e-a11y');
const h100 = new Lab('e2e-a11y-h100');
const cuda = new Lab('e2e-a11y-cuda');
const catalog = new Lab('e2e-a11y-catalog');
const energy = new Lab('e2e-a11y-energy');
let browser;
const runs = {};

before(async () => {
  h100.importStore('tests/fixtures/h100-compiler-runs.jsonl');
  cuda.importStore('tests/fixtures/h100-cuda-runs.jsonl');
  catalog.importStore('tests/fixtures/h100-catalog-runs.jsonl');
  energy.importStore('tests/fixtures/h100-energy-runs.jsonl');
  await Promise.all([pocl.startServer(), h100.startServer(), cuda.startServer(), catalog.startServer(), energy.startServer()]);
  await pocl.startRunner();
  browser = await launch();
  // A copy first, so the others have a ceiling (at sizes the axis writes
  // as 64 Ki ...); then a sweep, a banks run and a custom kernel beside the
  // built-ins.
  const post = async (body) => (await pocl.post('/api/runs', body)).json.id;
  runs.copy = await post({ experiment: 'copy', params: { n: [65536, 131072, 262144] }, repeat: 2 });
  await pocl.waitDone(runs.copy);
  const padded = (await pocl.get('/api/experiments/transpose/variants/padded/source')).json.template;
  runs.sweep = await post({ experiment: 'transpose', params: { n: [256, 512, 768] }, repeat: 2, label: 'a sweep' });
  runs.banks = await post({ experiment: 'banks', params: { c: [1, 2, 4, 32], local: 64, groups: 4, iters: 64 }, repeat: 2 });
  runs.custom = await post({
    experiment: 'transpose', params: { n: [256, 512] }, repeat: 2, label: 'a kernel of my own',
    kernels: [{ name: 'pad2', like: 'padded', source: padded.replace('[TILE_DIM + 1]', '[TILE_DIM + 2]') }],
  });
  // Each page is read once its run and the model's predictions are in.
  for (const id of [runs.sweep, runs.banks, runs.custom]) await pocl.waitSettled(id);
});
after(async () => {
  if (browser) await browser.close();
  await Promise.all([pocl.close(), h100.close(), cuda.close(), catalog.close(), energy.close()]);
});

// What a page is found to lack, at the size it is shown: axe's serious and
// critical violations, headings out of order, charts without a meaningful
// label, clickable things Tab never reaches, and its width beyond the window's.
function findings() {
  const visible = (e) => e.checkVisibility();
  const where = (e) => {
    const id = e.id ? `#${e.id}` : '';
    const cls = e.classList.length ? `.${[...e.classList].join('.')}` : '';
    const data = [...e.attributes].filter((a) => a.name.startsWith('data-')).slice(0, 2).map((a) => `[${a.name}="${a.value}"]`).join('');
    return `${e.tagName.toLowerCase()}${id}${cls}${data}`;
  };
  const headings = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(visible)
    .map((h) => ({ level: Number(h.tagName[1]), text: h.textContent.trim().slice(0, 60) }));
  const skipped = [];
  headings.forEach((h, i) => {
    const prev = i ? headings[i - 1].level : 0;
    if (h.level > prev + 1) skipped.push(`h${prev || '-'} "${i ? headings[i - 1].text : ''}" then h${h.level} "${h.text}"`);
  });
  const charts = [...document.querySelectorAll('canvas')].filter(visible).map((c) => ({
    id: c.id, role: c.getAttribute('role'), label: c.getAttribute('aria-label') || '',
  })).filter((c) => c.role !== 'img' || c.label.length < 30 || /^results chart$/i.test(c.label));
  // Clickable: the outermost element with a pointer cursor. Reached by Tab:
  // it is focusable itself, is the label of a focusable control, holds one,
  // or is an option of a listbox that Tab enters (the arrow keys go on).
  const pointer = (e) => e && getComputedStyle(e).cursor === 'pointer';
  const focusable = (e) => e.tabIndex >= 0 && !e.disabled;
  const inListbox = (e) => e.getAttribute('role') === 'option' && e.closest('[role="listbox"]')
    && e.closest('[role="listbox"]').querySelector(':scope > [role="option"][tabindex="0"]');
  const unreachable = [...document.querySelectorAll('body *')].filter((e) => visible(e) && pointer(e) && !pointer(e.parentElement)
    && !focusable(e) && !(e.control && focusable(e.control)) && !inListbox(e)
    && ![...e.querySelectorAll('*')].some((c) => visible(c) && focusable(c))).map(where);
  // What makes a page wider than the window: the outermost elements that
  // reach past its right edge while their parent does not, and that no box
  // of their own scrolls or clips.
  const past = (e) => e && e.getBoundingClientRect().right > window.innerWidth + 0.5;
  const clipped = (e) => {
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
      if (getComputedStyle(a).overflowX !== 'visible') return true;
    return false;
  };
  const wide = [...document.querySelectorAll('body *')].filter((e) => visible(e) && past(e) && !past(e.parentElement) && !clipped(e))
    .slice(0, 6).map((e) => `${where(e)} to ${Math.round(e.getBoundingClientRect().right)} px`);
  return {
    width: document.documentElement.scrollWidth,
    wide,
    window: window.innerWidth,
    h1: headings.filter((h) => h.level === 1).length,
    skipped,
    charts,
    unreachable: [...new Set(unreachable)],
  };
}

// Open everything folded, run axe and the checks above.
async function audit(page) {
  await page.evaluate(() => { for (const d of document.querySelectorAll('details')) d.open = true; });
  const axe = await axeSerious(page);
  return { axe, ...(await page.evaluate(findings)) };
}

// Audit path of lab at both sizes once ready(page) resolves; every finding
// is reported together, so one run of the test names all that is wrong.
async function checkPage(name, lab, path, ready, { status = 200 } = {}) {
  const seen = {};
  for (const [width, height] of SIZES) {
    const page = await openPage(browser, { width, height });
    const res = await page.goto(`${lab.base}${path}`);
    assert.equal(res.status(), status, `${name}: HTTP status`);
    await ready(page);
    // As it first shows (with everything open, a page of PTX is too tall to shoot).
    await shot(page, `a11y-${name}-${width}`);
    const f = await audit(page);
    seen[`${width}x${height}`] = f;
    f.errors = page.errors.filter((e) => !(status === 404 && /status of 404/.test(e)));
    await page.context().close();
  }
  writeFileSync(join(OUT, `a11y-${name}.json`), JSON.stringify(seen, null, 2));
  const wrong = [];
  for (const [size, f] of Object.entries(seen)) {
    for (const v of f.axe) wrong.push(`${size} axe ${v.impact} ${v.id} ×${v.count}: ${v.nodes.join(' | ')}`);
    if (f.h1 !== 1) wrong.push(`${size}: ${f.h1} h1 headings, not one`);
    for (const s of f.skipped) wrong.push(`${size}: a heading level skipped: ${s}`);
    for (const c of f.charts) wrong.push(`${size}: chart #${c.id} is labelled "${c.label}" (role ${c.role})`);
    for (const u of f.unreachable) wrong.push(`${size}: clickable but not reachable by Tab: ${u}`);
    if (f.width > f.window) wrong.push(`${size}: the page scrolls sideways to ${f.width} px: ${f.wide.join(', ')}`);
    for (const e of f.errors) wrong.push(`${size}: console error: ${e}`);
  }
  assert.deepEqual(wrong, [], `${name}:\n${wrong.join('\n')}`);
}

const runPage = async (page) => {
  await page.waitForSelector('#table td[data-median-ms]');
  await page.waitForSelector('#sources .source-panel');
  await page.waitForSelector('.compiler, .compiler-note', { state: 'attached' });
};

test('home_is_accessible_and_fits_a_phone', () => checkPage('home', pocl, '/', async (page) => {
  await page.waitForSelector('#run-form');
  await page.waitForSelector('#runs tr[data-run]');
  await page.waitForSelector('#devices td.ok');
  // The run form starts within the first two screens, on a phone too.
  const [top, screen] = await page.evaluate(() => [document.getElementById('queue').getBoundingClientRect().top + window.scrollY, window.innerHeight]);
  assert.ok(top < 2 * screen, `the run form starts ${Math.round(top)} px down, past two screens of ${screen} px`);
}));

// "Add your kernel" open: its editor and the line saying how the kernel is
// called, which must wrap on a phone rather than push the page sideways.
test('home_with_a_kernel_added_is_accessible_and_fits_a_phone', () => checkPage('home-kernel', pocl, '/', async (page) => {
  await page.waitForSelector('#run-form .add-kernel');
  await page.click('#run-form .add-kernel');
  await page.waitForFunction(() => (document.querySelector('.kernel .signature code')?.textContent || '').length > 20);
}));

test('runs_list_is_accessible_and_fits_a_phone', () => checkPage('runs', pocl, '/runs', (page) => page.waitForSelector('#runs tr[data-run]')));

test('transpose_sweep_page_is_accessible_and_fits_a_phone', () => checkPage('sweep', pocl, `/runs/${runs.sweep}`, runPage));

test('banks_page_is_accessible_and_fits_a_phone', () => checkPage('banks', pocl, `/runs/${runs.banks}`, async (page) => {
  await runPage(page);
  await page.waitForSelector('#model:not([hidden])');
}));

test('custom_kernel_page_is_accessible_and_fits_a_phone', () => checkPage('custom', pocl, `/runs/${runs.custom}`, async (page) => {
  await runPage(page);
  await page.waitForSelector('#sources .source-panel[data-variant="pad2"] pre.source code .token');
}));

test('compiler_account_without_cuda_is_accessible_and_fits_a_phone', () => checkPage('compiler-pocl', pocl, `/runs/${runs.copy}`, async (page) => {
  await runPage(page);
  await page.waitForSelector('.ptx-why', { state: 'attached' });
}));

test('compare_page_is_accessible_and_fits_a_phone', () => checkPage('compare', pocl, `/compare?runs=${runs.sweep},${runs.custom}`, async (page) => {
  await page.waitForSelector('#table td[data-median-ms]');
  await page.waitForFunction(() => window.Chart && window.Chart.getChart('chart'));
}));

test('not_found_page_is_accessible_and_fits_a_phone', () => checkPage('404', pocl, '/runs/987654', (page) => page.waitForSelector('h1'), { status: 404 }));

for (const [id, what] of [[1, 'transpose'], [2, 'copy-spill']]) {
  test(`h100_${what}_with_its_ptx_is_accessible_and_fits_a_phone`, () => checkPage(`h100-${what}`, h100, `/runs/${id}`, async (page) => {
    await runPage(page);
    await page.waitForSelector('.ptx-view', { state: 'attached' });
  }));
}

for (const [id, what] of [[1, 'copy'], [6, 'reduction']]) {
  test(`h100_cuda_${what}_with_its_counts_is_accessible_and_fits_a_phone`, () => checkPage(`cuda-${what}`, cuda, `/runs/${id}`, async (page) => {
    await runPage(page);
    await page.waitForSelector('#counted tbody tr', { state: 'attached' });
  }));
}

for (const [id, what] of [[1, 'copy'], [3, 'camping-sweep'], [10, 'banks']]) {
  test(`h100_catalog_${what}_is_accessible_and_fits_a_phone`, () => checkPage(`catalog-${what}`, catalog, `/runs/${id}`, runPage));
}

test('h100_energy_transpose_is_accessible_and_fits_a_phone', () => checkPage('energy-transpose', energy, '/runs/2', async (page) => {
  await runPage(page);
  await page.waitForFunction(() => window.Chart && window.Chart.getChart('energy-chart'));
  await page.check('#show-detail');
}));

// The PTX view by keyboard alone: Tab enters the source lines, the arrow
// keys move, Enter marks the PTX the line became; Tab goes on to the PTX
// lines, where Space marks a line's source.
test('ptx_lines_are_reached_and_chosen_by_keyboard', async () => {
  const page = await openPage(browser);
  await page.goto(`${h100.base}/runs/2`);
  const panel = page.locator('.source-panel[data-variant="float4"]');
  await panel.locator('.ptx-view').waitFor({ state: 'attached' });
  await panel.locator('> summary').focus();
  await page.keyboard.press('Enter');
  await panel.locator('.ptx-panel > summary').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  const active = () => page.evaluate(() => {
    const a = document.activeElement;
    return { list: a.parentElement.className, line: a.dataset.srcLine, text: a.textContent };
  });
  let at = await active();
  assert.equal(at.list, 'ptx-source', 'Tab enters the source lines');
  for (let i = 0; i < 60 && !at.text.includes('out[i] = in[i]'); i++) {
    await page.keyboard.press('ArrowDown');
    at = await active();
  }
  assert.match(at.text, /out\[i\] = in\[i\]/, 'the arrow keys reach the line');
  await page.keyboard.press('Enter');
  const linked = await panel.locator('.ptx-code li.linked').allInnerTexts();
  assert.ok(linked.some((t) => /ld\.global\.v4\.f32/.test(t)) && linked.some((t) => /st\.global\.v4\.f32/.test(t)), linked.join('\n'));
  assert.equal(await panel.locator('.ptx-source li[aria-selected="true"]').getAttribute('data-src-line'), at.line);
  // On to the PTX: from its last line up to one of another source line.
  await page.keyboard.press('Tab');
  assert.equal((await active()).list.split(' ')[0], 'ptx-code', 'Tab goes on to the PTX lines');
  await page.keyboard.press('End');
  let ptx = await active();
  for (let i = 0; i < 200 && (ptx.line === at.line || ptx.line === '0'); i++) {
    await page.keyboard.press('ArrowUp');
    ptx = await active();
  }
  assert.ok(ptx.line !== at.line && ptx.line !== '0', `a PTX line of another source line: ${JSON.stringify(ptx)}`);
  await page.keyboard.press(' ');
  assert.equal(await panel.locator('.ptx-source li.linked').getAttribute('data-src-line'), ptx.line);
  // Tab comes back to the chosen line, not the first.
  await page.keyboard.press('Shift+Tab');
  assert.equal((await active()).line, at.line);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// Times on the reader's clock: a browser in Kolkata (UTC+5:30), in British
// English, sees the queue times as it writes them, the ISO time kept in the
// <time> element; beside them, how long ago.
test('run_lists_show_queue_times_on_the_readers_clock', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: 'Asia/Kolkata', locale: 'en-GB' });
  const page = await context.newPage();
  const api = (await pocl.get('/api/runs?limit=25')).json.runs;
  const local = (iso) => new Date(iso).toLocaleString('en-GB', { timeZone: 'Asia/Kolkata', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  for (const path of ['/', '/runs']) {
    await page.goto(`${pocl.base}${path}`);
    await page.waitForSelector('#runs tr[data-run] time');
    const shown = await page.$$eval('#runs tr[data-run]', (rows) => rows.map((r) => {
      const t = r.querySelector('time');
      return { id: Number(r.dataset.run), datetime: t.dateTime, text: t.textContent, cell: t.parentElement.textContent };
    }));
    assert.equal(shown.length, api.length);
    for (const s of shown) {
      const run = api.find((r) => r.id === s.id);
      assert.equal(s.datetime, run.created_at, `${path}: the ISO time in <time datetime>`);
      assert.equal(s.text, local(run.created_at), `${path}: run ${s.id} on the reader's clock`);
      assert.doesNotMatch(s.cell, /\d{4}-\d\d-\d\dT/, 'no raw ISO time in the cell');
      assert.match(s.cell, /ago$/);
    }
  }
  await context.close();
});

// "seed 003" said as what it is: the article the lesson comes from.
test('each_card_names_the_article_its_lesson_comes_from', async () => {
  const page = await openPage(browser);
  await page.goto(`${pocl.base}/`);
  await page.waitForSelector('#catalog .card');
  const text = await page.locator('.card[data-experiment="transpose"]').innerText();
  assert.match(text, /After Jiří Filipovič, “GPU Hardware Performance” \(seed 003\) and “Avoid Bank Conflicts on tile_static Memory with C\+\+ AMP” \(seed 001\)/);
  assert.match(await page.locator('.card[data-experiment="myadd"]').innerText(), /After Eric Holk, “Access Patterns Matter” \(seed 000\)/);
  assert.doesNotMatch(await page.locator('#catalog').innerText(), /· seed \d/);
  await page.context().close();
});

// One sector is "1 sector": the grid-stride reduction stores one 32-byte
// sector per request, as counted.
test('a_count_of_one_reads_in_the_singular', async () => {
  const page = await openPage(browser);
  await page.goto(`${cuda.base}/runs/6`);
  await page.waitForSelector('#table td[data-median-ms]');
  await page.check('#show-detail');
  const cells = await page.locator('#table').innerText();
  assert.match(cells, /counted: [\d.]+ sectors\/load · 1 sector\/store/);
  assert.doesNotMatch(cells, /(^|[^\d.])1 sectors/);
  await page.context().close();
});

// The swept size on the chart's x axis reads as sizes: ticks at the copy's
// three points, 64 Ki to 256 Ki; the H100 sweep of 32 points, ticks a power
// of two apart; the chart's table of numbers the same.
test('size_axes_read_as_sizes', async () => {
  const ticks = async (lab, id) => {
    const page = await openPage(browser);
    await page.goto(`${lab.base}/runs/${id}`);
    await page.waitForFunction(() => window.Chart && window.Chart.getChart('chart'));
    const out = await page.evaluate(() => ({
      labels: window.Chart.getChart('chart').scales.x.ticks.map((t) => t.label),
      values: window.Chart.getChart('chart').scales.x.ticks.map((t) => t.value),
      rows: [...document.querySelectorAll('#chart-data tbody th')].map((th) => th.textContent),
    }));
    await page.context().close();
    return out;
  };
  const copy = await ticks(pocl, runs.copy);
  assert.deepEqual(copy.labels, ['64 Ki', '128 Ki', '256 Ki']);
  assert.deepEqual(copy.rows, ['64 Ki', '128 Ki', '256 Ki']);
  const sweep = await ticks(catalog, 3);
  assert.ok(sweep.values.length >= 4 && sweep.values.every((v) => v % 1024 === 0), sweep.values.join(', '));
  assert.ok(sweep.labels.every((l) => /^\d+$/.test(l)), sweep.labels.join(', '));
});
