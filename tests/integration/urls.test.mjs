// The URLs people type: POST /runs queues exactly as POST /api/runs does, and
// /runs and /runs/{id} answer JSON to a client that asks for it (Accept) and
// the dashboard's pages to everyone else, with Vary: Accept (and
// Accept-Encoding: either may be gzip-compressed).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('urls');
const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
const JSON_ONLY = { Accept: 'application/json' };
let alpha;
let beta;

before(async () => {
  await lab.startServer();
  alpha = (await lab.post('/runs', { experiment: 'copy', params: { n: 4096 }, label: 'Alpha one' })).json;
  beta = (await lab.post('/runs', { experiment: 'transpose', params: { n: 256 }, label: 'beta two' })).json;
});
after(() => lab.close());

test('post_runs_queues_like_post_api_runs', async () => {
  assert.ok(alpha && Number.isInteger(alpha.id), 'POST /runs queued');
  const short = await lab.post('/runs', { experiment: 'copy', params: { n: 1024 } });
  const long = await lab.post('/api/runs', { experiment: 'copy', params: { n: 1024 } });
  assert.equal(short.status, 201, short.text);
  assert.equal(short.headers.get('location'), `/api/runs/${short.json.id}`);
  assert.equal(short.json.url, `/runs/${short.json.id}`);
  assert.equal(long.json.id, short.json.id + 1);
  for (const k of Object.keys(long.json)) if (!['id', 'url', 'api', 'created_at', 'request'].includes(k)) assert.deepEqual(short.json[k], long.json[k], k);
  const bad = await lab.post('/runs', { experiment: 'copy', params: { n: -1 } });
  const badApi = await lab.post('/api/runs', { experiment: 'copy', params: { n: -1 } });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.json, badApi.json, 'the same error, naming the field');
});

test('run_url_answers_json_when_asked_and_the_page_otherwise', async () => {
  const cases = [
    [JSON_ONLY, 'json'],
    [{ Accept: 'application/json, text/html;q=0.5' }, 'json'],
    [{ Accept: 'text/html;q=0.5, application/json' }, 'json'],
    [{ Accept: 'application/*' }, 'json'],
    [{ Accept: '*/*' }, 'html'],
    [{ Accept: BROWSER }, 'html'],
    [{ Accept: 'text/html, application/json;q=0.9' }, 'html'],
    [{ Accept: 'application/*, application/json;q=0' }, 'html'],
    [{}, 'html'],
  ];
  for (const [headers, want] of cases) {
    const res = await lab.get(`/runs/${alpha.id}`, { headers });
    assert.equal(res.status, 200, `${headers.Accept}: ${res.text.slice(0, 200)}`);
    assert.equal(res.headers.get('vary'), 'Accept, Accept-Encoding', headers.Accept);
    if (want === 'json') {
      assert.match(res.headers.get('content-type'), /^application\/json/, headers.Accept);
      assert.equal(res.json.id, alpha.id);
      assert.deepEqual(res.json, (await lab.get(`/api/runs/${alpha.id}`)).json, 'the same JSON as /api');
    } else {
      assert.match(res.headers.get('content-type'), /^text\/html/, headers.Accept);
      assert.match(res.text, /<script type="module" src="\/js\/run.js">/);
    }
  }
});

test('missing_runs_are_404_in_the_form_asked_for', async () => {
  const json = await lab.get('/runs/99999', { headers: JSON_ONLY });
  assert.equal(json.status, 404);
  assert.equal(json.json.error.code, 'not_found');
  const page = await lab.get('/runs/99999', { headers: { Accept: BROWSER } });
  assert.equal(page.status, 404);
  assert.match(page.headers.get('content-type'), /^text\/html/);
});

test('wrong_methods_are_405_with_allow', async () => {
  const put = await lab.request('PUT', `/runs/${alpha.id}`, { body: {} });
  assert.equal(put.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, HEAD');
  const del = await lab.request('DELETE', '/runs');
  assert.equal(del.status, 405);
  assert.equal(del.headers.get('allow'), 'GET, HEAD, POST');
  assert.equal(del.json.error.code, 'method_not_allowed');
});

test('runs_list_filters_by_label_and_pages_as_json', async () => {
  const page = await lab.get('/runs', { headers: { Accept: BROWSER } });
  assert.equal(page.status, 200);
  assert.match(page.text, /src="\/js\/runs.js"/);
  assert.equal(page.headers.get('vary'), 'Accept, Accept-Encoding');
  const all = await lab.get('/runs', { headers: JSON_ONLY });
  assert.equal(all.headers.get('vary'), 'Accept, Accept-Encoding');
  assert.deepEqual(all.json, (await lab.get('/api/runs')).json);
  const found = await lab.get('/runs?label=ALPHA', { headers: JSON_ONLY });
  assert.deepEqual(found.json.runs.map((r) => r.id), [alpha.id], 'any case, a part of the label');
  const both = await lab.get('/runs?label=o&limit=1', { headers: JSON_ONLY });
  assert.deepEqual(both.json.runs.map((r) => r.id), [beta.id]);
  assert.equal(both.json.next, `/api/runs?before=${beta.id}&limit=1&label=o`);
  const rest = await lab.get(both.json.next, { headers: JSON_ONLY });
  assert.deepEqual(rest.json.runs.map((r) => r.id), [alpha.id]);
  const spaced = await lab.get(`/runs?label=${encodeURIComponent('a two')}&limit=1`, { headers: JSON_ONLY });
  assert.deepEqual(spaced.json.runs.map((r) => r.id), [beta.id]);
  const tooLong = await lab.get(`/runs?label=${'x'.repeat(201)}`, { headers: JSON_ONLY });
  assert.equal(tooLong.status, 400);
  assert.equal(tooLong.json.error.field, 'label');
  const none = await lab.get('/runs?experiment=copy&label=beta', { headers: JSON_ONLY });
  assert.deepEqual(none.json.runs, []);
});

test('views_below_a_run_answer_under_the_short_url', async () => {
  const csv = await lab.get(`/runs/${beta.id}/results.csv`);
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get('content-type'), /^text\/csv/);
  assert.equal(csv.text, (await lab.get(`/api/runs/${beta.id}/results.csv`)).text);
});
