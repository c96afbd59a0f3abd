// "Add your kernel" in the run form: one editor per custom kernel. Its "like"
// picks the built-in variant whose arguments, launch geometry and check it
// reuses; the editor starts from that variant's whole source (GET
// /api/experiments/{id}/variants/{v}/source), shows the exact signature the
// harness calls, and takes typed, pasted or uploaded (.cl) code. Each input
// answers to the field the server names in its errors (kernels[0].source, ...).
import { getJSON } from './api.js';
import { el } from './format.js';

// A textarea with a line-number gutter, kept in step as the text changes.
export function codeEditor(name, field, label = 'kernel source') {
  const gutter = el('pre', { class: 'gutter', 'aria-hidden': 'true' }, '1');
  const area = el('textarea', {
    name, 'data-field': field, class: 'code-input', spellcheck: 'false', wrap: 'off', rows: '18',
    autocomplete: 'off', 'aria-label': label,
  });
  const renumber = () => {
    const lines = area.value.split('\n').length;
    gutter.textContent = Array.from({ length: lines }, (_, i) => String(i + 1)).join('\n');
  };
  area.addEventListener('input', renumber);
  area.addEventListener('scroll', () => { gutter.scrollTop = area.scrollTop; });
  const box = el('div', { class: 'code-editor' }, gutter, area);
  box.setText = (text) => {
    area.value = text;
    renumber();
  };
  return box;
}

export class KernelEditor {
  // exp: the catalog's experiment; index: position in the list (for field
  // names); spec: a kernel from a request (run again) or null for a new one.
  constructor(exp, index, spec, onRemove) {
    this.exp = exp;
    this.template = '';
    const f = (key) => `kernels[${index}].${key}`;
    this.editor = codeEditor('source', f('source'));
    this.root = el('fieldset', { class: 'kernel field', 'data-field': `kernels[${index}]` },
      el('legend', {}, `Your kernel ${index + 1}`),
      el('div', { class: 'row' },
        el('div', { class: 'field', 'data-field': f('name') },
          el('label', {}, 'Name ', el('input', { name: 'name', type: 'text', class: 'kname', maxlength: '64', value: spec ? spec.name : `mine${index ? index + 1 : ''}` })),
          el('small', { class: 'hint' }, ' its column in the table; letters, digits, _'),
          el('p', { class: 'field-error', role: 'alert' })),
        el('div', { class: 'field', 'data-field': f('like') },
          el('label', {}, 'Like ', el('select', { name: 'like' }, exp.variants.map((v) => el('option', { value: v.id }, v.title)))),
          el('small', { class: 'hint' }, ' the built-in whose arguments, launch and check it reuses'),
          el('p', { class: 'field-error', role: 'alert' })),
        el('div', { class: 'field', 'data-field': f('entry') },
          el('label', {}, 'Entry ', el('input', { name: 'entry', type: 'text', class: 'kname', placeholder: 'its only __kernel', value: spec && spec.entry ? spec.entry : '' })),
          el('p', { class: 'field-error', role: 'alert' }))),
      el('p', { class: 'signature' }, 'Called as ', el('code', { class: 'sig' }), el('span', { class: 'sub launch' })),
      el('div', { class: 'field', 'data-field': f('source') },
        this.editor,
        el('p', { class: 'actions' },
          el('button', { type: 'button', class: 'template' }, 'Start again from the template'),
          el('label', { class: 'button upload' }, 'Upload a .cl file', el('input', { type: 'file', accept: '.cl,.txt,text/plain', class: 'file', hidden: true })),
          el('button', { type: 'button', class: 'remove' }, 'Remove this kernel')),
        el('p', { class: 'field-error', role: 'alert' })));
    this.like = this.root.querySelector('select[name=like]');
    this.like.value = spec ? spec.like : (exp.variants.find((v) => v.id === 'padded') || exp.variants[0]).id;
    this.like.addEventListener('change', () => this.loadTemplate(false));
    this.root.querySelector('.template').addEventListener('click', () => this.loadTemplate(true));
    this.root.querySelector('.remove').addEventListener('click', () => onRemove(this));
    this.root.querySelector('.file').addEventListener('change', (e) => this.upload(e.target.files[0]));
    if (spec) {
      this.editor.setText(spec.source);
      this.showSignature();
    } else {
      this.loadTemplate(true);
    }
  }

  showSignature() {
    const v = this.exp.variants.find((x) => x.id === this.like.value) || {};
    this.root.querySelector('.sig').textContent = v.signature || '';
    this.root.querySelector('.launch').textContent = v.launch || '';
  }

  // Put the like variant's source in the editor: always when asked, otherwise
  // only while the person has not changed the last template.
  async loadTemplate(force) {
    this.showSignature();
    const text = this.source();
    if (!force && text !== '' && text !== this.template) return;
    const like = this.like.value;
    try {
      const t = await getJSON(`/api/experiments/${this.exp.id}/variants/${like}/source`);
      if (this.like.value !== like) return;
      this.template = t.template;
      this.editor.setText(t.template);
    } catch (err) {
      this.root.querySelector('[data-field$=".source"] > .field-error').textContent = `Cannot load the template: ${err.message}`;
    }
  }

  async upload(file) {
    if (!file) return;
    this.editor.setText(await file.text());
  }

  source() {
    return this.root.querySelector('textarea').value;
  }

  // The kernel as the request carries it.
  value() {
    const k = { name: this.root.querySelector('input[name=name]').value.trim(), like: this.like.value, source: this.source() };
    const entry = this.root.querySelector('input[name=entry]').value.trim();
    if (entry) k.entry = entry;
    return k;
  }
}
