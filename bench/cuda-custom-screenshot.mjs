// bench/cuda-custom-screenshot.mjs [DIR] — a custom CUDA kernel on its run
// page, as docs/ shows it: "holdout cuda transpose 1" from the H200 store of
// the CUDA holdout plan (tests/fixtures/h200-cuda-custom-runs.jsonl, run 4)
// on a local server, the page at 1440×900 once the model's predictions are
// in. What the page shows of the kernel transpose_half_tile (a .cu file
// traced as itself in Oclgrind) lies thousands of pixels apart, so the
// picture, DIR/run-cuda-custom.png (default docs), is two places of the page
// as the browser drew them at that width, cut out at full scale and stacked
// into one 1440×900 image, each under a grey line that says where it is:
// the ceilings with the kernel chosen and its binding ceiling (the model's
// long paragraph between them left out); and the kernel's Source panel with
// its source box scrolled to lines 30–39 (the traced lines 32 and 38
// marked), the trace's figures per line, the compiler's account (ptxas:
// registers, shared memory, occupancy) and the link to its PTX. Prints the
// rows it cut, and the page's console errors if any.
import { join, resolve } from 'node:path';

import { Lab } from '../tests/integration/harness.mjs';
import { launch, openPage } from '../tests/e2e/browser.mjs';

const dir = process.argv[2] || 'docs';
const RUN = 4;
const KERNEL = 'transpose_half_tile';
const LINES = [30, 39];	// the source lines shown, the traced 32 and 38 among them
const WIDTH = 1440;
const HEIGHT = 900;

const lab = new Lab('cuda-custom-shot');
lab.importStore('tests/fixtures/h200-cuda-custom-runs.jsonl');
await lab.startServer();
const browser = await launch();
try {
  await lab.waitRun(RUN, (r) => !r.predictions_pending && r.explain !== 'pending');
  const page = await openPage(browser, { width: WIDTH, height: HEIGHT });
  await page.goto(`${lab.base}/runs/${RUN}`);
  const panel = `.source-panel.custom[data-variant="${KERNEL}"]`;
  await page.waitForSelector(`${panel} table.line-figures`);
  await page.waitForSelector(`${panel} table.compiler-figures`);
  await page.waitForSelector(`${panel} .line-highlight`);
  await page.selectOption('#ceilings-variant', KERNEL);
  await page.waitForFunction(() => /^Binding ceiling: /.test(document.getElementById('ceilings-binding').textContent));
  // The source box scrolled, as a reader scrolls it, to the lines shown.
  const rowOf = (n) => `${panel} pre.source .line-numbers-rows > span:nth-child(${n})`;
  await page.$eval(rowOf(LINES[0]), (span) => {
    const pre = span.closest('pre');
    pre.scrollTop += span.getBoundingClientRect().top - pre.getBoundingClientRect().top;
  });

  // A cut: the page's full width, from the top of the first element the
  // selectors match to the bottom of the last, in page coordinates, with pad
  // pixels around.
  const cut = async (sels, pad = 6) => {
    const r = await page.evaluate((ss) => {
      const boxes = ss.flatMap((s) => [...document.querySelectorAll(s)]).map((e) => e.getBoundingClientRect());
      return { top: Math.min(...boxes.map((b) => b.top)) + scrollY, bottom: Math.max(...boxes.map((b) => b.bottom)) + scrollY };
    }, sels);
    const top = Math.floor(r.top) - pad;
    const height = Math.ceil(r.bottom) + pad - top;
    const png = await page.screenshot({ fullPage: true, clip: { x: 0, y: top, width: WIDTH, height } });
    return { top, height, src: `data:image/png;base64,${png.toString('base64')}` };
  };
  const places = [
    { where: `Predicted beside measured › The ceilings, ${KERNEL} chosen`,
      cuts: [await cut(['#ceilings h3']), await cut(['#ceilings-binding'])] },
    { where: `Source › ${KERNEL}: lines ${LINES[0]}–${LINES[1]} of its .cu, the trace's figures, the compiler's account and its PTX`,
      cuts: [await cut([`${panel} > summary`]), await cut([rowOf(LINES[0]), rowOf(LINES[1])], 0),
        await cut([`${panel} table.line-figures`, `${panel} .compiler`])] },
  ];
  for (const p of places) console.log(`${p.where}: ${p.cuts.map((c) => `${c.height} px at y = ${c.top}`).join(', ')}`);

  // Stacked at full scale into one picture of the viewport's size.
  const sheet = await openPage(browser, { width: WIDTH, height: HEIGHT });
  await sheet.setContent(`<!doctype html><html><head><style>
    body { margin: 0; background: #fff; font: 13px system-ui, sans-serif; }
    .place { border-bottom: 2px solid #d0d7de; }
    .where { background: #f6f8fa; color: #57606a; padding: 3px 12px; border-bottom: 1px solid #d0d7de; }
    img { display: block; }
  </style></head><body>${places.map((p) => `<div class="place"><div class="where">Run #${RUN} › ${p.where}</div>${p.cuts.map((c) => `<img src="${c.src}" alt="">`).join('')}</div>`).join('')}</body></html>`);
  await sheet.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
  const height = await sheet.evaluate(() => Math.ceil(document.body.getBoundingClientRect().height));
  const file = join(dir, 'run-cuda-custom.png');
  await sheet.screenshot({ path: file });
  console.log(`run ${RUN} (${KERNEL}) at ${WIDTH}×${HEIGHT}: the cuts stack to ${height} px${height > HEIGHT ? `, ${height - HEIGHT} px of them cut off at the bottom` : ''} -> ${resolve(file)}`);
  if (page.errors.length) console.log(`console errors:\n${page.errors.join('\n')}`);
} finally {
  await browser.close();
  await lab.close();
}
