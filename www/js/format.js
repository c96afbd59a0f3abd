// Number, size and time formatting shared by the pages. The pages render what
// the API returns; these only decide how it reads.

// A plain number with digits significant digits; whole numbers at and above
// 10^digits (1300, never 1.30e+3); exponents only for the tiny.
// A count and its noun, agreeing as written: "1 sector", "4 sectors",
// "1.5 lines".
export function fmtCountOf(v, noun) {
  const n = fmtNumber(v, 3);
  return `${n} ${noun}${n === '1' ? '' : 's'}`;
}

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

// The unit and the decimals a column of times (in ms) reads in, chosen once
// for all its values so the column reads alike: the smallest unit in which
// the longest time, as written, stays under 1000 (so never "1000 µs": that
// is 1.000 ms), and the decimals that give the shortest time above 0 three
// significant digits (at most four decimals; no exponent ever). A 0 or a
// missing time does not choose: it reads "0.000 ms" beside its column.
const TIME_UNITS = [{ name: 'µs', scale: 1000 }, { name: 'ms', scale: 1 }, { name: 's', scale: 0.001 }];
const TIME_DIGITS = 3;
const TIME_DECIMALS_MAX = 4;

export function timeUnit(msValues) {
  const known = msValues.filter((v) => typeof v === 'number' && Number.isFinite(v) && v > 0);
  if (!known.length) return { name: 'ms', scale: 1, decimals: 0 };
  const longest = Math.max(...known);
  const shortest = Math.min(...known);
  for (const u of TIME_UNITS) {
    const lead = Math.floor(Math.log10(shortest * u.scale));
    const decimals = Math.min(TIME_DECIMALS_MAX, Math.max(0, TIME_DIGITS - 1 - lead));
    // As written, not as measured: 999.96 µs at one decimal is "1000.0".
    if (Number((longest * u.scale).toFixed(decimals)) < 1000 || u === TIME_UNITS[TIME_UNITS.length - 1])
      return { ...u, decimals };
  }
  return null; // not reached: the last unit always answers
}

// A time in ms, in unit (timeUnit's; default: the unit of this value alone).
export function fmtMs(v, unit = timeUnit([v])) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  return `${(v * unit.scale).toFixed(unit.decimals ?? 3)} ${unit.name}`;
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

// An ISO time as the reader's clock shows it ("24 Nov 2026, 23:25:29" in
// their own zone), the UTC original kept for the title; '–' for none.
export function fmtLocalTime(iso) {
  if (!iso) return null;
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  return t.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

// A count as sizes read: 64 Mi, 256 Ki (exact multiples, from 64 Ki up),
// else the number itself — the server's verdict writes them the same way.
export function fmtCount(v) {
  if (typeof v !== 'number' || !Number.isInteger(v)) return String(v);
  if (v >= 2 ** 20 && v % 2 ** 20 === 0) return `${v / 2 ** 20} Mi`;
  if (v >= 2 ** 16 && v % 1024 === 0) return `${v / 1024} Ki`;
  return String(v);
}
