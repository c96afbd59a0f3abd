// Number, size and time formatting shared by the pages. The pages render what
// the API returns; these only decide how it reads.

// A plain number with digits significant digits; whole numbers at and above
// 10^digits (1300, never 1.30e+3); exponents only for the tiny.
export function fmtNumber(v, digits = 3) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  const a = Math.abs(v);
  if (a !== 0 && a < 0.001) return v.toExponential(2);
  if (a >= 10 ** digits) return String(Math.round(v));
  return v.toPrecision(digits).replace(/\.?0+$/, (m) => (m.startsWith('.') ? '' : m));
}

// A percentage for "±": two digits below 10, whole numbers above.
export function fmtPct(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  return Math.abs(v) >= 10 ? String(Math.round(v)) : fmtNumber(v, 2);
}

// The unit a column of times (in ms) reads in, chosen for all its values so
// that none needs an exponent: µs when the shortest is under 0.1 ms, s when
// every one is 10 s or more, else ms.
export function timeUnit(msValues) {
  const known = msValues.filter((v) => v !== null && v !== undefined && !Number.isNaN(v));
  if (known.length && Math.min(...known) < 0.1) return { name: 'µs', scale: 1000 };
  if (known.length && Math.min(...known) >= 10000) return { name: 's', scale: 0.001 };
  return { name: 'ms', scale: 1 };
}

// A time in ms, in unit (timeUnit's; default: the unit of this value alone).
export function fmtMs(v, unit = timeUnit([v])) {
  if (v === null || v === undefined) return '–';
  return `${fmtNumber(v * unit.scale, 4)} ${unit.name}`;
}

export function fmtBytes(b) {
  if (b === null || b === undefined) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (b >= 1024 && i < units.length - 1) {
    b /= 1024;
    i++;
  }
  return `${b >= 100 || i === 0 ? Math.round(b) : b.toFixed(1)} ${units[i]}`;
}

export function fmtAge(iso, now = Date.now()) {
  if (!iso) return '–';
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

// Make an element with attributes and children (strings become text nodes).
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}
