#!/usr/bin/env node
// The shape of warplab's C, in figures: lines per room, C files over 600
// lines, functions over 100, include circles between modules, and includes
// across the layering that docs/architecture.md draws (the Makefile's include
// paths enforce it; this says it in words). A module is a .c/.h pair of one
// folder; a header with no .c of its own (a room's private header) is not a
// module: an include of it counts as an include of what it includes.
//
//   node bench/structure.mjs           print the report
//   node bench/structure.mjs --check   and exit 1 if any limit or arrow is broken
//   node bench/structure.mjs DIR       the same for another checkout (before/after)
//
// tests/integration/structure.test.mjs imports structure() and holds the tree
// to it.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
export const FILE_LIMIT = 600;
export const FUNCTION_LIMIT = 100;
// Which rooms a room's files may include, besides their own. A folder
// inside a room is a room of its own ('runner/opencl') and needs a line here,
// as it needs one in the Makefile (INC_runner/opencl).
export const ALLOWED = {
  common: [],
  store: ['common'],
  catalog: ['common'],
  model: ['common', 'catalog'],
  analysis: ['common', 'store', 'catalog', 'model'],
  server: ['common', 'store', 'catalog', 'model', 'analysis', 'server/http', 'server/api'],
  'server/http': ['common'],
  'server/api': ['common', 'store', 'catalog', 'model', 'analysis', 'server/http'],
  'runner/device': ['common', 'catalog'],
  'runner/opencl': ['common', 'catalog', 'runner/device'],
  'runner/cuda': ['common', 'catalog', 'runner/device'],
  'runner/exec': ['common', 'store', 'catalog', 'model', 'runner/device'],
  'runner/families': ['common', 'catalog', 'runner/device', 'runner/exec'],
  'runner/probes': ['common', 'catalog', 'model', 'runner/device', 'runner/exec', 'runner/opencl', 'runner/cuda'],
  'runner/trace': ['common', 'store', 'catalog', 'model', 'runner/device', 'runner/exec', 'runner/families', 'runner/opencl'],
  'runner/process': ['common', 'store', 'catalog', 'model', 'runner', 'runner/device', 'runner/exec', 'runner/families',
    'runner/opencl', 'runner/cuda', 'runner/probes', 'runner/trace'],
  runner: ['common', 'store', 'catalog', 'model', 'runner/device', 'runner/exec', 'runner/families',
    'runner/opencl', 'runner/cuda', 'runner/probes', 'runner/trace', 'runner/process'],
  tools: ['common', 'store', 'catalog'],
};
const TOP_ROOMS = ['common', 'store', 'catalog', 'model', 'analysis', 'server', 'runner', 'tools'];

// Every .c and .h of the house with its room: the folder it is in.
function sources(root) {
  const out = [];
  const walk = (room) => {
    const dir = join(root, room);
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(`${room}/${entry.name}`);
      else if (/\.[ch]$/.test(entry.name)) out.push({ room, name: entry.name, text: readFileSync(join(dir, entry.name), 'utf8') });
    }
  };
  for (const room of TOP_ROOMS) walk(room);
  return out;
}

// The rooms the house has, each with its files' count: for the report.
export function rooms(root = ROOT) {
  const count = {};
  for (const f of sources(root)) count[f.room] = (count[f.room] || 0) + 1;
  return count;
}

// Each function body that opens with '{' in column 0, as the house style
// writes them: [name, first line, lines].
function functions(text) {
  const lines = text.split('\n');
  const out = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] !== '{') continue;
    let j = i - 1;
    while (j > 0 && !lines[j].includes('(')) j--;
    const m = lines[j].match(/(\w+)\s*\(/);
    let k = i + 1;
    while (k < lines.length && lines[k] !== '}') k++;
    out.push([m ? m[1] : lines[i - 1].trim(), j + 1, k - j + 1]);
    i = k;
  }
  return out;
}

// Strongly connected components of more than one module (Tarjan).
function circles(graph) {
  const index = new Map(); const low = new Map(); const stack = []; const on = new Set(); const found = [];
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter); low.set(v, counter); counter++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) || []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const comp = [];
      for (let w; w !== v;) { w = stack.pop(); on.delete(w); comp.push(w); }
      if (comp.length > 1) found.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

