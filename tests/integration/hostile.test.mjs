// Hostile input against the real server and runner on PoCL, class by class:
// a custom kernel cannot read a host file even when the server's directive
// check is bypassed (the worker's confinement holds alone), and the check
// refuses the spellings that used to hide a directive; no host path reaches a
// result; kernel printf never reaches the runner's log; a declaration whose
// loops take seconds to simulate is computed once, off the request threads,
// and cut at its time; HTTP framing a proxy could read otherwise gets 400; a
// full address gets 429, not a reset.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('hostile');
// A file of the host the runner's user can read, outside every folder the
// worker is allowed: what a kernel must never see.
const secretDir = mkdtempSync(join(tmpdir(), 'warplab-secret-'));
const secret = join(secretDir, 'secret.h');
writeFileSync(secret, 'warplab_secret_7f3a9c\n');

before(async () => {
  await lab.startServer();
  await lab.startRunner();
});
after(async () => {
  await lab.close();
  rmSync(secretDir, { recursive: true, force: true });
});

async function template(variant) {
  return (await lab.get(`/api/experiments/transpose/variants/${variant}/source`)).json.template;
}

async function queue(body) {
  const res = await lab.post('/api/runs', body);
  assert.equal(res.status, 201, res.text);
  return res.json.id;
}

// The source the runner will build for run id's first kernel, written into
// the store directly: the server's check never sees it.
function replaceSource(id, source) {
  const quoted = `'${source.replaceAll("'", "''")}'`;
  execFileSync('sqlite3', ['-cmd', '.timeout 10000', lab.db, `UPDATE runs SET request = json_set(request, '$.kernels[0].source', ${quoted}) WHERE id = ${id}`]);
}

test('a_kernel_that_includes_a_host_file_fails_to_build_even_past_the_check', async () => {
  const devices = (await lab.get('/api/devices')).json.devices;
  assert.match(devices[0].confinement, /^landlock ABI \d+$/, 'the worker says how it is confined');
  const naive = (await template('naive')).replace('mtran_naive', 'reader');
  // Queued while the runner is busy with a slow run, so the source can be
  // swapped before it is claimed.
  const blocker = await queue({ experiment: 'transpose', params: { n: 2048 }, variants: ['naive'], repeat: 100, cache: 'hot' });
  const readers = [];
  for (const line of [`#include "${secret}"`, `#pragma GCC dependency "${secret}"`,
    `#define C(a, b) a##b\n#if C(__has_, include)("${secret}")\n#error found\n#endif`]) {
    const id = await queue({ experiment: 'transpose', params: { n: 256 }, variants: [], repeat: 1, kernels: [{ name: 'reader', like: 'naive', source: naive }] });
    replaceSource(id, `${line}\n${naive}`);
    readers.push(id);
  }
  await lab.waitDone(blocker, 120000);
  for (const id of readers) {
    const run = await lab.waitDone(id, 60000);
    const r = run.results.find((x) => x.variant === 'reader');
    const text = `${run.error || ''} ${r ? r.error || '' : ''}`;
    assert.doesNotMatch(text, /warplab_secret_7f3a9c/, 'the file\'s text never comes back');
    assert.ok(!text.includes(secretDir), 'nor its path');
    if (run.request.kernels[0].source.includes('#include')) {
      assert.ok(r && !r.verified, 'the include does not build');
      assert.match(r.error, /did not build[^]*cannot open file '<path>': Permission denied/);
    }
  }
});

test('the_directive_check_refuses_the_spellings_that_hid_a_directive', async () => {
  const naive = (await template('naive')).replace('mtran_naive', 'x');
  for (const [prefix, what] of [
    ['int a;\r#include "/etc/hostname"\n', '#include'],
    ['char c = \'x;\n#include "/etc/hostname"\n', '#include'],
    ['\ufeff#include "/etc/hostname"\n', '#include'],
    ['int q = 1 ?\?/\n#include "/etc/hostname"\n', '#include'],
    ['int t = \'?\?\'; \n#include "/etc/hostname"\n', '#include'],
    ['#pragma GCC dependency "/etc/hostname"\n', '#pragma GCC'],
    ['_Pragma("GCC dependency \\"/etc/hostname\\"")\n', '_Pragma'],
    ['#define C(a, b) a##b\n', '## (token pasting)'],
  ]) {
    const res = await lab.post('/api/runs', { experiment: 'transpose', kernels: [{ name: 'x', like: 'naive', source: prefix + naive }] });
    assert.equal(res.status, 400, JSON.stringify(prefix));
    assert.equal(res.json.error.field, 'kernels[0].source');
    assert.ok(res.json.error.message.includes(`uses ${what}`), `${JSON.stringify(prefix)}: ${res.json.error.message}`);
  }
});

