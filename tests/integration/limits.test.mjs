// Safe on a shared machine: writes need a token when a token file is set (reads
// stay open so shared links work), a public address without tokens is refused,
// the queue and body limits answer 429 and 413, and static files never leave
// www/ — not through symbolic links either.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

import { Lab, ROOT, runToEnd } from './harness.mjs';

const lab = new Lab('limits');
const tokens = join(lab.dir, 'tokens');

before(async () => {
  writeFileSync(tokens, '# the lab\'s tokens\nalpha-7f3c9e\n\n  beta-22d1  \n');
  await lab.startServer(['--token-file', tokens, '--queue-limit', '3', '--max-body', '2048']);
});
after(() => lab.close());

const RUN = { experiment: 'copy', params: { n: 4096 }, repeat: 1 };

test('writes_need_a_valid_bearer_token', async () => {
  const none = await lab.post('/api/runs', RUN);
  assert.equal(none.status, 401);
  assert.equal(none.json.error.code, 'unauthorized');
  const wrong = await lab.post('/api/runs', RUN, { headers: { Authorization: 'Bearer alpha-7f3c9' } });
  assert.equal(wrong.status, 401, 'a prefix of a token is not a token');
  const basic = await lab.post('/api/runs', RUN, { headers: { Authorization: 'Basic alpha-7f3c9e' } });
  assert.equal(basic.status, 401);
  const ok = await lab.post('/api/runs', RUN, { headers: { Authorization: 'Bearer beta-22d1' } });
  assert.equal(ok.status, 201, ok.text);
  assert.equal((await lab.get('/api/runs')).json.runs.length, 1, 'refused writes created nothing');
  // Reads stay open, so shared URLs work without a token.
  assert.equal((await lab.get(`/api/runs/${ok.json.id}`)).status, 200);
  assert.equal((await lab.get(`/runs/${ok.json.id}`, { raw: true })).status, 200);
  // Cancelling is a write.
  assert.equal((await lab.post(`/api/runs/${ok.json.id}/cancel`)).status, 401);
  assert.equal((await lab.post(`/api/runs/${ok.json.id}/cancel`, undefined, { headers: { Authorization: 'Bearer alpha-7f3c9e' } })).status, 200);
});

test('queue_full_answers_429_and_queues_nothing_more', async () => {
  const auth = { headers: { Authorization: 'Bearer alpha-7f3c9e' } };
  for (let i = 0; i < 3; i++) assert.equal((await lab.post('/api/runs', RUN, auth)).status, 201);
  const full = await lab.post('/api/runs', RUN, auth);
  assert.equal(full.status, 429);
  assert.equal(full.json.error.code, 'queue_full');
  assert.match(full.json.error.message, /3 runs queued, the limit is 3/);
  const queued = (await lab.get('/api/runs?status=queued')).json.runs.length;
  assert.equal(queued, 3);
});

test('body_limit_is_configurable', async () => {
  const big = JSON.stringify({ ...RUN, label: 'x'.repeat(3000) });
  const res = await lab.post('/api/runs', big, { headers: { Authorization: 'Bearer alpha-7f3c9e' } });
  assert.equal(res.status, 413);
  assert.match(res.json.error.message, /2048-byte limit/);
});

test('head_requests_answer_without_a_body', async () => {
  for (const path of ['/', '/api/health', '/api/experiments']) {
    const res = await lab.request('HEAD', path, { raw: true });
    assert.equal(res.status, 200, path);
    assert.equal(res.text, '', path);
  }
});

test('refuses_a_public_address_without_tokens', async () => {
  const common = ['--db', lab.db, '--www', join(ROOT, 'www'), '--catalog', join(ROOT, 'kernels/catalog.json')];
  const { code, stderr } = await runToEnd('warplab-server', ['--listen', '0.0.0.0:0', ...common]);
  assert.notEqual(code, 0);
  assert.match(stderr, /refusing to listen on 0\.0\.0\.0:0 without --token-file/);
  // With tokens, or with the explicit opt-out, it starts.
  for (const extra of [['--token-file', tokens], ['--allow-anonymous-writes']]) {
    const other = new Lab('limits-public');
    try {
      const child = await other.startServer(['--listen', '0.0.0.0:0', '--db', lab.db, ...extra]);
      assert.equal(child.exitCode, null, extra.join(' '));
    } finally {
      await other.close();
    }
  }
});

test('static_files_never_leave_www', async () => {
  // A www/ of our own with links pointing out of it.
  const www = join(lab.dir, 'www');
  cpSync(join(ROOT, 'www'), www, { recursive: true, dereference: true });
  writeFileSync(join(lab.dir, 'secret.txt'), 'the secret\n');
  symlinkSync(join(lab.dir, 'secret.txt'), join(www, 'leak.txt'));
  symlinkSync(lab.dir, join(www, 'outside'));
  mkdirSync(join(www, 'sub'));
  writeFileSync(join(www, 'sub', 'plain.txt'), 'fine\n');
  writeFileSync(join(www, 'notes.md'), 'no content type for this\n');
  const other = new Lab('limits-www');
  try {
    await other.startServer(['--db', lab.db, '--www', www]);
    assert.equal((await other.get('/sub/plain.txt', { raw: true })).text, 'fine\n');
    for (const path of ['/leak.txt', '/outside/secret.txt', '/notes.md', '/sub', '/sub/', '/sub/../leak.txt']) {
      const res = await other.get(path, { raw: true });
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(res.text, /the secret/, path);
    }
  } finally {
    await other.close();
  }
});

test('connection_limits_and_idle_timeout_hold', async () => {
  const { connect } = await import('node:net');
  const other = new Lab('limits-conn');
  try {
    await other.startServer(['--db', lab.db, '--per-ip-connections', '2', '--connection-timeout', '1']);
    const port = Number(new URL(other.base).port);
    const open = () => new Promise((ok, fail) => {
      const s = connect(port, '127.0.0.1', () => ok(s));
      s.on('error', fail);
    });
    const closed = (s) => new Promise((ok) => s.on('close', ok));
    // Two idle connections use up this address's share.
    const a = await open();
    const b = await open();
    // A third connection from the same address is answered, not reset: 429
    // with the API's JSON error, and closed.
    const third = await other.get('/api/health');
    assert.equal(third.status, 429);
    assert.equal(third.json.error.code, 'too_many_connections');
    assert.equal(third.headers.get('connection'), 'close');
    // Idle connections are closed after the timeout, and then there is room again.
    await Promise.all([closed(a), closed(b)]);
    assert.equal((await other.get('/api/health')).status, 200);
  } finally {
    await other.close();
  }
});

// POST a chunked body (no Content-Length) of the given size, in 16 KiB chunks.
function postChunked(base, bytes) {
  return new Promise(async (ok, fail) => {
    const { request } = await import('node:http');
    const req = request(`${base}/api/runs`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer alpha-7f3c9e' } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => ok({ status: res.statusCode, text }));
    });
    req.on('error', fail);
    const chunk = ' '.repeat(16384);
    for (let sent = 0; sent < bytes; sent += chunk.length) req.write(chunk);
    req.end();
  });
}

test('chunked_bodies_over_the_limit_get_413_or_are_cut_off', async () => {
  const over = await postChunked(lab.base, 64 * 1024);
  assert.equal(over.status, 413, 'past the limit: 413 once the body ends, nothing buffered');
  assert.match(over.text, /too_large/);
  // A sender that keeps going far past the limit is cut off.
  await assert.rejects(postChunked(lab.base, 4 * 1024 * 1024));
  assert.equal((await lab.get('/api/health')).status, 200, 'the server is fine');
});
