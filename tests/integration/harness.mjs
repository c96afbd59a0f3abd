// Starts the real warplab-server and warplab-runner on a temporary store and
// talks to them over HTTP, as a user would. Each test file gets its own store,
// port and processes, and removes them when done.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(new URL('../..', import.meta.url).pathname);
export const BUILD = resolve(ROOT, process.env.BUILD || 'build');

// Wait until the child's stderr matches re, counting seen (what it said
// before) with what it says from now on; resolve with the match. A child
// that exits first, or no match in timeoutMs, fails the wait, named what.
function waitForLine(child, re, what, timeoutMs = 30000, seen = '') {
  return new Promise((ok, fail) => {
    // The deadline only fails the wait; a match comes from the child's
    // own output events.
    const timer = setTimeout(() => fail(new Error(`${what}: nothing matched ${re} in ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    const onExit = (code) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited with ${code} first:\n${seen}`));
    };
    const done = (m) => {
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      ok(m);
    };
    const onData = (chunk) => {
      seen += chunk.toString();
      const m = seen.match(re);
      if (m) done(m);
    };
    child.stderr.on('data', onData);
    child.once('exit', onExit);
    const m = seen.match(re);
    if (m) done(m);
  });
}

// A small point of every catalog experiment: its declared model simulates
// and its kernel is traced in well under a second, and a run of all its
// variants there takes a moment on PoCL.
export const SMALL_POINTS = {
  copy: { n: 8192 },
  transpose: { n: 96, tile: 32, rows: 8 },
  strided: { stride: 3, n: 8192 },
  offset: { offset: 1, n: 8192 },
  reduction: { n: 65536, local: 256 },
  dot: { n: 65536, items: 1024, local: 128 },
  myadd: { n: 64 },
  minplus: { n: 37 },
  banks: { c: 3, local: 64, groups: 4, iters: 64 },
};

// Resolve once pred() holds (checked every 50 ms), failing after timeoutMs
// with what was awaited: for events seen as a file or a state, not a time.
export async function waitFor(pred, what, timeoutMs = 60000) {
  const end = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`${what}: not seen in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Run a binary to its end; resolve with its exit code, stdout and stderr.
export function runToEnd(binary, args, timeoutMs = 30000, env = undefined) {
  return new Promise((ok, fail) => {
    const child = spawn(join(BUILD, binary), args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: env ? { ...process.env, ...env } : process.env });
    let stderr = '';
    let stdout = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); fail(new Error(`${binary} did not exit:\n${stderr}`)); }, timeoutMs);
    child.stdout.on('data', (d) => { stdout += d.toString(); });
    child.stderr.on('data', (d) => { stderr += d.toString(); });
    child.once('close', (code) => { clearTimeout(timer); ok({ code, stdout, stderr }); });
  });
}

// A fresh schema named after the test on the suite's PostgreSQL server
// (tests/postgres.sh, WARPLAB_TEST_PG), as a --db value.
function postgresStore(name) {
  const base = process.env.WARPLAB_TEST_PG;
  if (!base) throw new Error('WARPLAB_TEST_PG is not set: tests/run.sh starts PostgreSQL for this test');
  const schema = `it_${name.replace(/[^a-z0-9]/g, '_')}`;
  execFileSync('psql', [base, '-q', '-v', 'ON_ERROR_STOP=1', '-c',
    `DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  return `${base}${base.includes('?') ? '&' : '?'}options=-csearch_path%3D${schema}`;
}

export class Lab {
  // store: 'sqlite' (a file in the lab's folder) or 'postgres'.
  constructor(name, { store = 'sqlite' } = {}) {
    this.name = name;
    this.dir = mkdtempSync(join(tmpdir(), `warplab-${name}-`));
    this.db = store === 'postgres' ? postgresStore(name) : join(this.dir, 'warplab.db');
    this.logs = { server: '', runner: '' };
    this.children = new Set();
  }

  track(child, key) {
    this.children.add(child);
    child.stderr.on('data', (d) => { this.logs[key] += d.toString(); });
    child.once('exit', () => this.children.delete(child));
    return child;
  }

