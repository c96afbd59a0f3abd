// The house's shape holds (docs/architecture.md): no C file over 600 lines, no
// function over 100, no include circle between modules, no include across the
// layering — and the build itself refuses such an include, because each room
// is compiled with the include paths of the rooms below it only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

import { structure, fileCircles, ALLOWED } from '../../bench/structure.mjs';
import { BUILD, ROOT } from './harness.mjs';

test('files_functions_and_includes_keep_to_the_architecture', () => {
  const s = structure(ROOT);
  assert.deepEqual(s.bigFiles, [], 'C files over 600 lines');
  assert.deepEqual(s.bigFunctions, [], 'functions over 100 lines');
  assert.deepEqual(s.circles, [], 'modules that include each other');
  assert.deepEqual(s.crossings, [], 'includes across the layering');
  assert.deepEqual(s.unruled, [], 'rooms without a line in ALLOWED (and the Makefile)');
});

// No circle of files by what they call, read from the build's objects: a
// header shared by two .c files hides such a circle from the includes.
test('no_file_calls_back_into_a_file_that_calls_it', () => {
  const objects = join(BUILD, 'obj');
  assert.ok(existsSync(objects), `no objects in ${objects}: the suite runs after the build`);
  assert.deepEqual(fileCircles(ROOT, objects), []);
});

// The families (runner/families/) hold buffers by role and name no device
// API: no OpenCL type, flag or call, nothing of CUDA's; the build refuses
// their includes of an API's headers (below).
test('no_family_file_names_an_opencl_or_cuda_type', () => {
  const api = /\b(cl_[a-z_]+|CL_[A-Z_]+|cl[A-Z][A-Za-z]+|CU[a-z_]*[a-zA-Z]|cu[A-Z][A-Za-z]+)\b/;
  const named = [];
  for (const f of readdirSync(join(ROOT, 'runner', 'families')).filter((n) => /\.[ch]$/.test(n))) {
    readFileSync(join(ROOT, 'runner', 'families', f), 'utf8').split('\n').forEach((line, i) => {
      const code = line.replace(/\/\*.*?\*\/|\/\/.*$/g, '');
      if (!/^\s*\*/.test(line) && api.test(code)) named.push(`${f}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(named, []);
});

// The point helpers and the run's path go through the device backend
// (runner/device/backend.h): they name no OpenCL or CUDA type or call, and
// test no language; the language picks a backend in run_plan.c's
// plan_backend alone.
test('the_language_picks_a_backend_in_one_place', () => {
  const api = /\b(cl_[a-z_]+|CL_[A-Z_]+|cl[A-Z][A-Za-z]+|CU[a-z_]*[a-zA-Z]|cu[A-Z][A-Za-z]+)\b/;
  const language = /\b(pt|plan|p|l)(->|\.)cuda\b|"(cuda|opencl)"/;
  const found = [];
  const where = { 'explain.c': 'trace' };
  for (const f of ['point.c', 'point_launch.c', 'build_records.c', 'device_rng.c', 'executor.c', 'run_plan.c', 'explain.c']) {
    let fn = '';
    readFileSync(join(ROOT, 'runner', where[f] || 'exec', f), 'utf8').split('\n').forEach((line, i) => {
      const m = /^[a-z].*\b(\w+)\(/.exec(line);
      if (m) fn = m[1];
      const code = line.replace(/\/\*.*?\*\/|\/\*.*$|\/\/.*$/g, '');
      if (/^\s*\*/.test(line)) return;
      if (f !== 'executor.c' && f !== 'run_plan.c' && f !== 'explain.c' && api.test(code)) found.push(`${f}:${i + 1}: ${line.trim()}`);
      if (language.test(code) && !(f === 'run_plan.c' && fn === 'plan_backend')) found.push(`${f}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(found, []);
});

test('the_build_refuses_an_include_across_the_layering', () => {
  const dir = mkdtempSync(join(tmpdir(), 'warplab-layers-'));
  const flags = (room) => spawnSync('make', ['-s', 'include-flags', `ROOM=${room}`], { cwd: ROOT, encoding: 'utf8' }).stdout.trim().split(/\s+/);
  // One header of each room a probe may try.
  const header = {
    common: 'error.h', store: 'store.h', catalog: 'catalog.h', model: 'ceilings.h', analysis: 'analysis.h',
    'server/http': 'http.h', 'server/api': 'api.h', server: 'server.h',
    runner: 'runner.h', 'runner/device': 'device.h', 'runner/opencl': 'cl_device.h', 'runner/cuda': 'cuda_device.h',
    'runner/exec': 'point.h', 'runner/families': 'experiments.h', 'runner/probes': 'device_facts.h',
    'runner/trace': 'trace.h', 'runner/process': 'confine.h',
  };
  try {
    for (const room of Object.keys(header)) {
      mkdirSync(join(dir, room), { recursive: true });
      for (const [other, h] of Object.entries(header)) {
        if (other === room) continue;
        const probe = join(dir, room, `probe_${other.replace(/\//g, "_")}.c`);
        writeFileSync(probe, `#include "${h}"\nint probe;\n`);
        const cc = spawnSync('cc', ['-std=c11', '-D_GNU_SOURCE', '-fsyntax-only', ...flags(room),
          ...spawnSync('pkg-config', ['--cflags', 'jansson', 'OpenCL', 'libpq'], { encoding: 'utf8' }).stdout.trim().split(/\s+/).filter(Boolean), probe],
        { cwd: ROOT, encoding: 'utf8' });
        const allowed = ALLOWED[room].includes(other);
        assert.equal(cc.status === 0, allowed, `${room}/ including ${other}/${h}: ${allowed ? 'allowed' : 'refused'} expected\n${cc.stderr}`);
        if (!allowed) assert.match(cc.stderr, new RegExp(`${h.replace('.', '\\.')}: No such file`));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
