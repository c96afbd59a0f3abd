// "Your own experiment" on the home page: paste or upload OpenCL or CUDA
// kernels, and the server reads their signatures (POST /api/sources/scan)
// and drafts the experiment — a variant per kernel, buffers, scalars, the
// arguments in order, params, launch and check — into small tables for the
// person to correct; the estimate (POST /api/runs/estimate) as the lesson
// form shows it; Queue posts the request (POST /api/runs) and goes to the
// run's page, or shows the server's error next to the field it names. The
// page drafts nothing itself and sends what was typed as typed. "Run
// again" of an own run fills it from the run's request.definition.
import { postJSON } from './api.js';
import { Estimate } from './estimate.js';
import { fieldCandidates, numberOrText, queueFrom, TOKEN_KEY } from './form.js';
import { el } from './format.js';
import { codeEditor } from './kernels.js';
import { definitionOf, formField, keptNames, ownWords, rowsOf, sweepsOf } from './own_definition.js';
import { clearNear, RowTable, showNear } from './own_tables.js';

const TYPES = ['float', 'float2', 'float4', 'double', 'double2', 'int', 'int2', 'int4', 'uint', 'uint4', 'char', 'uchar', 'short', 'ushort', 'long', 'ulong'];
const INITS = ['random', 'random:0:1', 'random_int:0:255', 'zeros', 'index', 'constant:1', 'permutation', 'csr_rows:8', 'csr_cols:64'];

// A labelled one-line field answering to the server's name for it.
function textField(id, field, label, { hint = '', size = 'm', value = '', placeholder = '' } = {}) {
  return el('div', { class: 'field', 'data-field': field },
    el('label', { for: id }, `${label} `),
    el('input', { id, name: id, type: 'text', class: `cell-${size}`, 'data-field': field, value, placeholder: placeholder || null, spellcheck: 'false', autocomplete: 'off' }),
    hint ? el('small', { class: 'hint' }, ` ${hint}`) : null,
    el('p', { class: 'field-error', role: 'alert' }));
}

function selectField(id, field, label, options) {
  return el('div', { class: 'field', 'data-field': field },
    el('label', { for: id }, `${label} `),
    el('select', { id, name: id, 'data-field': field }, options.map(([v, t]) => el('option', { value: v }, t))),
    el('p', { class: 'field-error', role: 'alert' }));
}

function group(legend, field, intro, ...body) {
  return el('fieldset', { class: 'field', 'data-field': field }, el('legend', {}, legend),
    intro ? el('p', { class: 'hint' }, intro) : null, ...body, el('p', { class: 'field-error', role: 'alert' }));
}

export class OwnForm {
  // container: where the form goes; catalog: GET /api/experiments (its
  // defaults); devices: GET /api/devices's list.
  constructor(container, { catalog, devices }) {
    this.defaults = catalog.defaults;
    this.scanned = null;
    this.form = el('form', { id: 'own-form', class: 'run-form own-form', novalidate: true });
    container.replaceChildren(this.form);
    this.build(devices);
  }

