// The run form, generated from the catalog: an experiment, its variants as
// checkboxes, each parameter as a value, a list or a range (step or multiply),
// a device, repeat, noise, cache mode, energy and label, and the person's own
// kernels (kernels.js). It
// sends what the person typed as they typed it — the server validates — and
// shows the server's error next to the field the error names.
import { Estimate } from './estimate.js';
import { el } from './format.js';
import { KernelEditor } from './kernels.js';

// Where the access token typed in a form is kept for the next time.
export const TOKEN_KEY = 'warplab-token';

// Queue request() with submit(request, headers), the token typed in
// tokenInput sent and, once it worked, kept; then go to the run's page. A
// refusal is shown by showError(field, message), the form's token box
// opened where the server asks for a token.
export async function queueFrom(form, tokenInput, submit, request, showError) {
  const button = form.querySelector('button[type=submit]');
  const token = tokenInput.value.trim();
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  button.disabled = true;
  try {
    const run = await submit(request(), headers);
    if (token) localStorage.setItem(TOKEN_KEY, token);
    window.location.assign(run.url);
  } catch (err) {
    if (err.status === 401) form.querySelector('details.token').open = true;
    showError(err.field, err.message);
  } finally {
    button.disabled = false;
  }
}

// A param's spec from the catalog default or a request: its mode and texts.
function specFields(spec) {
  if (Array.isArray(spec)) return { mode: 'list', list: spec.join(', ') };
  if (spec && typeof spec === 'object') {
    return { mode: 'range', from: spec.from ?? '', to: spec.to ?? '', by: spec.mul ? 'mul' : 'step', amount: spec.mul ?? spec.step ?? 1 };
  }
  return { mode: 'value', value: spec ?? '' };
}

// A typed number, or the text itself when it is not one (the server names the error).
// A fraction as the form's percent text (0.01 -> "1").
function percent(fraction) {
  return String(+(100 * fraction).toPrecision(6));
}

export function numberOrText(text) {
  const t = String(text).trim();
  return t !== '' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(t) ? Number(t) : t;
}

function paramRow(name, def, spec) {
  const f = specFields(spec);
  const hint = [`${def.min} … ${def.max}`];
  if (def.pow2) hint.push('a power of two');
  if (def.multiple_of) hint.push(`a multiple of ${def.multiple_of}`);
  const field = (suffix) => `params.${name}${suffix}`;
  const row = el('div', { class: 'param field', 'data-field': field(''), 'data-param': name },
    el('label', { class: 'pname', for: `p-${name}-mode` }, name, def.title ? el('small', {}, ` ${def.title}`) : null),
    el('select', { id: `p-${name}-mode`, class: 'mode', 'aria-label': `${name}: value, list or range` },
      el('option', { value: 'value' }, 'value'), el('option', { value: 'list' }, 'list'), el('option', { value: 'range' }, 'range')),
    el('span', { class: 'mode-value' },
      el('input', { type: 'text', inputmode: 'numeric', name: field('.value'), 'aria-label': `${name} value`, value: String(f.value ?? '') })),
    el('span', { class: 'mode-list' },
      el('input', { type: 'text', name: field('.list'), 'aria-label': `${name} values`, placeholder: 'e.g. 256, 512, 4096', value: f.list ?? '' })),
    el('span', { class: 'mode-range' },
      'from ', el('input', { type: 'text', inputmode: 'numeric', class: 'short', name: field('.from'), 'data-field': field('.from'), 'aria-label': `${name} from`, value: String(f.from ?? '') }),
      ' to ', el('input', { type: 'text', inputmode: 'numeric', class: 'short', name: field('.to'), 'data-field': field('.to'), 'aria-label': `${name} to`, value: String(f.to ?? '') }),
      ' ', el('select', { name: field('.by'), 'aria-label': `${name} step or multiply` },
        el('option', { value: 'step' }, 'step +'), el('option', { value: 'mul' }, 'times ×')),
      ' ', el('input', { type: 'text', inputmode: 'numeric', class: 'short', name: field('.amount'), 'aria-label': `${name} step`, value: String(f.amount ?? 1) })),
    el('small', { class: 'hint' }, hint.join(', ')),
    el('p', { class: 'field-error', role: 'alert' }));
  row.querySelector('.mode').value = f.mode;
  row.querySelector(`[name="${field('.by')}"]`).value = f.by || 'step';
  // The step/multiply amount answers to the field the server names for it.
  row.querySelector(`[name="${field('.amount')}"]`).dataset.field = field(f.by === 'mul' ? '.mul' : '.step');
  row.querySelector(`[name="${field('.by')}"]`).addEventListener('change', (e) => {
    row.querySelector(`[name="${field('.amount')}"]`).dataset.field = field(e.target.value === 'mul' ? '.mul' : '.step');
  });
  const showMode = () => {
    for (const m of ['value', 'list', 'range']) row.querySelector(`.mode-${m}`).hidden = row.querySelector('.mode').value !== m;
  };
  row.querySelector('.mode').addEventListener('change', showMode);
  showMode();
  return row;
}

