#!/usr/bin/env node
// bench/sse-latency.mjs [RUNS] — how soon a commit reaches the browser. A
// server and a runner (PoCL or whatever the runner finds) on a fresh store,
// the home page open in headless Chromium, RUNS tiny runs posted one at a
// time. The store stamps started_at and finished_at inside the transactions
// that claim and finish a run; the page records when it learns of each:
//   event:  the status stream's event arrives (an EventSource of its own);
//   page:   the run's row in the home page's table shows the status.
// Prints the median, 90th percentile and maximum of each delay, in ms.
// BIN (default build) and WWW (default www) pick the binaries and the
// dashboard, so an older build can be measured the same way (it has no
// stream: only the "page" row is measured then).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { chromium } from 'playwright-core';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
const BIN = resolve(ROOT, process.env.BIN || 'build');
const WWW = resolve(ROOT, process.env.WWW || 'www');
const RUNS = Number(process.argv[2] || 30);
const work = mkdtempSync(join(tmpdir(), 'warplab-sse-'));
const db = join(work, 'warplab.db');

function start(bin, args, ready) {
  const child = spawn(join(BIN, bin), args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((ok, fail) => {
    let seen = '';
    child.stderr.on('data', (d) => {
      seen += d;
      const m = seen.match(ready);
      if (m) ok({ child, m });
    });
    child.once('exit', (code) => fail(new Error(`${bin} exited (${code}):\n${seen}`)));
  });
}

const server = await start('warplab-server', ['--listen', '127.0.0.1:0', '--db', db, '--www', WWW,
  '--catalog', 'kernels/catalog.json'], /\(port (\d+)\)/);
const runner = await start('warplab-runner', ['--db', db, '--kernels', 'kernels', '--devices', process.env.DEVICES || 'cpu'], /ready/);
const base = `http://127.0.0.1:${server.m[1]}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});

try {
  const page = await browser.newPage();
  // Before the page's own scripts: a status stream of the bench's own, and a
  // watch on the runs table; both stamp wall-clock ms with a fraction.
  await page.addInitScript(() => {
    const now = () => performance.timeOrigin + performance.now();
    window.seen = { event: [], page: [] };
    if (window.EventSource) {
      const es = new EventSource('/api/events');
      es.addEventListener('run', (e) => {
        const r = JSON.parse(e.data);
        window.seen.event.push({ id: r.id, status: r.status, at: now() });
      });
    }
    new MutationObserver(() => {
      for (const tr of document.querySelectorAll('#runs tr[data-run]')) {
        const id = Number(tr.dataset.run);
        const status = (tr.querySelector('.status') || tr).textContent;
        for (const s of ['running', 'done']) {
          if (status.includes(s) && !window.seen.page.some((p) => p.id === id && p.status === s)) window.seen.page.push({ id, status: s, at: now() });
        }
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`${base}/`);
  await page.waitForSelector('#runs tbody tr');
  await page.waitForTimeout(1500);
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const res = await fetch(`${base}/api/runs`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ experiment: 'copy', params: { n: 4096 }, repeat: 1, variants: ['float'], cache: 'hot' }),
    });
    const { id } = await res.json();
    let run;
    do {
      await new Promise((r) => setTimeout(r, 50));
      run = await (await fetch(`${base}/api/runs/${id}`, { headers: { Accept: 'application/json' } })).json();
    } while (!['done', 'failed'].includes(run.status));
    // Let the page catch up (a polling page may take seconds), then idle out of
    // step with any poll.
    await page.waitForFunction((rid) => window.seen.page.some((p) => p.id === rid && p.status === 'done'), id, { timeout: 60000 });
    runs.push(run);
    await new Promise((r) => setTimeout(r, 300 + Math.random() * 1000));
  }
  const seen = await page.evaluate(() => window.seen);
  const stamp = (t) => Date.parse(t);
  const report = (what, list) => {
    const d = [];
    for (const run of runs) {
      for (const [status, at] of [['running', run.started_at], ['done', run.finished_at]]) {
        const hit = list.find((x) => x.id === run.id && x.status === status);
        if (hit) d.push(hit.at - stamp(at));
      }
    }
    if (!d.length) { console.log(`${what}: none seen`); return; }
    d.sort((a, b) => a - b);
    const q = (p) => d[Math.min(d.length - 1, Math.floor(p * (d.length - 1)))];
    console.log(`${what}: ${d.length} status changes, commit to browser (ms): median ${q(0.5).toFixed(1)}, p90 ${q(0.9).toFixed(1)}, max ${d[d.length - 1].toFixed(1)}`);
  };
  report('event (status stream)', seen.event.filter((e) => e.status === 'running' || e.status === 'done'));
  report('page (home page row)', seen.page);
} finally {
  await browser.close();
  server.child.kill();
  runner.child.kill();
  rmSync(work, { recursive: true, force: true });
}