  build(devices) {
    const kernels = () => (this.scanned ? this.scanned.kernels.map((k) => [k.name, k.name]) : []);
    const change = () => this.estimateSoon();
    this.tables = {
      variants: new RowTable({
        title: 'variants', noun: 'variant', field: (i) => `experiment.variants[${i}]`, add: 'Add a variant',
        columns: [{ key: 'id', label: 'id', size: 's' }, { key: 'kernel', label: 'kernel', kind: 'select', options: kernels },
          { key: 'global', label: 'global (its own)', field: 'host.global', placeholder: 'as the experiment', size: 'm' },
          { key: 'args', label: 'arguments (its own)', field: 'host.args', placeholder: 'as the experiment', size: 'l' }],
        blank: () => ({ id: `v${this.tables.variants.values().length + 1}`, kernel: kernels()[0]?.[0] || '' }),
      }, change),
      params: new RowTable({
        title: 'parameters', noun: 'param', field: (i) => `experiment.params[${i}]`, add: 'Add a parameter',
        columns: [{ key: 'name', label: 'name', size: 's' }, { key: 'min', label: 'min', size: 's' }, { key: 'max', label: 'max', size: 's' },
          { key: 'default', label: 'default', size: 's' }, { key: 'multiple_of', label: 'multiple of', size: 's' },
          { key: 'pow2', label: 'power of two', kind: 'check' }, { key: 'define', label: '-D', kind: 'check' },
          { key: 'sweep', label: 'values to sweep', placeholder: 'the default', size: 'l' }],
        blank: () => ({ name: '', min: 1, max: 1024, default: 1 }),
      }, change),
      buffers: new RowTable({
        title: 'buffers', noun: 'buffer', field: (i) => `experiment.buffers[${i}]`, add: 'Add a buffer',
        columns: [{ key: 'name', label: 'name', size: 's' }, { key: 'type', label: 'type', list: 'own-types', size: 's' },
          { key: 'count', label: 'count (elements)', size: 'm' }, { key: 'init', label: 'init', list: 'own-inits', placeholder: 'none: output only', size: 'm' },
          { key: 'output', label: 'output', kind: 'check' }],
        blank: () => ({ name: '', type: 'float', count: 'n', init: 'random' }),
      }, change),
      scalars: new RowTable({
        title: 'scalars', noun: 'scalar', field: (i) => `experiment.scalars[${i}]`, add: 'Add a scalar',
        columns: [{ key: 'name', label: 'name', size: 's' }, { key: 'type', label: 'type', list: 'own-types', size: 's' }, { key: 'value', label: 'value', size: 'm' }],
        blank: () => ({ name: '', type: 'float', value: '1' }),
      }, change),
      args: new RowTable({
        title: 'arguments', noun: 'argument', field: (i) => `experiment.host.args[${i}]`, add: 'Add an argument', order: true,
        columns: [{ key: 'kind', label: 'passes', kind: 'select', options: () => [['value', 'a buffer, scalar or expression'], ['local', 'local memory (bytes)']] },
          { key: 'value', label: 'what', field: '', list: 'own-names', size: 'm' }],
        info: (i) => this.paramInfo(i), infoTitle: 'the kernel\'s parameter',
        blank: () => ({ kind: 'value', value: 'n' }),
      }, change),
    };
    this.editor = codeEditor('own-source', 'experiment.source', 'your kernels\' source');
    this.form.append(
      el('datalist', { id: 'own-types' }, TYPES.map((t) => el('option', { value: t }))),
      el('datalist', { id: 'own-inits' }, INITS.map((t) => el('option', { value: t }))),
      el('datalist', { id: 'own-names' }),
      group('Source', 'experiment.source', 'OpenCL C (__kernel functions) or CUDA (extern "C" __global__ functions), up to 64 KiB. The server reads the kernels\' signatures and drafts the experiment below; nothing is compiled until it runs.',
        el('div', { class: 'row' },
          selectField('own-language', 'language', 'Language', [['opencl', 'OpenCL'], ['cuda', 'CUDA']]),
          el('p', { class: 'actions' },
            el('label', { class: 'button upload' }, 'Upload a source file', el('input', { type: 'file', accept: '.cl,.cu,.txt,text/plain', class: 'file', hidden: true })),
            el('button', { type: 'button', class: 'read' }, 'Read its kernels'))),
        this.editor,
        el('p', { class: 'scan-said', role: 'status' }),
        el('ul', { class: 'scan-notes' })),
      el('div', { class: 'draft', hidden: true },
        el('div', { class: 'row field', 'data-field': 'experiment' },
          textField('own-id', 'experiment.id', 'Id', { size: 's', hint: 'a-z, 0-9, _' }),
          textField('own-title', 'experiment.title', 'Title', { size: 'l' }),
          el('p', { class: 'field-error', role: 'alert' })),
        el('p', { class: 'kept hint', hidden: true }),
        group('Variants', 'experiment.variants', 'A variant per kernel, timed and checked alike. A variant\'s own global size or arguments (comma-separated; local:bytes for local memory) replace the experiment\'s.', this.tables.variants.root),
        group('Parameters', 'experiment.params', 'What the sizes and arguments are written in. Values to sweep: a value, a list (65536, 262144) or a range (1024..65536 ×2, 1024..4096 +1024); empty: the default. -D: also passed to the build as -D NAME=value.', this.tables.params.root),
        group('Buffers', 'experiment.buffers', 'Device memory the kernels take, count in elements over the parameters. Init: how it is filled before each launch (none: an output only, poisoned so an unwritten element fails the check). Output: checked after each launch.', this.tables.buffers.root),
        group('Scalars', 'experiment.scalars', 'Values passed by value: a float\'s value is a number, an integer\'s an expression over the parameters.', this.tables.scalars.root),
        group('Launch and arguments', 'experiment.host', 'The work-items per dimension and the work-group (comma-separated for two dimensions; no work-group: the driver chooses), and the kernels\' arguments in order.',
          el('div', { class: 'row' },
            textField('own-global', 'experiment.host.global', 'Global', { size: 's' }),
            textField('own-local', 'experiment.host.local', 'Local', { size: 's', placeholder: 'the driver\'s' })),
          this.tables.args.root),
        group('Check', 'experiment.check', 'Each variant\'s outputs against one variant\'s at the same point: a float passes within any tolerance given (none given: bit for bit); integers always exactly. None: the results say "not checked".',
          el('div', { class: 'row' },
            selectField('own-against', 'experiment.check.against', 'Against', []),
            textField('own-rel', 'experiment.check.rel', 'rel', { size: 's' }),
            textField('own-abs', 'experiment.check.abs', 'abs', { size: 's' }),
            textField('own-ulps', 'experiment.check.ulps', 'ulps', { size: 's' }))),
        el('div', { class: 'row' },
          textField('own-bytes', 'experiment.cost.bytes', 'Bytes a launch must move', { size: 'm', hint: 'optional: each input read once and each output written once' })),
        this.settings(devices),
        el('p', { class: 'form-error', role: 'alert' }),
        el('p', { class: 'cost', role: 'status', 'aria-live': 'polite' }, el('span', { class: 'cost-text' }), el('span', { class: 'cost-hint' })),
        el('button', { type: 'submit', class: 'primary' }, 'Queue run')));
    this.form.querySelector('.read').addEventListener('click', () => this.read());
    // A source pasted before there is a draft is read at once.
    this.editor.querySelector('textarea').addEventListener('paste', () => {
      if (this.form.querySelector('.draft').hidden) setTimeout(() => this.read(), 0);
    });
    this.form.querySelector('.file').addEventListener('change', (e) => this.upload(e.target.files[0]));
    this.form.addEventListener('input', () => this.estimateSoon());
    this.form.addEventListener('change', () => this.estimateSoon());
    this.form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.send();
    });
  }

  // Device, repeat, label and the token, as the lesson form has them.
  settings(devices) {
    return el('div', {},
      el('div', { class: 'row' },
        selectField('own-device', 'device', 'Device', [['auto', 'auto (a GPU if there is one)'], ['gpu', 'any GPU'], ['cpu', 'any CPU'],
          ...devices.map((d) => [d.id, `${d.name} (${d.type}${d.online ? '' : ', offline'})`])]),
        textField('own-repeat', 'repeat', 'Repeat', { size: 's', value: String(this.defaults.repeat), hint: `timed launches per point at most, 1 … ${this.defaults.repeat_max}` }),
        textField('own-label', 'label', 'Label', { size: 'l', placeholder: 'what this run is for (optional)' })),
      el('details', { class: 'token' }, el('summary', {}, 'Access token (only if this server requires one)'),
        el('input', { name: 'own-token', type: 'password', autocomplete: 'off', 'aria-label': 'access token', value: localStorage.getItem(TOKEN_KEY) || '' })));
  }

  input(id) {
    return this.form.querySelector(`#${id}`);
  }

  // The kernel parameter argument i fills, from the source as last read.
  paramInfo(i) {
    const k = this.scanned && this.scanned.kernels[0];
    const p = k && k.params[i];
    return p ? `${p.name || '(no name)'}: ${p.type}` : '';
  }

  async upload(file) {
    if (!file) return;
    this.editor.setText(await file.text());
    if (/\.cu$/i.test(file.name)) this.input('own-language').value = 'cuda';
    this.read();
  }

  // Ask the server to read the source; with replace, its draft replaces the
  // tables, else only the kernels' names and parameters are kept (run again).
  async read(replace = true) {
    const said = this.form.querySelector('.scan-said');
    clearNear(this.form);
    try {
      const scan = await postJSON('/api/sources/scan', { source: this.editor.querySelector('textarea').value, language: this.input('own-language').value });
      this.scanned = scan;
      said.textContent = scan.kernels.length
        ? `${scan.kernels.length} kernel${scan.kernels.length === 1 ? '' : 's'}: ${scan.kernels.map((k) => `${k.name} (${k.params.length} parameter${k.params.length === 1 ? '' : 's'})`).join(', ')}.${replace ? ' The tables below are a first draft from their signatures: check each, above all what the kernels read and write.' : ''}`
        : 'No kernel found in this source.';
      this.form.querySelector('.scan-notes').replaceChildren(...scan.notes.map((n) => el('li', {}, n)));
      if (replace && scan.draft) this.fill(scan.draft);
      else this.fill(definitionOf(this.values()), { params: sweepsOf(this.values()) });
    } catch (err) {
      said.textContent = '';
      this.showError(err.field === 'source' ? 'experiment.source' : err.field, err.message);
    }
  }

  // Run again: an own run's definition and settings back in the form.
  load(request) {
    this.editor.setText(request.definition.source || '');
    if (request.language) this.input('own-language').value = request.language;
    this.fill(request.definition, request);
    return this.read(false);
  }

  // Put definition def (and request's sweeps and settings) in the form.
  fill(def, request = null) {
    const f = rowsOf(def, request || {});
    this.input('own-id').value = f.id;
    this.input('own-title').value = f.title;
    if (this.editor.querySelector('textarea').value !== f.source) this.editor.setText(f.source);
    for (const [name, table] of Object.entries(this.tables)) table.set(f[name]);
    this.input('own-global').value = f.global;
    this.input('own-local').value = f.local;
    this.input('own-rel').value = f.rel;
    this.input('own-abs').value = f.abs;
    this.input('own-ulps').value = f.ulps;
    this.input('own-bytes').value = f.bytes;
    this.kept = f.kept;
    const kept = keptNames(f.kept);
    this.form.querySelector('.kept').hidden = kept.length === 0;
    this.form.querySelector('.kept').textContent = `Kept as the definition has them, and sent again: ${kept.join(', ')}.`;
    this.againstOptions(f.against);
    if (request && request.language) this.input('own-language').value = request.language;
    if (request && request.device) {
      const device = this.input('own-device');
      device.value = [...device.options].some((o) => o.value === request.device) ? request.device : 'auto';
    }
    if (request && request.repeat !== undefined) this.input('own-repeat').value = String(request.repeat);
    if (request && request.label !== undefined) this.input('own-label').value = request.label || '';
    this.form.querySelector('.draft').hidden = false;
    this.form.querySelector('.read').textContent = 'Read its kernels again (a new draft)';
    this.estimateSoon();
  }

  // The check's choices: every variant's id, and none; a variant renamed
  // stays chosen under its new id.
  againstOptions(value) {
    const select = this.input('own-against');
    const ids = this.tables.variants.values().map((v) => v.id);
    const at = [...select.options].findIndex((o) => o.value === value);
    select.replaceChildren(...ids.map((id) => el('option', { value: id }, id)), el('option', { value: 'none' }, 'none: not checked'));
    let chosen = value ?? ids[0] ?? 'none';
    if (!ids.includes(chosen) && chosen !== 'none') {
      if (at >= 0 && at < ids.length) chosen = ids[at];
      else select.append(el('option', { value: chosen }, chosen));
    }
    select.value = chosen;
    const names = this.form.querySelector('#own-names');
    names.replaceChildren(...[...this.tables.buffers.values(), ...this.tables.scalars.values(), ...this.tables.params.values()]
      .map((r) => r.name).filter(Boolean).map((n) => el('option', { value: n })));
  }

  // Every row and field as typed (own_definition.js's shape).
  values() {
    const v = (id) => this.input(id).value;
    const rows = Object.fromEntries(Object.entries(this.tables).map(([name, table]) => [name, table.values()]));
    return {
      ...rows, id: v('own-id'), title: v('own-title'), source: this.editor.querySelector('textarea').value,
      global: v('own-global'), local: v('own-local'), against: v('own-against'), rel: v('own-rel'), abs: v('own-abs'),
      ulps: v('own-ulps'), bytes: v('own-bytes'), kept: this.kept,
    };
  }

  request() {
    this.againstOptions(this.input('own-against').value);
    const f = this.values();
    const req = { experiment: definitionOf(f), params: sweepsOf(f), language: this.input('own-language').value,
      device: this.input('own-device').value, repeat: numberOrText(this.input('own-repeat').value) };
    if (this.input('own-label').value.trim() !== '') req.label = this.input('own-label').value;
    return req;
  }

  // Ask the server what the request would cost (estimate.js), once there
  // is a draft.
  estimateSoon() {
    if (this.form.querySelector('.draft').hidden) return;
    this.estimate = this.estimate || new Estimate(this.form, ownWords);
    this.estimate.soon(() => this.request());
  }

  // Put message next to the input the server's field names, trying shorter
  // names until one is in the form; the form's own line otherwise.
  showError(field, message) {
    const words = ownWords(message);
    for (const name of fieldCandidates(formField(field, this.values()))) {
      const target = this.form.querySelector(`[data-field="${CSS.escape(name)}"]`);
      if (target && target.closest('.draft[hidden]') === null) {
        showNear(target, words);
        return;
      }
    }
    const line = this.form.querySelector('.draft').hidden ? this.form.querySelector('.scan-said') : this.form.querySelector('.form-error');
    line.textContent = words;
  }

  send() {
    clearNear(this.form);
    return queueFrom(this.form, this.form.querySelector('[name=own-token]'), (r, headers) => postJSON('/api/runs', r, headers),
      () => this.request(), (f, m) => this.showError(f, m));
  }
}
