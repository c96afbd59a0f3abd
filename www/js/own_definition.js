// An experiment of one's own as the form's tables hold it, and back: the
// definition (the server's draft, or a run's request.definition) spread
// into rows of variants, params, buffers, scalars and arguments, and the
// rows read into the definition and request POST /api/runs takes — as
// typed, for the server to judge. What a definition says that the form has
// no place for (a metric, a summary, a variant's title or model) is kept
// as it was and sent again. And the server's field names as the
// form's: an error about variant 1's launch where the variant has none of
// its own belongs to the experiment's launch.
import { numberOrText } from './form.js';

// What a text cell holds, as the request carries it: "" is absent.
const given = (text) => String(text ?? '').trim() !== '';
const list = (text) => String(text || '').split(',').map((t) => t.trim()).filter((t) => t !== '');

// A param's sweep as the form writes it: "65536, 262144" (a list),
// "1024..65536 ×2" (a range that multiplies), "1024..4096 +1024" (one that
// steps), or a value.
export function sweepText(spec) {
  if (spec === undefined || spec === null) return '';
  if (Array.isArray(spec)) return spec.join(', ');
  if (typeof spec === 'object') return `${spec.from}..${spec.to} ${spec.mul !== undefined ? `×${spec.mul}` : `+${spec.step ?? 1}`}`;
  return String(spec);
}

// The sweep the text says, as the request carries it; undefined for none.
export function sweepValue(text) {
  const t = String(text || '').trim();
  if (t === '') return undefined;
  const range = t.match(/^(\S+)\s*\.\.\s*(\S+?)(?:\s+([×x*+])\s*(\S+))?$/);
  if (range) {
    const out = { from: numberOrText(range[1]), to: numberOrText(range[2]) };
    out[range[3] && range[3] !== '+' ? 'mul' : 'step'] = range[4] === undefined ? 1 : numberOrText(range[4]);
    return out;
  }
  const items = t.split(/[\s,;]+/).filter((x) => x !== '').map(numberOrText);
  return items.length === 1 ? items[0] : items;
}

// obj without the keys the form edits (null for nothing else).
function others(obj, keys) {
  const rest = Object.fromEntries(Object.entries(obj || {}).filter(([k]) => !keys.includes(k)));
  return Object.keys(rest).length ? rest : null;
}

const FORM_KEYS = ['id', 'title', 'source', 'params', 'buffers', 'scalars', 'defines', 'host', 'check', 'cost', 'variants'];
const HOST_KEYS = ['global', 'local', 'args'];

// An argument as a row: a name or expression, or local memory of bytes.
function argRow(a) {
  return a && typeof a === 'object' ? { kind: 'local', value: String(a.local ?? '') } : { kind: 'value', value: String(a ?? '') };
}

// A variant's own arguments as one text: "in, out, local:local*4, n".
function argsText(args) {
  return (args || []).map((a) => (a && typeof a === 'object' ? `local:${a.local}` : String(a))).join(', ');
}

function argsOf(text) {
  return list(text).map((t) => (t.startsWith('local:') ? { local: t.slice(6).trim() } : t));
}

// The rows and the single fields of definition def, with request's sweeps.
export function rowsOf(def, request = {}) {
  const defines = new Set(def.defines || []);
  const sweeps = request.params || {};
  const check = def.check;
  return {
    id: def.id || '', title: def.title || '', source: def.source || '',
    variants: (def.variants || []).map((v) => ({
      id: v.id, kernel: v.kernel, global: ((v.host || {}).global || []).join(', '),
      args: (v.host || {}).args ? argsText(v.host.args) : '',
    })),
    params: (def.params || []).map((p) => ({
      name: p.name, min: p.min, max: p.max, default: p.default, multiple_of: p.multiple_of ?? '',
      pow2: Boolean(p.pow2), define: defines.has(p.name), sweep: sweepText(sweeps[p.name]),
    })),
    buffers: (def.buffers || []).map((b) => ({ name: b.name, type: b.type, count: b.count, init: b.init || '', output: Boolean(b.output) })),
    scalars: (def.scalars || []).map((s) => ({ name: s.name, type: s.type, value: s.value })),
    args: ((def.host || {}).args || []).map(argRow),
    global: ((def.host || {}).global || []).join(', '),
    local: ((def.host || {}).local || []).join(', '),
    against: check && typeof check === 'object' ? check.against : 'none',
    rel: check && check.rel !== undefined ? String(check.rel) : '',
    abs: check && check.abs !== undefined ? String(check.abs) : '',
    ulps: check && check.ulps !== undefined ? String(check.ulps) : '',
    bytes: def.cost && def.cost.bytes !== undefined ? String(def.cost.bytes) : '',
    kept: {
      experiment: others(def, FORM_KEYS), host: others(def.host, HOST_KEYS), cost: others(def.cost, ['bytes']),
      variants: Object.fromEntries((def.variants || []).map((v) => [v.id, {
        ...others(v, ['id', 'kernel', 'host']), host: others(v.host, ['global', 'args']) }])),
    },
  };
}

