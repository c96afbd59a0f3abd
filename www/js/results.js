// Reading a run as the API returns it, for every page: which metric it reports,
// which parameter it sweeps, and its results grouped by point. Nothing here
// recomputes a figure the server provides.

export function metricOf(exp) {
  return exp && exp.metric === 'throughput'
    ? { key: 'gops', unit: 'Gop/s', title: 'Throughput' }
    : { key: 'gbps', unit: 'GB/s', title: 'Bandwidth' };
}

// The run's parameter names in catalog order.
export function paramNames(run, exp) {
  if (exp) return Object.keys(exp.params);
  return Object.keys(run.request.params || {});
}

// The parameter the run sweeps: the first whose value changes across its
// results, else the first with a list or range in the request, else the first.
export function sweptParam(run, exp) {
  const names = paramNames(run, exp);
  const varying = names.find((k) => new Set(run.results.map((r) => r.params[k])).size > 1);
  if (varying) return varying;
  const spec = names.find((k) => typeof run.request.params[k] === 'object');
  return spec || names[0];
}

export function pointKey(params, names) {
  return names.map((k) => `${k}=${params[k]}`).join(', ');
}

// Results as rows: [{key, params, cells: {variant: result}}], in run order.
export function pointRows(run, names) {
  const rows = new Map();
  for (const r of run.results) {
    const key = pointKey(r.params, names);
    if (!rows.has(key)) rows.set(key, { key, params: r.params, cells: {} });
    rows.get(key).cells[r.variant] = r;
  }
  return [...rows.values()];
}

// Whether r's time stands, for charts and tables: it matched its check, or
// its experiment checks nothing (verified null: "not checked") and it ran.
export function timeStands(r) {
  return r.verified === true || (r.verified === null && r.median_ms !== null && r.median_ms !== undefined);
}

export function variantTitle(exp, id) {
  const v = exp && exp.variants.find((x) => x.id === id);
  return v ? v.title : id;
}

// The run's variants in its table's order — built-ins, then custom kernels —
// as the server lists them: [{id, title, custom, like}].
export function runVariants(run, exp) {
  if (Array.isArray(run.variants)) return run.variants;
  return (run.request.variants || []).map((id) => ({ id, title: variantTitle(exp, id), custom: false }));
}

// How a variant of a run reads in headers and legends.
export function variantLabel(v, exp) {
  return v.custom ? `${v.title} (custom, like ${variantTitle(exp, v.like)})` : v.title;
}

// Whether the request swept param with a multiplying range (1, 2, 4, ...).
export function isMultiplying(run, param) {
  const spec = run.request.params[param];
  return Boolean(spec && typeof spec === 'object' && !Array.isArray(spec) && spec.mul);
}