test('no_host_path_reaches_a_result_and_kernel_output_stays_out_of_the_log', async () => {
  const naive = (await template('naive')).replace('mtran_naive', 'mine');
  const where = await queue({ experiment: 'transpose', params: { n: 256 }, variants: [], repeat: 1, kernels: [{ name: 'mine', like: 'naive', source: `_Static_assert(0, __FILE__);\n${naive}` }] });
  const noisy = naive.replace('{', '{\n\tprintf("forged: warplab-runner info: run 999 done %d\\n", (int)get_global_id(0));');
  const loud = await queue({ experiment: 'transpose', params: { n: 256 }, variants: [], repeat: 2, kernels: [{ name: 'mine', like: 'naive', source: noisy }] });
  const run = await lab.waitDone(where, 60000);
  const r = run.results.find((x) => x.variant === 'mine');
  assert.match(r.error, /did not build/);
  assert.match(r.error, /<source>/, 'the compiler\'s file is named <source>');
  assert.match(r.error, /static assertion failed: <source>/, '__FILE__ printed as <source>');
  assert.doesNotMatch(r.error, /(^|[\s"'(:])\/[\w.-]+\//, 'no absolute path of the host');
  const printed = await lab.waitDone(loud, 60000);
  assert.equal(printed.status, 'done', printed.error);
  assert.ok(printed.results.find((x) => x.variant === 'mine').verified, 'a kernel that prints still measures');
  assert.doesNotMatch(lab.logs.runner, /forged/, 'its output is not in the runner\'s log');
});

test('a_declaration_that_takes_seconds_to_simulate_is_cut_and_holds_no_reader', async () => {
  const naive = (await template('naive')).replace('mtran_naive', 'slow');
  // Three nested loops of 160 steps each (4 Mi trips in all), with long
  // conditions, on every access the model allows: seconds of simulation.
  const cond = (v) => `${v} < 160 + 0*(${Array(10).fill(v).join(' + ')})`;
  const access = {
    array: 'idata', space: 'global', op: 'load', bytes: 4, index: 'i + j + k + lid0',
    loops: [{ var: 'i', from: '0', while: cond('i'), next: 'i + 1' }, { var: 'j', from: '0', while: cond('j'), next: 'j + 1' }, { var: 'k', from: '0', while: cond('k'), next: 'k + 1' }],
  };
  const id = await queue({ experiment: 'transpose', params: { n: 256 }, variants: [], repeat: 1, kernels: [{ name: 'slow', like: 'naive', source: naive, accesses: Array(8).fill(access) }] });
  await lab.waitDone(id, 60000);
  // Eight readers at once and the health check beside them: all answer.
  const reads = Array.from({ length: 8 }, () => lab.get(`/api/runs/${id}`));
  const health = await lab.get('/api/health');
  assert.equal(health.status, 200);
  for (const res of await Promise.all(reads)) {
    assert.equal(res.status, 200);
    const p = res.json.results.find((x) => x.variant === 'slow').prediction;
    assert.ok(p.pending || /ran out/.test(p.error), JSON.stringify(p));
  }
  // Computed once, then cut at its time: every later read says so at once.
  const final = await lab.waitSettled(id, 60000);
  assert.match(final.results.find((x) => x.variant === 'slow').prediction.error, /time for this prediction ran out/);
});

// One raw request on its own connection; resolves with what came back.
function raw(text) {
  const port = Number(new URL(lab.base).port);
  return new Promise((ok, fail) => {
    const s = connect(port, '127.0.0.1', () => s.write(text));
    let got = '';
    s.on('data', (d) => { got += d; });
    s.on('end', () => ok(got));
    s.on('error', fail);
  });
}

function statusAndJson(response) {
  const [head, body] = response.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), head, json: JSON.parse(body) };
}

test('http_framing_that_a_proxy_could_read_otherwise_is_refused', async () => {
  const before = (await lab.get('/api/health')).json.runs.queued + (await lab.get('/api/health')).json.runs.done;
  const body = '{"experiment":"copy","params":{"n":4096}}';
  const post = (headers) => raw(`POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}Connection: close\r\n\r\n${body}`);
  for (const [headers, message] of [
    [`Content-Length: ${body.length}\r\nContent-Length: 5\r\n`, /several Content-Length/],
    [`Content-Length: ${body.length}\r\ncontent-length: ${body.length}\r\n`, /several Content-Length/],
    ['Content-Length: abc\r\n', /'abc' is not a length/],
    ['Content-Length: -5\r\n', /'-5' is not a length/],
    ['Content-Length: +42\r\n', /'\+42' is not a length/],
    ['Content-Length: 99999999999999999999\r\n', /is not a length/],
    [`Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n`, /both Content-Length and Transfer-Encoding/],
  ]) {
    const res = await post(headers);
    assert.equal(res.match(/^HTTP\/1\.1 /gm).length, 1, `one status line: ${res}`);
    const { status, json } = statusAndJson(res);
    assert.equal(status, 400, headers);
    assert.equal(json.error.code, 'bad_request');
    assert.match(json.error.message, message);
  }
  for (const target of ['/index.html%00.png', '/api/health%00', '/runs%001']) {
    const { status, json } = statusAndJson(await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
    assert.equal(status, 400, target);
    assert.match(json.error.message, /%00/);
  }
  const noHost = statusAndJson(await raw('GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n'));
  assert.equal(noHost.status, 400);
  assert.match(noHost.json.error.message, /Host header/);
  const twoHosts = statusAndJson(await raw('GET /api/health HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'));
  assert.equal(twoHosts.status, 400);
  const absolute = statusAndJson(await raw(`GET ${lab.base}/api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`));
  assert.equal(absolute.status, 200, 'an absolute-form target is served');
  assert.equal(absolute.json.status, 'ok');
  const after = (await lab.get('/api/health')).json.runs.queued + (await lab.get('/api/health')).json.runs.done;
  assert.equal(after, before, 'nothing was queued');
});

test('streams_past_an_address_share_are_answered_429_and_closed', async () => {
  const other = new Lab('hostile-streams');
  try {
    await other.startServer(['--db', lab.db, '--per-ip-connections', '8']);
    const port = Number(new URL(other.base).port);
    const open = () => new Promise((ok, fail) => {
      const s = connect(port, '127.0.0.1', () => {
        s.write('GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n');
      });
      let got = '';
      s.on('data', (d) => {
        got += d;
        if (got.includes('\r\n\r\n')) ok({ s, status: Number(got.split(' ')[1]), got });
      });
      s.on('error', fail);
    });
    const streams = [];
    for (let i = 0; i < 20; i++) streams.push(await open());
    const statuses = streams.map((x) => x.status);
    assert.equal(statuses.filter((s) => s === 200).length, 8, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 429).length, 12, 'every other one is answered, none reset');
    const refused = streams.find((x) => x.status === 429);
    await new Promise((ok) => (refused.s.readableEnded ? ok() : refused.s.on('end', ok)));
    assert.match(refused.got, /too_many_connections/);
    for (const x of streams) x.s.destroy();
  } finally {
    await other.close();
  }
});

test('the_second_request_of_a_kept_alive_connection_is_checked_too', async () => {
  const port = Number(new URL(lab.base).port);
  const body = '{"experiment":"copy","params":{"n":4096}}';
  const before = (await lab.get('/api/runs?limit=200')).json.runs.length;
  for (const [second, message] of [
    [`POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nContent-Length: 5\r\n\r\n${body}`, /several Content-Length/],
    ['GET /index.html%00.png HTTP/1.1\r\nHost: x\r\n\r\n', /%00/],
    ['GET /api/health HTTP/1.1\r\n\r\n', /Host header/],
  ]) {
    const got = await new Promise((ok, fail) => {
      const s = connect(port, '127.0.0.1', () => s.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n'));
      let text = '';
      let sent = false;
      s.on('data', (d) => {
        text += d;
        // The first answer in, the second request goes on the same connection.
        if (!sent && text.includes('"status":"ok"')) {
          sent = true;
          text = '';
          s.write(second);
        }
      });
      s.on('end', () => ok(text));
      s.on('error', fail);
    });
    const { status, json, head } = statusAndJson(got);
    assert.equal(status, 400, second);
    assert.match(json.error.message, message);
    assert.match(head, /Connection: close/i);
  }
  assert.equal((await lab.get('/api/runs?limit=200')).json.runs.length, before, 'nothing was queued');
});