  async startServer(extra = []) {
    const child = this.track(spawn(join(BUILD, 'warplab-server'),
      ['--listen', '127.0.0.1:0', '--db', this.db, '--www', join(ROOT, 'www'),
        '--catalog', join(ROOT, 'kernels/catalog.json'), ...extra],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] }), 'server');
    const m = await waitForLine(child, /\(port (\d+)\)/, 'warplab-server');
    this.server = child;
    this.base = `http://127.0.0.1:${m[1]}`;
    return child;
  }

  // A kernels folder in the lab (name under the lab's folder): the
  // repository's kernels with edit(catalog) applied to the catalog. Returns
  // its path.
  kernelsWith(edit, name = 'kernels') {
    const kernels = join(this.dir, name);
    cpSync(join(ROOT, 'kernels'), kernels, { recursive: true });
    const cat = JSON.parse(readFileSync(join(kernels, 'catalog.json'), 'utf8'));
    edit(cat);
    writeFileSync(join(kernels, 'catalog.json'), JSON.stringify(cat));
    return kernels;
  }

  // The repository's kernels plus the test-only spinning one (a kernel that
  // never ends). Returns its path.
  kernelsWithSpin() {
    const kernels = this.kernelsWith((cat) => {
      cat.experiments.push(JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/test_spin.json'), 'utf8')));
    });
    cpSync(join(ROOT, 'tests/fixtures/test_spin.cl'), join(kernels, 'test_spin.cl'));
    return kernels;
  }

  // Post runs from several clients at once until stop(); body(i, k) is client
  // k's i-th request, and every id answered 201 goes into accepted (a Set).
  // answered(n) resolves once n posts were answered 201, so a kill can land
  // among posts in flight however fast the machine is. A client stops when
  // the server is gone.
  postLoop(clients, body, accepted) {
    let stopping = false;
    let count = 0;
    const waiters = [];
    const loops = Array.from({ length: clients }, async (_, k) => {
      for (let i = 0; !stopping; i++) {
        try {
          const res = await this.post('/api/runs', body(i, k));
          if (res.status === 201) {
            accepted.add(res.json.id);
            count++;
            for (const w of waiters.filter((x) => count >= x.n)) w.ok();
          }
        } catch {
          return;
        }
      }
    });
    return {
      answered: (n) => new Promise((ok) => { if (count >= n) ok(); else waiters.push({ n, ok }); }),
      stop: () => { stopping = true; return Promise.all(loops); },
    };
  }

  // Fill the lab's (empty) store from a file of JSON lines, as
  // `warplab-store import` reads them (tests/fixtures/*.jsonl).
  importStore(fixture) {
    const out = spawnSync(join(BUILD, 'warplab-store'), ['import', '--to', this.db],
      { input: readFileSync(join(ROOT, fixture)), encoding: 'utf8' });
    if (out.status !== 0) throw new Error(`warplab-store import ${fixture}: ${out.stderr}`);
  }

  // Start a runner; resolves once `devices` of its workers are ready (each
  // device has its own worker). env adds to the environment. Runs are traced
  // only where a test asks (trace: true): the trace tests see to tracing, and
  // the others need not wait for it.
  async startRunner(extra = [], { env = {}, devices = 1, trace = false, catalogTraces = false } = {}) {
    const child = this.track(spawn(join(BUILD, 'warplab-runner'),
      // Cold timings flush at most 8 MiB here: on PoCL the measured cache asks
      // for hundreds of MiB per launch, which would make every sweep slow.
      // cache.test.mjs checks the full flush.
      ['--db', this.db, '--kernels', join(ROOT, 'kernels'), '--poll-ms', '100', '--flush-max', '8388608',
        ...(trace ? [] : ['--no-trace']), ...(catalogTraces ? [] : ['--no-catalog-traces']), ...extra],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } }), 'runner');
    const ready = new RegExp(`(runner \\d+ ready[^]*){${devices}}`);
    await waitForLine(child, ready, 'warplab-runner', 60000);
    this.runner = child;
    return child;
  }

  // A point deadline (--run-timeout, seconds) for a test of a kernel that
  // never ends, from this machine's speed now rather than a constant: four
  // times the wall of a small reference run on the lab's runner (a copy of
  // 4096 floats, as the tests serve after a hang, its programs built
  // fresh), at least 3 s. A busy machine gets a longer deadline; the hang
  // ends the same way.
  async hangSeconds() {
    const started = Date.now();
    await this.postDone({ experiment: 'copy', params: { n: 4096 }, repeat: 2, variants: ['float'] });
    return Math.max(3, Math.ceil((4 * (Date.now() - started)) / 1000));
  }

  // Run body(seconds) with the runner restarted under a point deadline from
  // hangSeconds(), then restart it as it was (args and opts as startRunner
  // was given): only the hang tests own a deadline, and every other test of
  // the file runs without one.
  async withDeadline(args, opts, body) {
    const seconds = await this.hangSeconds();
    await this.stop(this.runner);
    await this.startRunner([...args, '--run-timeout', String(seconds)], opts);
    try {
      await body(seconds);
    } finally {
      await this.stop(this.runner);
      await this.startRunner(args, opts);
    }
  }

  // The pid of the newest worker serving device id, from the runner's log.
  workerPid(device) {
    const all = [...this.logs.runner.matchAll(/ready: device (\S+) .*worker pid (\d+)/g)]
      .filter((m) => device === undefined || m[1] === device);
    return Number(all[all.length - 1][2]);
  }

  // Stop a child with sig and wait for it to exit; resolves with its exit code.
  stop(child, sig = 'SIGTERM') {
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child && child.exitCode);
    return new Promise((ok) => {
      child.once('exit', (code, signal) => ok(code === null ? signal : code));
      child.kill(sig);
    });
  }

  // Stop everything, keep the processes' logs in tests/out/ (tests/run.sh
  // fails the suite on any sanitizer report in them) and remove the store.
  async close() {
    await Promise.all([...this.children].map((c) => this.stop(c)));
    const out = join(ROOT, 'tests/out');
    mkdirSync(out, { recursive: true });
    for (const [key, text] of Object.entries(this.logs))
      appendFileSync(join(out, `${this.name}-${key}.log`), text);
    rmSync(this.dir, { recursive: true, force: true });
  }

  async request(method, path, { body, headers = {}, raw = false } = {}) {
    const init = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
      if (!('Content-Type' in init.headers)) init.headers['Content-Type'] = 'application/json';
    }
    const res = await fetch(this.base + path, init);
    const text = await res.text();
    let json = null;
    if (!raw) {
      try { json = JSON.parse(text); } catch { json = null; }
    }
    return { status: res.status, headers: res.headers, text, json };
  }

  get(path, opts) { return this.request('GET', path, opts); }
  post(path, body, opts = {}) { return this.request('POST', path, { ...opts, body }); }

  // Poll the run until pred(run) holds; fail after timeoutMs with its state.
  async waitRun(id, pred, timeoutMs = 120000) {
    const until = Date.now() + timeoutMs;
    let run;
    while (Date.now() < until) {
      run = (await this.get(`/api/runs/${id}`)).json;
      if (run && pred(run)) return run;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`run ${id} did not reach the state in time: ${JSON.stringify(run && { status: run.status, progress: run.progress, error: run.error })}\nrunner log:\n${this.logs.runner}`);
  }

  // Resolve with the first match of re in the runner's log after its first
  // from characters, as soon as a line of it brings one.
  waitLogged(re, from = 0, timeoutMs = 600000) {
    return waitForLine(this.runner, re, "the runner's log", timeoutMs, this.logs.runner.slice(from));
  }

  // Wait until no run is queued or running (or timeoutMs passes); resolves
  // with the run counts of /api/health.
  async waitIdle(timeoutMs = 300000) {
    const until = Date.now() + timeoutMs;
    let counts;
    while (Date.now() < until) {
      counts = (await this.get('/api/health')).json.runs;
      if (counts.queued === 0 && counts.running === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    return counts;
  }

  // Post a run request (201 expected) and resolve with the run once it is
  // done (any other end fails the test, with its error).
  async postDone(body) {
    const res = await this.post('/api/runs', body);
    if (res.status !== 201) throw new Error(`POST /api/runs: ${res.status} ${res.text}`);
    const run = await this.waitDone(res.json.id);
    if (run.status !== 'done') throw new Error(`run ${run.id} ${run.status}: ${run.error}`);
    return run;
  }

  // Wait until the run is finished and its traces, which follow a done run,
  // are in (explain no longer "pending").
  waitDone(id, timeoutMs) {
    return this.waitRun(id, (r) => ['done', 'failed', 'cancelled'].includes(r.status) && r.explain !== 'pending', timeoutMs);
  }

  // Wait until the run reads as it will from now on: finished, traced, and
  // the server's predictions made.
  waitSettled(id, timeoutMs) {
    return this.waitRun(id, (r) => ['done', 'failed', 'cancelled'].includes(r.status) && r.explain !== 'pending' && !r.predictions_pending, timeoutMs);
  }
}