function readParam(row) {
  const name = row.dataset.param;
  const get = (suffix) => row.querySelector(`[name="params.${name}${suffix}"]`).value;
  const mode = row.querySelector('.mode').value;
  if (mode === 'value') return get('.value').trim() === '' ? undefined : numberOrText(get('.value'));
  if (mode === 'list') return get('.list').split(/[\s,;]+/).filter((t) => t !== '').map(numberOrText);
  const range = { from: numberOrText(get('.from')), to: numberOrText(get('.to')) };
  range[get('.by') === 'mul' ? 'mul' : 'step'] = numberOrText(get('.amount'));
  return range;
}

// "params.n.step" -> params.n.step, params.n, params; "variants[1]" -> variants[1], variants.
// The API's message in the form's words: the field it names as the form
// shows it ("params.n.step" is n's step, "kernels[0].name" your kernel 1's
// name), the rest as the server wrote it.
export function formWords(message) {
  return String(message || '')
    .replace(/\bkernels\[(\d+)\]\.(\w+)/g, (_, i, f) => `your kernel ${Number(i) + 1}'s ${f}`)
    .replace(/\bvariants\[(\d+)\]/g, (_, i) => `variant ${Number(i) + 1}`)
    .replace(/\bparams\.(\w+)\.(\w+)/g, '$1\'s $2')
    .replace(/\bparams\.(\w+)/g, '$1');
}

// The names an error's field goes by, longest first: "params.n.step",
// "params.n", "params".
export function fieldCandidates(field) {
  const out = [];
  for (let name = field; name; ) {
    out.push(name);
    if (name.endsWith(']')) name = name.replace(/\[\d+\]$/, '');
    else if (name.includes('.')) name = name.replace(/\.[^.]*$/, '');
    else name = '';
  }
  return out;
}

export class RunForm {
  // container: where the form goes; catalog: GET /api/experiments; devices:
  // GET /api/devices's list; submit(request, headers): resolves with the new
  // run or throws an ApiError.
  constructor(container, { catalog, devices, submit }) {
    this.catalog = catalog;
    this.submit = submit;
    this.form = el('form', { id: 'run-form', class: 'run-form', novalidate: true });
    container.replaceChildren(this.form);
    this.build(devices);
  }