// Circles of files by what they call: an object file that uses a symbol
// another defines depends on it (nm), and a strongly connected component of
// more than one file is a circle, whatever the headers say (a header shared
// by two .c files hides one from the include graph). Read from the objects
// of a build (build/obj by default); [] where there is none to read.
export function fileCircles(root = ROOT, objDir = join(root, 'build', 'obj')) {
  const objects = [];
  const walk = (dir, rel) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name), rel ? `${rel}/${e.name}` : e.name);
      // Objects of sources that are gone (a build folder kept across a move) are not the house.
      else if (e.name.endsWith('.o') && TOP_ROOMS.includes(rel.split('/')[0]) && existsSync(join(root, rel, `${e.name.slice(0, -2)}.c`))) objects.push([join(dir, e.name), `${rel}/${e.name.slice(0, -2)}`]);
    }
  };
  walk(objDir, '');
  if (objects.length === 0) return [];
  const nm = spawnSync('nm', ['-A', ...objects.map(([p]) => p)], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (nm.status !== 0) throw new Error(`nm: ${nm.stderr}`);
  const name = new Map(objects);
  const owner = new Map(); const uses = new Map();
  for (const line of nm.stdout.split('\n')) {
    const m = /^(.*?\.o):\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$/.exec(line);
    if (!m) continue;
    const file = name.get(m[1]);
    if (!file) continue;
    if ('TDRB'.includes(m[2])) owner.set(m[3], file);
    else if (m[2] === 'U') { if (!uses.has(file)) uses.set(file, new Set()); uses.get(file).add(m[3]); }
  }
  const graph = new Map();
  for (const [file, syms] of uses) {
    const deps = new Set();
    for (const s of syms) { const o = owner.get(s); if (o && o !== file) deps.add(o); }
    graph.set(file, deps);
  }
  return circles(graph);
}

export function structure(root = ROOT) {
  const files = sources(root);
  const home = new Map(files.filter((f) => f.name.endsWith('.h')).map((f) => [f.name, f.room]));
  const stems = new Set(files.filter((f) => f.name.endsWith('.c')).map((f) => `${f.room}/${f.name.slice(0, -2)}`));
  const lines = {}; const bigFiles = []; const bigFunctions = []; const crossings = [];
  const unruled = [...new Set(files.map((f) => f.room))].filter((r) => !ALLOWED[r]).sort();
  const top = (room) => room.split('/')[0];
  const graph = new Map();
  for (const f of files) {
    const n = f.text.split('\n').length - 1;
    lines[top(f.room)] = (lines[top(f.room)] || 0) + n;
    if (f.name.endsWith('.c') && n > FILE_LIMIT) bigFiles.push([n, `${f.room}/${f.name}`]);
    for (const [name, line, length] of functions(f.text)) if (length > FUNCTION_LIMIT) bigFunctions.push([length, `${f.room}/${f.name}:${line} ${name}`]);
    const module = `${f.room}/${f.name.slice(0, -2)}`;
    for (const m of f.text.matchAll(/^\s*#\s*include\s+"([^"]+)"/gm)) {
      const base = m[1].split('/').pop();
      const room = home.get(base);
      if (!room) continue;
      const target = `${room}/${base.slice(0, -2)}`;
      if (target !== module) {
        if (!graph.has(module)) graph.set(module, new Set());
        graph.get(module).add(target);
      }
      if (room !== f.room && !(ALLOWED[f.room] || []).includes(room)) crossings.push(`${f.room}/${f.name} includes ${room}/${base}`);
    }
  }
  // Headers without a .c pass their includes through to whoever includes them.
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((s) => [...s])]);
  for (const header of [...nodes].sort()) {
    if (stems.has(header)) continue;
    const through = graph.get(header) || new Set();
    graph.delete(header);
    for (const [module, deps] of graph) if (deps.delete(header)) for (const t of through) if (t !== module) deps.add(t);
  }
  return { lines, bigFiles: bigFiles.sort((a, b) => b[0] - a[0]), bigFunctions: bigFunctions.sort((a, b) => b[0] - a[0]), circles: circles(graph), crossings, unruled };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const s = structure(dir ? resolve(dir) : ROOT);
  console.log(`lines per room: ${Object.entries(s.lines).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  console.log(`C files over ${FILE_LIMIT} lines: ${s.bigFiles.length}`);
  for (const [n, p] of s.bigFiles) console.log(`  ${String(n).padStart(5)} ${p}`);
  console.log(`functions over ${FUNCTION_LIMIT} lines: ${s.bigFunctions.length}`);
  for (const [n, p] of s.bigFunctions) console.log(`  ${String(n).padStart(5)} ${p}`);
  console.log(`module include circles: ${s.circles.length}`);
  for (const c of s.circles) console.log(`  ${c.join(' <-> ')}`);
  console.log(`includes across the layering: ${s.crossings.length}`);
  for (const c of s.crossings) console.log(`  ${c}`);
  console.log(`rooms without a rule: ${s.unruled.length}`);
  for (const r of s.unruled) console.log(`  ${r}`);
  const fc = fileCircles(dir ? resolve(dir) : ROOT);
  console.log(`circles of files by their calls (build/obj): ${fc.length}`);
  for (const c of fc) console.log(`  ${c.join(' <-> ')}`);
  if (process.argv.includes('--check') && (s.bigFiles.length || s.bigFunctions.length || s.circles.length || s.crossings.length || s.unruled.length || fc.length)) process.exit(1);
}
