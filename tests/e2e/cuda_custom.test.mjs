// A custom CUDA kernel's run page, from the H200 store of the CUDA holdout
// plan (bench/plans/holdout-cuda.json, 2026-11-29, driver 580.159.04):
// tests/fixtures/h200-cuda-custom-runs.jsonl holds its copy-ceiling run (1)
// and "holdout cuda transpose 1" (4): the built-in tile copy beside six
// custom .cu kernels at n = 1024 and 8192. The CUDA kernels were traced as
// themselves (clang for the Oclgrind simulator), built by NVRTC (ptxas's
// account, the PTX) and counted with CUPTI. The page shows a CUDA custom
// kernel as it shows an OpenCL one: its traced accesses at the .cu file's
// lines (transpose_half_tile: the load at line 32, the 2-way store at line
// 38, where its OpenCL twin has them at 31 and 37), the prediction made from
// them with its binding ceiling, the compiler's account and the PTX of those
// very lines, and the hardware's count beside the trace's figures. With no
// runner: nothing here needs a GPU.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from '../integration/harness.mjs';
import { axeSerious, launch, openPage, shot } from './browser.mjs';

const RUN = 4;
const KERNEL = 'transpose_half_tile';
const lab = new Lab('e2e-cuda-custom');
let browser;
let run;	// the run as the API gives it once its predictions are in

before(async () => {
  lab.importStore('tests/fixtures/h200-cuda-custom-runs.jsonl');
  await lab.startServer();
  browser = await launch();
  run = await lab.waitSettled(RUN);
});
after(async () => {
  if (browser) await browser.close();
  await lab.close();
});

// The kernel's source as the request sent it, by line (1-based).
const sourceLine = (n) => run.request.kernels.find((k) => k.name === KERNEL).source.split('\n')[n - 1];

async function runPage() {
  const page = await openPage(browser, { width: 1440, height: 900 });
  await page.goto(`${lab.base}/runs/${RUN}`);
  await page.waitForSelector(`#accesses tr[data-variant="${KERNEL}"]`, { state: 'attached' });
  await page.waitForSelector(`.source-panel.custom[data-variant="${KERNEL}"] table.compiler-figures`, { state: 'attached' });
  return page;
}