  build(devices) {
    const exps = this.catalog.experiments;
    const { defaults } = this.catalog;
    this.form.append(
      el('div', { class: 'field', 'data-field': 'experiment' },
        el('label', { for: 'f-experiment' }, 'Experiment '),
        el('select', { id: 'f-experiment', name: 'experiment' }, exps.map((e) => el('option', { value: e.id }, `${e.id} — ${e.title}`))),
        el('p', { class: 'field-error', role: 'alert' })),
      el('fieldset', { class: 'field', 'data-field': 'variants' }, el('legend', {}, 'Variants'),
        el('div', { class: 'variants' }), el('p', { class: 'field-error', role: 'alert' })),
      el('fieldset', { class: 'field kernels', 'data-field': 'kernels', hidden: this.catalog.custom_kernels === false },
        el('legend', {}, 'Your kernels'),
        el('p', { class: 'muted' }, 'Time, verify and chart your own OpenCL kernel beside the built-in variants: it runs exactly like the variant you pick, on the same inputs, and only the code differs.'),
        el('div', { class: 'kernel-list' }),
        el('button', { type: 'button', class: 'add-kernel' }, 'Add your kernel'),
        el('p', { class: 'field-error', role: 'alert' })),
      el('fieldset', { class: 'field params', 'data-field': 'params' }, el('legend', {}, 'Parameters'),
        el('div', { class: 'param-rows' }), el('p', { class: 'field-error', role: 'alert' })),
      el('div', { class: 'row' },
        el('div', { class: 'field', 'data-field': 'device' },
          el('label', { for: 'f-device' }, 'Device '),
          el('select', { id: 'f-device', name: 'device' },
            el('option', { value: 'auto' }, 'auto (a GPU if there is one)'),
            el('option', { value: 'gpu' }, 'any GPU'), el('option', { value: 'cpu' }, 'any CPU'),
            devices.map((d) => el('option', { value: d.id }, `${d.name} (${d.type}${d.online ? '' : ', offline'})`))),
          el('p', { class: 'field-error', role: 'alert' })),
        el('div', { class: 'field', 'data-field': 'repeat' },
          el('label', { for: 'f-repeat' }, 'Repeat '),
          el('input', { id: 'f-repeat', name: 'repeat', type: 'text', inputmode: 'numeric', class: 'short', value: String(defaults.repeat) }),
          el('small', { class: 'hint' }, ` timed launches per point at most, 1 … ${defaults.repeat_max}`),
          el('p', { class: 'field-error', role: 'alert' })),
        el('div', { class: 'field', 'data-field': 'noise' },
          el('label', { for: 'f-noise' }, 'Noise ± '),
          el('input', { id: 'f-noise', name: 'noise', type: 'text', inputmode: 'decimal', class: 'short', value: percent(defaults.noise) }),
          el('small', { class: 'hint' }, ' % at 95%: sampling stops when the median is known this well'),
          el('p', { class: 'field-error', role: 'alert' })),
        el('div', { class: 'field', 'data-field': 'cache' },
          el('label', { for: 'f-cache' }, 'Cache '),
          el('select', { id: 'f-cache', name: 'cache' },
            el('option', { value: 'cold' }, 'cold (flushed before each launch: DRAM figures)'),
            el('option', { value: 'hot' }, 'hot (back to back)')),
          el('p', { class: 'field-error', role: 'alert' })),
        el('div', { class: 'field', 'data-field': 'energy' },
          el('label', { class: 'check', for: 'f-energy' }, el('input', { id: 'f-energy', name: 'energy', type: 'checkbox' }), ' Energy'),
          el('small', { class: 'hint' }, ' joules per useful byte: each variant launched for ~0.3 s more per point (NVIDIA GPUs)'),
          el('p', { class: 'field-error', role: 'alert' })),
        el('div', { class: 'field grow', 'data-field': 'label' },
          el('label', { for: 'f-label' }, 'Label '),
          el('input', { id: 'f-label', name: 'label', type: 'text', maxlength: '400', placeholder: 'what this run is for (optional)' }),
          el('p', { class: 'field-error', role: 'alert' }))),
      el('details', { class: 'token' }, el('summary', {}, 'Access token (only if this server requires one)'),
        el('input', { name: 'token', type: 'password', autocomplete: 'off', 'aria-label': 'access token', value: localStorage.getItem(TOKEN_KEY) || '' })),
      el('p', { class: 'form-error', role: 'alert' }),
      el('p', { class: 'cost', role: 'status', 'aria-live': 'polite' }, el('span', { class: 'cost-text' }), el('span', { class: 'cost-hint' })),
      el('button', { type: 'submit', class: 'primary' }, 'Queue run'));
    // What the run would cost, asked again as the form changes.
    this.form.addEventListener('input', () => this.estimateSoon());
    this.form.addEventListener('change', () => this.estimateSoon());
    this.form.experiment.addEventListener('change', () => this.select(this.form.experiment.value));
    this.form.querySelector('.add-kernel').addEventListener('click', () => this.setKernels([...this.kernelValues(), null]));
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
    this.select(exps[0].id);
  }

