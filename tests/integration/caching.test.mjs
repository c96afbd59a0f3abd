// Finished runs served like static files: strong ETags and 304s, gzip that
// decodes to exactly the plain body, Cache-Control that lets browsers keep a
// finished run, and an ETag that changes while a run runs and stops changing
// once it has finished. Raw HTTP (node:http), so nothing decodes for us.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { Lab, ROOT } from './harness.mjs';

const lab = new Lab('caching');
let done;

function raw(path, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = request(lab.base + path, { headers }, (res) => {
      const parts = [];
      res.on('data', (c) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }));
    });
    req.on('error', reject);
    req.end();
  });
}

before(async () => {
  await lab.startServer();
  await lab.startRunner();
  const id = (await lab.post('/runs', { experiment: 'transpose', params: { n: [256, 512] }, repeat: 2, label: 'cached' })).json.id;
  done = await lab.waitSettled(id);
  assert.equal(done.status, 'done', done.error);
});
after(() => lab.close());

// The plain and gzip forms of path: both 200, the gzip one decoding to the
// plain bytes, with different strong tags; then 304 for each tag.
async function checkForms(path, type) {
  const plain = await raw(path, { 'Accept-Encoding': 'identity' });
  assert.equal(plain.status, 200);
  assert.match(plain.headers['content-type'], type);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.match(plain.headers.etag, /^"[0-9a-f-]+"$/, 'a strong tag');
  const packed = await raw(path, { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(packed.status, 200);
  assert.equal(packed.headers['content-encoding'], 'gzip');
  assert.match(packed.headers.vary, /Accept-Encoding/);
  assert.ok(packed.body.length < plain.body.length, `${packed.body.length} < ${plain.body.length}`);
  assert.deepEqual(gunzipSync(packed.body), plain.body, 'decodes to exactly the plain body');
  assert.notEqual(packed.headers.etag, plain.headers.etag, 'each form its own tag');
  for (const [form, enc] of [[plain, 'identity'], [packed, 'gzip']]) {
    const again = await raw(path, { 'Accept-Encoding': enc, 'If-None-Match': form.headers.etag });
    assert.equal(again.status, 304, `${path} ${enc}`);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, form.headers.etag);
  }
  const listed = await raw(path, { 'Accept-Encoding': 'identity', 'If-None-Match': `"nope", W/${plain.headers.etag}` });
  assert.equal(listed.status, 304, 'a tag in a list, weakly compared');
  const other = await raw(path, { 'Accept-Encoding': 'identity', 'If-None-Match': '"0000000000000000"' });
  assert.equal(other.status, 200);
  assert.deepEqual(other.body, plain.body);
  return { plain, packed };
}

test('finished_run_json_has_etag_304_gzip_and_may_be_kept', async () => {
  const { plain } = await checkForms(`/api/runs/${done.id}`, /^application\/json/);
  assert.deepEqual(JSON.parse(plain.body), done, 'the same run as the API gave while polling');
  assert.match(plain.headers['cache-control'], /public, max-age=\d+/);
  const short = await raw(`/runs/${done.id}`, { Accept: 'application/json', 'Accept-Encoding': 'gzip' });
  assert.equal(short.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(short.body), plain.body, '/runs/{id} as JSON is the same body');
  assert.equal(short.headers.vary, 'Accept, Accept-Encoding');
  const metrics = (await lab.get('/metrics')).text;
  assert.match(metrics, /warplab_response_cache_lookups_total\{outcome="hit"\} [1-9]/, 'served from the cache');
  assert.match(metrics, /warplab_response_cache_bytes [1-9]/);
});

test('finished_run_csv_has_etag_304_and_gzip', async () => {
  const { plain } = await checkForms(`/api/runs/${done.id}/results.csv`, /^text\/csv/);
  assert.match(plain.body.toString(), /^variant,n,tile,rows,/);
  assert.match(plain.headers['content-disposition'], /warplab-run-\d+\.csv/);
});

test('dashboard_scripts_are_gzip_with_etags', async () => {
  const { plain } = await checkForms('/js/run.js', /^text\/javascript/);
  assert.deepEqual(plain.body, readFileSync(join(ROOT, 'www/js/run.js')));
  assert.equal(plain.headers['cache-control'], 'no-cache', 'revalidated, so a new version shows at once');
  const tiny = await raw('/favicon.svg', { 'Accept-Encoding': 'gzip' });
  assert.equal(tiny.status, 200);
});

test('a_runs_etag_changes_while_it_runs_and_stops_once_finished', async () => {
  // The run is looked at while the device's worker is held (SIGSTOP), so
  // what it holds cannot move under the look: queued, then running with a
  // result or more, then finished. Events, not the clock, say when to look.
  const worker = lab.workerPid();
  const finished = (r) => ['done', 'failed', 'cancelled'].includes(r.status);
  const look = async (id) => {
    const now = await raw(`/api/runs/${id}`, { 'Accept-Encoding': 'identity' });
    const run = JSON.parse(now.body);
    if (!finished(run)) {
      assert.equal(now.headers['cache-control'], 'no-cache', 'a running run is revalidated');
      const same = await raw(`/api/runs/${id}`, { 'Accept-Encoding': 'identity', 'If-None-Match': now.headers.etag });
      assert.equal(same.status, 304, 'an unchanged running run is 304');
    }
    return { run, tag: now.headers.etag };
  };
  const held = async (what) => {
    process.kill(worker, 'SIGSTOP');
    try {
      return await what();
    } finally {
      process.kill(worker, 'SIGCONT');
    }
  };
  const [id, queued] = await held(async () => {
    const posted = (await lab.post('/runs', { experiment: 'transpose', params: { n: { from: 256, to: 2048, step: 256 } }, repeat: 3 })).json.id;
    return [posted, await look(posted)];
  });
  assert.equal(queued.run.status, 'queued');
  await lab.waitRun(id, (r) => r.progress.done >= 1);
  const running = await held(() => look(id));
  // Final once the server's predictions are made too: until then a
  // finished run still changes (predictions_pending), and is not kept.
  await lab.waitSettled(id);
  const last = await raw(`/api/runs/${id}`, { 'Accept-Encoding': 'identity' });
  const tags = new Set([queued.tag, last.headers.etag]);
  assert.equal(tags.size, 2, 'the finished run has a tag of its own');
  // Eight points on PoCL outlast the look at the first one's results.
  if (!finished(running.run)) {
    assert.ok(!tags.has(running.tag), `the tag followed the progress: ${running.run.progress.done} done`);
  }
  for (let i = 0; i < 3; i++) {
    const again = await raw(`/api/runs/${id}`, { 'Accept-Encoding': 'identity' });
    assert.equal(again.headers.etag, last.headers.etag, 'a finished run keeps its tag');
    assert.deepEqual(again.body, last.body);
  }
});
