// The request's "counters" end to end on PoCL: "on" by default and "off"
// when asked, kept in the run's request as the runner read it; anything else
// refused naming the field and the value; a run with counters off measures
// and verifies as any other and its results carry nothing of counters (on
// PoCL, an OpenCL device, no run reads any: the profiled launch itself is
// CUDA's, measured on the H100, bench/plans/counters-cost.json).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Lab } from './harness.mjs';

const lab = new Lab('counters_off');

before(async () => {
  await lab.startServer();
  await lab.startRunner();
});
after(() => lab.close());

const BODY = { experiment: 'copy', params: { n: 65536 }, variants: ['float4'], repeat: 3 };

const run = (body) => lab.postDone(body);

test('counters_are_on_by_default_and_off_when_asked', async () => {
  const on = await run(BODY);
  const off = await run({ ...BODY, counters: 'off' });
  assert.equal(on.request.counters, 'on');
  assert.equal(off.request.counters, 'off');
  for (const r of off.results) {
    assert.ok(r.verified, r.error);
    assert.ok(!r.extra || (!('counters' in r.extra) && !('counters_error' in r.extra)), JSON.stringify(r.extra));
    assert.ok(!r.counted, JSON.stringify(r.counted));
  }
  assert.equal(off.budget.counters_ms, 0, JSON.stringify(off.budget));
});

test('counters_other_than_on_or_off_are_refused_naming_the_value', async () => {
  for (const [value, shown] of [['no', "'no'"], [false, 'a boolean'], [1, 'an integer']]) {
    for (const path of ['/api/runs', '/api/runs/estimate']) {
      const res = await lab.post(path, { ...BODY, counters: value });
      assert.equal(res.status, 400, `${path} ${JSON.stringify(value)}: ${res.text}`);
      assert.equal(res.json.error.code, 'invalid_field');
      assert.equal(res.json.error.field, 'counters');
      assert.ok(res.json.error.message.startsWith(`counters: ${shown} is not allowed`), res.json.error.message);
      assert.match(res.json.error.message, /"on", the default.*"off"/);
    }
  }
});