  // Show experiment id's variants and params, from request when given (run again).
  select(id, request = null) {
    const exp = this.catalog.experiments.find((e) => e.id === id);
    if (!exp) return;
    this.exp = exp;
    this.form.experiment.value = id;
    const chosen = new Set(request ? request.variants : exp.variants.map((v) => v.id));
    this.form.querySelector('.variants').replaceChildren(...exp.variants.map((v) =>
      el('label', { class: 'check', title: v.note || '' },
        el('input', { type: 'checkbox', name: 'variant', value: v.id, checked: chosen.has(v.id) }), ` ${v.title}`)));
    this.form.querySelector('.param-rows').replaceChildren(...Object.entries(exp.params).map(([name, def]) =>
      paramRow(name, def, request && name in request.params ? request.params[name] : def.default)));
    this.setKernels(request && request.kernels ? request.kernels : []);
    const defaults = this.catalog.defaults;
    this.form.cache.value = request && request.cache ? request.cache : exp.cache;
    this.form.energy.checked = Boolean(request && request.energy === true);
    if (!request) this.form.noise.value = percent(defaults.noise);
    if (request) {
      this.form.device.value = [...this.form.device.options].some((o) => o.value === request.device) ? request.device : 'auto';
      this.form.repeat.value = String(request.repeat ?? defaults.repeat);
      if (request.noise !== undefined) this.form.noise.value = percent(request.noise);
      this.form.label.value = request.label || '';
    }
    this.clearErrors();
    this.estimateSoon();
  }

  // Ask the server what this request would cost (estimate.js).
  estimateSoon() {
    this.estimate = this.estimate || new Estimate(this.form, formWords);
    this.estimate.soon(() => this.request());
  }

  // One editor per kernel spec (null: a new one from the template); the
  // editors are made afresh so their field names follow their positions.
  setKernels(specs) {
    this.kernels = specs.map((spec, i) => new KernelEditor(this.exp, i, spec, (gone) =>
      this.setKernels(this.kernels.filter((k) => k !== gone).map((k) => k.value()))));
    this.form.querySelector('.kernel-list').replaceChildren(...this.kernels.map((k) => k.root));
    this.form.querySelector('.add-kernel').textContent = this.kernels.length ? 'Add another kernel' : 'Add your kernel';
  }

  kernelValues() {
    return (this.kernels || []).map((k) => k.value());
  }

  request() {
    const req = { experiment: this.form.experiment.value };
    req.variants = [...this.form.querySelectorAll('input[name=variant]:checked')].map((c) => c.value);
    if (this.kernels.length) req.kernels = this.kernelValues();
    req.params = {};
    for (const row of this.form.querySelectorAll('.param')) {
      const v = readParam(row);
      if (v !== undefined) req.params[row.dataset.param] = v;
    }
    req.device = this.form.device.value;
    req.repeat = numberOrText(this.form.repeat.value);
    req.cache = this.form.cache.value;
    if (this.form.energy.checked) req.energy = true;
    {
      const noise = numberOrText(this.form.noise.value);
      req.noise = typeof noise === 'number' ? noise / 100 : noise;
    }
    if (this.form.label.value.trim() !== '') req.label = this.form.label.value;
    return req;
  }

  clearErrors() {
    for (const p of this.form.querySelectorAll('.field-error, .form-error')) p.textContent = '';
    for (const f of this.form.querySelectorAll('.invalid')) f.classList.remove('invalid');
  }

  // Put message next to the element for field ("params.n.step", "variants[1]"),
  // trying shorter names until one matches; the form's own line otherwise.
  showError(field, message) {
    for (const name of fieldCandidates(field || '')) {
      const target = this.form.querySelector(`[data-field="${CSS.escape(name)}"]`);
      if (!target) continue;
      const box = target.closest('.field') || target;
      box.classList.add('invalid');
      target.classList.add('invalid');
      box.querySelector(':scope > .field-error').textContent = formWords(message);
      target.scrollIntoView({ block: 'center' });
      return;
    }
    this.form.querySelector('.form-error').textContent = formWords(message);
  }

  send() {
    this.clearErrors();
    return queueFrom(this.form, this.form.token, this.submit, () => this.request(), (f, m) => this.showError(f, m));
  }
}
