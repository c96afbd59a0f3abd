// One config file serves both programs (/etc/warplab/warplab.conf): each
// accepts, and leaves alone, every setting the other one has, and still
// refuses a key that neither knows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { BUILD, runToEnd } from './harness.mjs';

// The settings a program's --help lists, less the command-line-only ones.
function settings(binary) {
  const out = spawnSync(join(BUILD, binary), ['--help'], { encoding: 'utf8' });
  return [...`${out.stdout}${out.stderr}`.matchAll(/^ {2}--([a-z0-9-]+)\s.*$/gm)]
    .filter((m) => !/\(internal\)/.test(m[0]))
    .map((m) => m[1])
    .filter((k) => !['config', 'help', 'version', 'test-kernels', 'test-languages', 'test-lose-context', 'test-context-stays-lost', 'trace'].includes(k));
}

test('each_program_accepts_the_others_settings_in_the_shared_config', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'warplab-config-'));
  try {
    const server = settings('warplab-server');
    const runner = settings('warplab-runner');
    assert.ok(server.includes('response-cache') && runner.includes('flush-max'), `read the settings: ${server} / ${runner}`);
    for (const [binary, others, own] of [['warplab-runner', server, runner], ['warplab-server', runner, server]]) {
      const only = others.filter((k) => !own.includes(k));
      const file = join(dir, `${binary}.conf`);
      writeFileSync(file, only.map((k) => `${k} = 1`).join('\n') + '\n');
      // A store that cannot be opened stops either program after its config is read.
      const { stderr } = await runToEnd(binary, ['--config', file, '--db', join(dir, 'no/such/dir/x.db')]);
      assert.doesNotMatch(stderr, /unknown key/, `${binary} with the other's settings (${only.join(', ')}):\n${stderr}`);
      writeFileSync(file, 'no-such-setting = 1\n');
      const bad = await runToEnd(binary, ['--config', file]);
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /unknown key 'no-such-setting'/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
