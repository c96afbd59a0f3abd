// Deployment: `make install PREFIX DESTDIR` lays out binaries, dashboard,
// kernels, config, sysusers entry and units where systemd looks; the units
// pass `systemd-analyze verify`, and their exposure under `systemd-analyze
// security --offline` stays at or under 2.0 (server) and 4.0 (runner).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';

import { BUILD, Lab, ROOT } from './harness.mjs';

const lab = new Lab('deploy');
const dest = join(lab.dir, 'root');
after(() => lab.close());

function install(prefix) {
  return execFileSync('make', ['-s', 'install', `PREFIX=${prefix}`, `DESTDIR=${dest}`, `BUILD=${BUILD}`],
    { cwd: ROOT, env: { ...process.env, MAKEFLAGS: '' } }).toString();
}

test('make_install_lays_out_every_part', () => {
  install('/usr/local');
  for (const path of ['usr/local/bin/warplab-server', 'usr/local/bin/warplab-runner']) {
    assert.ok(statSync(join(dest, path)).mode & 0o111, `${path} is executable`);
  }
  for (const path of ['usr/local/share/warplab/www/index.html', 'usr/local/share/warplab/www/vendor/chart.umd.js',
    'usr/local/share/warplab/kernels/catalog.json', 'usr/local/share/warplab/kernels/transpose.cl',
    'usr/local/share/doc/warplab/operations.md', 'etc/warplab/warplab.conf', 'etc/sysusers.d/warplab.conf',
    'etc/systemd/system/warplab-server.service', 'etc/systemd/system/warplab-runner.service']) {
    assert.ok(existsSync(join(dest, path)), path);
  }
  const conf = readFileSync(join(dest, 'etc/warplab/warplab.conf'), 'utf8');
  assert.match(conf, /^db = \/var\/lib\/warplab\/warplab\.db$/m);
  assert.match(conf, /^catalog = \/usr\/local\/share\/warplab\/kernels\/catalog\.json$/m);
  assert.doesNotMatch(conf, /@[A-Z]+@/, 'every placeholder filled');
  assert.match(readFileSync(join(dest, 'etc/sysusers.d/warplab.conf'), 'utf8'), /^u warplab - .* \/var\/lib\/warplab$/m);
  const unit = readFileSync(join(dest, 'etc/systemd/system/warplab-server.service'), 'utf8');
  assert.match(unit, /^ExecStart=\/usr\/local\/bin\/warplab-server --config \/etc\/warplab\/warplab\.conf$/m);
  assert.match(unit, /^StateDirectory=warplab$/m);
});

test('installing_again_keeps_the_operators_config', () => {
  const conf = join(dest, 'etc/warplab/warplab.conf');
  writeFileSync(conf, 'listen = 0.0.0.0:8080\n');
  const out = install('/usr/local');
  assert.equal(readFileSync(conf, 'utf8'), 'listen = 0.0.0.0:8080\n');
  assert.ok(existsSync(`${conf}.new`));
  assert.match(out, /kept \/etc\/warplab\/warplab\.conf/);
});

test('prefix_usr_puts_units_where_packages_do', () => {
  install('/usr');
  assert.ok(existsSync(join(dest, 'usr/lib/systemd/system/warplab-runner.service')));
  assert.ok(existsSync(join(dest, 'usr/lib/sysusers.d/warplab.conf')));
});

test('the_installed_tree_serves_the_dashboard', async () => {
  const share = join(dest, 'usr/local/share/warplab');
  await lab.startServer(['--www', join(share, 'www'), '--catalog', join(share, 'kernels/catalog.json')]);
  assert.equal((await lab.get('/', { raw: true })).status, 200);
  assert.equal((await lab.get('/vendor/chart.umd.js', { raw: true })).status, 200);
  assert.equal((await lab.get('/api/experiments')).json.experiments.length, 9);
});

// The units with their paths pointing at this build, so systemd can check the
// executables on this machine.
function renderedUnits() {
  const dir = join(lab.dir, 'units');
  mkdirSync(dir, { recursive: true });
  return ['server', 'runner', 'lab-runner'].map((u) => {
    const text = readFileSync(join(ROOT, `systemd/warplab-${u}.service`), 'utf8')
      .replaceAll('@BINDIR@', BUILD).replaceAll('@DOCDIR@', join(ROOT, 'docs'));
    const path = join(dir, `warplab-${u}.service`);
    writeFileSync(path, text);
    return path;
  });
}

test('units_pass_systemd_analyze_verify', () => {
  const r = spawnSync('systemd-analyze', ['verify', ...renderedUnits()], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.equal(r.stderr.trim(), '', 'no warnings');
});

test('units_are_hardened_server_2_0_runner_4_0', () => {
  const [server, runner, labRunner] = renderedUnits();
  for (const [unit, limit] of [[server, 2.0], [runner, 4.0], [labRunner, 4.0]]) {
    const r = spawnSync('systemd-analyze', ['security', '--offline=true', `--threshold=${Math.round(limit * 10)}`, unit], { encoding: 'utf8' });
    const score = Number((r.stdout.match(/Overall exposure level for \S+: ([\d.]+)/) || [])[1]);
    assert.equal(r.status, 0, `${unit}: exposure ${score} over ${limit}\n${r.stdout.slice(-2000)}`);
    assert.ok(score <= limit, `${unit}: ${score}`);
    console.log(`# ${unit.split('/').pop()}: exposure ${score} (limit ${limit})`);
  }
});
