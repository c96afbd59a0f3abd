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
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(new URL('..', import.meta.url).pathname);
export const FILE_LIMIT = 600;
export const FUNCTION_LIMIT = 100;
// Which rooms a room's files may include, besides their own.
export const ALLOWED = {
  common: [],
  store: ['common'],
  catalog: ['common'],
  model: ['common', 'catalog'],
  server: ['common', 'store', 'catalog', 'model'],
  runner: ['common', 'store', 'catalog', 'model'],
  tools: ['common', 'store', 'catalog'],
};
const ROOMS = Object.keys(ALLOWED);

function sources(root) {
  const out = [];
  for (const room of ROOMS) {
    const dir = join(root, room);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) if (/\.[ch]$/.test(name)) out.push({ room, name, text: readFileSync(join(dir, name), 'utf8') });
  }
  return out;
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

export function structure(root = ROOT) {
  const files = sources(root);
  const home = new Map(files.filter((f) => f.name.endsWith('.h')).map((f) => [f.name, f.room]));
  const stems = new Set(files.filter((f) => f.name.endsWith('.c')).map((f) => `${f.room}/${f.name.slice(0, -2)}`));
  const lines = {}; const bigFiles = []; const bigFunctions = []; const crossings = [];
  const graph = new Map();
  for (const f of files) {
    const n = f.text.split('\n').length - 1;
    lines[f.room] = (lines[f.room] || 0) + n;
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
      if (room !== f.room && !ALLOWED[f.room].includes(room)) crossings.push(`${f.room}/${f.name} includes ${room}/${base}`);
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
  return { lines, bigFiles: bigFiles.sort((a, b) => b[0] - a[0]), bigFunctions: bigFunctions.sort((a, b) => b[0] - a[0]), circles: circles(graph), crossings };
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
  if (process.argv.includes('--check') && (s.bigFiles.length || s.bigFunctions.length || s.circles.length || s.crossings.length)) process.exit(1);
}