// The names of what f.kept holds, for the form to say it keeps them.
export function keptNames(kept) {
  const names = [...Object.keys(kept.experiment || {}), ...Object.keys(kept.host || {}).map((k) => `host.${k}`),
    ...Object.keys(kept.cost || {}).map((k) => `cost.${k}`)];
  for (const [id, v] of Object.entries(kept.variants || {})) {
    for (const k of Object.keys(v)) if (v[k] !== null) names.push(k === 'host' ? Object.keys(v.host).map((h) => `${id}'s host.${h}`).join(', ') : `${id}'s ${k}`);
  }
  return names;
}

// The definition the rows and fields f say (rowsOf's shape).
export function definitionOf(f) {
  const kept = f.kept || {};
  const def = { id: f.id.trim(), title: f.title, source: f.source, ...kept.experiment };
  def.params = f.params.map((p) => {
    const out = { name: p.name.trim(), type: 'int', min: numberOrText(p.min), max: numberOrText(p.max), default: numberOrText(p.default) };
    if (given(p.multiple_of)) out.multiple_of = numberOrText(p.multiple_of);
    if (p.pow2) out.pow2 = true;
    return out;
  });
  def.buffers = f.buffers.map((b) => {
    const out = { name: b.name.trim(), type: b.type.trim(), count: b.count.trim() };
    if (given(b.init)) out.init = b.init.trim();
    if (b.output) out.output = true;
    return out;
  });
  if (f.scalars.length) def.scalars = f.scalars.map((s) => ({ name: s.name.trim(), type: s.type.trim(), value: s.value.trim() }));
  const defines = f.params.filter((p) => p.define).map((p) => p.name.trim());
  if (defines.length) def.defines = defines;
  def.host = { ...kept.host, global: list(f.global), args: f.args.map((a) => (a.kind === 'local' ? { local: a.value.trim() } : a.value.trim())) };
  if (given(f.local)) def.host.local = list(f.local);
  if (given(f.bytes) || kept.cost) def.cost = { ...kept.cost };
  if (given(f.bytes)) def.cost.bytes = f.bytes.trim();
  if (f.against === 'none') {
    def.check = 'none';
  } else {
    def.check = { against: f.against };
    for (const k of ['rel', 'abs', 'ulps']) if (given(f[k])) def.check[k] = numberOrText(f[k]);
  }
  def.variants = f.variants.map((v) => {
    const { host: keptHost, ...keptVariant } = (kept.variants || {})[v.id.trim()] || {};
    const out = { id: v.id.trim(), kernel: v.kernel, ...keptVariant };
    const host = { ...keptHost };
    if (given(v.global)) host.global = list(v.global);
    if (given(v.args)) host.args = argsOf(v.args);
    if (Object.keys(host).length) out.host = host;
    return out;
  });
  return def;
}

// The sweeps of rows f.params, as the request's "params".
export function sweepsOf(f) {
  const params = {};
  for (const p of f.params) {
    const v = sweepValue(p.sweep);
    if (v !== undefined && given(p.name)) params[p.name.trim()] = v;
  }
  return params;
}

// The form's name for a field the server names (f: rowsOf's shape, as typed).
export function formField(field, f) {
  const name = String(field || '');
  let m = name.match(/^experiment\.variants\[(\d+)\]\.host\.(args|global|local)(.*)$/);
  if (m) {
    const v = f.variants[Number(m[1])];
    if (m[2] !== 'local' && v && given(v[m[2]])) return `experiment.variants[${m[1]}].host.${m[2]}`;
    return `experiment.host.${m[2]}${m[2] === 'args' ? m[3] : ''}`;
  }
  m = name.match(/^params\.(\w+)/);
  if (m) {
    const i = f.params.findIndex((p) => p.name.trim() === m[1]);
    return i >= 0 ? `experiment.params[${i}].sweep` : 'experiment.params';
  }
  m = name.match(/^experiment\.defines\[(\d+)\]/);
  if (m) {
    const defined = f.params.map((p, i) => [p, i]).filter(([p]) => p.define);
    const at = defined[Number(m[1])];
    return at ? `experiment.params[${at[1]}].define` : 'experiment.params';
  }
  return name;
}

// The API's message in the form's words: "experiment.buffers[1].count" is
// buffer 2's count, "experiment.variants[0].host.args[1]" variant 1's
// argument 2; the rest as the server wrote it.
export function ownWords(message) {
  const singular = { buffers: 'buffer', scalars: 'scalar', variants: 'variant', params: 'param' };
  return String(message || '')
    .replace(/\bexperiment\.(buffers|scalars|variants|params)\[(\d+)\]/g, (_, l, i) => `${singular[l]} ${Number(i) + 1}`)
    .replace(/\b(buffer|scalar|variant|param) (\d+)\.host\.args\[(\d+)\]/g, (_, l, i, j) => `${l} ${i}'s argument ${Number(j) + 1}`)
    .replace(/\b(buffer|scalar|variant|param) (\d+)\.([\w.]+)/g, "$1 $2's $3")
    .replace(/\bexperiment\.host\.args\[(\d+)\]/g, (_, j) => `argument ${Number(j) + 1}`)
    .replace(/\bexperiment\.check\.(\w+)/g, "the check's $1")
    .replace(/\bexperiment\.(\w+)/g, "the experiment's $1")
    .replace(/\bparams\.(\w+)(\[\d+\])?/g, '$1');
}