test('the_api_predicts_the_cuda_kernel_from_its_own_trace', async () => {
  assert.equal(run.request.language, 'cuda');
  assert.match(sourceLine(22), /^extern "C" __global__ void transpose_half_tile\(/);
  const rs = run.results.filter((r) => r.variant === KERNEL);
  assert.equal(rs.length, 2);
  for (const r of rs) {
    const p = r.prediction;
    assert.equal(p.source, 'traced');
    assert.equal(p.model, 'ceilings');
    assert.equal(p.binding, 'dram');
    assert.deepEqual(p.accesses.map((a) => `${a.space} ${a.op} ${a.line}`),
      ['global load 32', 'local store 32', 'local load 38', 'global store 38']);
    assert.equal(p.conflict_degree, 2);
    // The hardware's count beside the trace's figures.
    assert.equal(r.counted.predicted.local_conflict_degree, 2);
    assert.equal(r.counted.load_sectors_per_request, p.accesses[0].sectors_per_request);
  }
  // The lines the trace names are those whose PTX holds the accesses.
  const account = (await lab.get(`/api/runs/${RUN}/compiler`)).json;
  const ptx = account.variants.find((v) => v.id === KERNEL).builds[0].ptx;
  const bySource = new Set(ptx.memory.map((m) => `${m.space === 'shared' ? 'local' : m.space} ${m.op === 'ld' ? 'load' : 'store'} ${ptx.source_lines[m.line]}`));
  assert.deepEqual([...bySource].sort(), ['global load 32', 'global store 38', 'local load 38', 'local store 32']);
});

test('the_page_shows_the_traced_accesses_at_the_cu_files_lines', async () => {
  const page = await runPage();
  // The accesses table: the kernel's four traced sites, each its own trace.
  const rows = await page.$$eval(`#accesses tr[data-variant="${KERNEL}"]`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent.trim())));
  assert.deepEqual(rows.map((c) => [c[1], c[2], c[6], c[7]]), [
    ['global load', 'line 32 (traced)', '–', 'this is the trace'],
    ['local store', 'line 32 (traced)', '1-way', 'this is the trace'],
    ['local load', 'line 38 (traced)', '2-way', 'this is the trace'],
    ['global store', 'line 38 (traced)', '–', 'this is the trace'],
  ]);
  assert.equal(rows[0][0], `${KERNEL} (custom, like padded)`);
  // The Source panel: the .cu as sent, lines 32 and 38 marked and listed.
  const panel = page.locator(`.source-panel.custom[data-variant="${KERNEL}"]`);
  assert.equal(await panel.locator('pre.source').getAttribute('data-line'), '32,38');
  const code = (await panel.locator('pre.source code').textContent()).split('\n');
  assert.equal(code[21], sourceLine(22));
  assert.match(code[31], /half_tile\[r\]\[lx\] = idata\[/, 'line 32 loads idata into the shared tile');
  assert.match(code[37], /odata\[.*\] = half_tile\[j\]\[c\]/, 'line 38 reads the tile into odata');
  assert.match(await panel.locator('table.line-figures caption').innerText(), /^Traced at n=1024, tile=32, rows=8 in the Oclgrind simulator, 32-wide warps/);
  const lines = await panel.locator('table.line-figures tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.line, tr.cells[1].textContent, tr.cells[3].textContent]));
  assert.deepEqual(lines, [
    ['32', 'global load', '4 sectors, 1 line, 100% useful'],
    ['32', 'local store', 'no bank conflict (one pass)'],
    ['38', 'local load', '2-way bank conflict'],
    ['38', 'global store', '4 sectors, 2 lines, 100% useful'],
  ]);
  await page.waitForSelector(`.source-panel.custom[data-variant="${KERNEL}"] .line-highlight`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the_prediction_from_the_trace_has_its_binding_ceiling', async () => {
  const page = await runPage();
  // Each cell's model line: the trace's 2-way conflict, the binding ceiling
  // and, the tile being loaded before a barrier, the waves' waits there.
  const cells = await page.$$eval(`#table td[data-variant="${KERNEL}"]`, (tds) => tds.map((td) => [JSON.parse(td.dataset.point).n, td.querySelector('.sub.predicted').textContent]));
  assert.equal(cells.length, 2);
  for (const [n, text] of cells) {
    const p = run.results.find((r) => r.variant === KERNEL && r.params.n === n).prediction;
    assert.match(text, /^model: [\d.]+% of copy · 4 sectors\/req · 2-way · DRAM-bound, with [\d.]+ µs of barrier drains \([\d.]+× the next\)/, text);
    assert.ok(text.includes(`with ${Number((p.drain_ms * 1000).toPrecision(3))} µs`), `${text}: the server's ${p.drain_ms} ms`);
    assert.ok(text.startsWith(`model: ${Number(p.ceiling_pct.toPrecision(3))}% of copy`), `${text}: the server's ${p.ceiling_pct}%`);
  }
  // The ceilings of the custom kernel: its own measured and predicted
  // rates, and the local-memory, barrier and issue ceilings its trace gives.
  await page.selectOption('#ceilings-variant', KERNEL);
  assert.equal(await page.locator('#ceilings-binding').textContent(), 'Binding ceiling: DRAM at n = 1024 … 8192.');
  const chart = await page.evaluate(() => window.Chart.getChart('ceilings-chart').data.datasets.map((d) => ({ label: d.label, y: d.data.map((q) => q.y) })));
  const rs = run.results.filter((r) => r.variant === KERNEL).sort((a, b) => a.params.n - b.params.n);
  assert.deepEqual(chart.find((d) => d.label === 'measured').y, rs.map((r) => r.gbps));
  assert.deepEqual(chart.find((d) => d.label.startsWith('predicted')).y, rs.map((r) => r.prediction.gbps));
  const labels = chart.map((d) => d.label);
  for (const l of ['DRAM alone', 'local memory alone', 'barriers alone', 'instruction issue alone']) assert.ok(labels.includes(l), labels.join(', '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

// The figures table of the kernel's compiler account as {figure: text}.
function figures(page) {
  return page.$eval(`.source-panel[data-variant="${KERNEL}"] table.compiler-figures`, (t) => Object.fromEntries(
    [...t.querySelectorAll('tr')].map((tr) => [tr.dataset.figure, tr.querySelector('td').textContent.trim()])));
}

test('the_compiler_account_and_the_ptx_of_the_traced_lines', async () => {
  const page = await runPage();
  const panel = page.locator(`.source-panel.custom[data-variant="${KERNEL}"]`);
  assert.match(await panel.locator('table.compiler-figures caption').innerText(), /^transpose_half_tile from source [0-9a-f]{16}, built with "-D TILE_DIM=32 -D BLOCK_ROWS=8": as ptxas reported it for sm_90$/);
  const f = await figures(page);
  assert.equal(f.registers, '48 per work-item');
  assert.equal(f['local memory'], '2,112 B per work-group');
  assert.equal(f.spills, 'none');
  assert.equal(f.barriers, '1');
  assert.match(f.occupancy, /^5 work-groups, 40 of 64 warps per compute unit \(62\.5%\), limited by registers$/);
  assert.deepEqual(run.occupancy[KERNEL], { warps: 40, groups: 5 }, 'the model\'s latency ceiling takes the kernel\'s own occupancy');
  // The PTX beside the .cu: each line the trace names became its accesses.
  await panel.locator('.ptx-panel > summary').click();
  assert.match(await panel.locator('.ptx-panel > summary').innerText(), /memory: global ld scalar ×7, shared st scalar ×7, shared ld scalar ×7, global st scalar ×7/);
  const traced = await panel.locator('table.line-figures tbody tr').evaluateAll((trs) => [...new Set(trs.map((tr) => tr.dataset.line))]);
  const want = { 32: ['global ld scalar · 4 B', 'shared st scalar · 4 B'], 38: ['global st scalar · 4 B', 'shared ld scalar · 4 B'] };
  assert.deepEqual(traced, Object.keys(want));
  for (const n of traced) {
    const line = panel.locator(`.ptx-source li[data-src-line="${n}"]`);
    assert.match(await line.getAttribute('class'), /has-ptx/);
    // By the keyboard, as the list offers (Enter marks the line): a click
    // on line 38 lands on the next panel, which the overflowing lists of
    // .ptx-view (max-height 32em, the lists not held to it) run under.
    await line.press('Enter');
    const badges = await panel.locator('.ptx-code li.linked .width-badge').allTextContents();
    assert.deepEqual([...new Set(badges)].sort(), want[n], `the PTX of line ${n}`);
    assert.equal(await panel.locator('.ptx-source li.linked').getAttribute('data-src-line'), n);
  }
  const ptxText = (await panel.locator('.ptx-code li.linked').allInnerTexts()).join('\n');
  assert.match(ptxText, /ld\.shared\.f32/);
  assert.match(ptxText, /st\.global\.f32/);
  assert.match(await page.locator('.compiler-meanings').textContent(), /Hopper \(compute capability 9\.0\)/);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('counted_beside_the_traces_figures_flags_the_model', async () => {
  const page = await runPage();
  await page.waitForSelector(`#counted tr[data-variant="${KERNEL}"]`, { state: 'attached' });
  const row = await page.$eval(`#counted tr[data-variant="${KERNEL}"]`, (tr) => ({ cls: tr.className, cells: [...tr.cells].map((td) => td.textContent) }));
  assert.equal(row.cls, 'disagrees');
  assert.equal(row.cells[0], `${KERNEL} (custom, like padded)`);
  assert.equal(row.cells[1], 'n = 8192, rows = 8, tile = 32');
  assert.equal(row.cells[2], '4 / 4', 'sectors per load request: counted / traced');
  assert.equal(row.cells[3], '4 / 4');
  assert.equal(row.cells[4], '2.47 / 2', 'the local conflict degree: counted / traced');
  assert.match(row.cells[7], /^local-memory conflict degree of loads: counted 2\.47, predicted 2 — the model's error/);
  const cells = await page.$$eval(`#table td[data-variant="${KERNEL}"] .sub.counted`, (s) => s.map((x) => x.textContent));
  assert.equal(cells.length, 2);
  assert.ok(cells.every((t) => /^counted: 4 sectors\/load · 4 sectors\/store · 2\.\d+-way · DRAM [\d.]+ MB \(predicted [\d.]+\)/.test(t)), cells.join(' | '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the_cuda_kernels_page_has_no_serious_accessibility_findings', async () => {
  const page = await runPage();
  const panel = page.locator(`.source-panel.custom[data-variant="${KERNEL}"]`);
  await page.waitForSelector(`.source-panel.custom[data-variant="${KERNEL}"] .line-highlight`);
  await panel.locator('.ptx-panel > summary').click();
  await panel.locator('.ptx-source li[data-src-line="38"]').press('Enter');
  await page.check('#show-detail');
  await page.selectOption('#ceilings-variant', KERNEL);
  assert.deepEqual(await axeSerious(page), []);
  await panel.locator('table.line-figures').scrollIntoViewIfNeeded();
  await shot(page, 'run-cuda-custom');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
