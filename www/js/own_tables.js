// The small editable tables of "Your own experiment" (own_form.js): a row
// per buffer, scalar, argument, param or variant, an input per cell, rows
// added, removed and (where order matters) moved. Every input answers to
// the field the server names in its errors (experiment.buffers[1].count),
// so an error is shown under its row, next to its input; the rows are
// drawn afresh after each change so the names follow the positions.
import { el } from './format.js';

// One cell's control. column: {key, label, kind: 'text' | 'check' |
// 'select', options (select: [value, text] pairs), list (a datalist's id),
// size: 's' | 'm' | 'l', field (the key the server names; default key)}.
function control(column, value, label, field) {
  const common = { 'data-field': field, 'aria-label': label, 'data-key': column.key };
  if (column.kind === 'check') return el('input', { type: 'checkbox', ...common, checked: Boolean(value) });
  if (column.kind === 'select') {
    const options = column.options();
    const known = options.some(([v]) => v === value);
    const select = el('select', common,
      options.map(([v, text]) => el('option', { value: v }, text)),
      known || value === undefined ? null : el('option', { value }, value));
    select.value = value === undefined ? options[0]?.[0] ?? '' : String(value);
    return select;
  }
  return el('input', {
    type: 'text', ...common, class: `cell-${column.size || 'm'}`, value: value === undefined || value === null ? '' : String(value),
    list: column.list || null, placeholder: column.placeholder || null, spellcheck: 'false', autocomplete: 'off',
  });
}

export class RowTable {
  // spec: {title (the table's caption), noun (a row: "buffer"), field(i)
  // (a row's field: "experiment.buffers[1]"), columns, add (the add
  // button's text), order (rows can be moved), info(i) (a read-only note
  // for row i, or null), blank() (a new row's values)}; onChange() is
  // called after rows are added, removed or moved.
  constructor(spec, onChange) {
    this.spec = spec;
    this.onChange = onChange;
    this.body = el('tbody');
    const heads = [el('th', { scope: 'col' }, '#'), ...spec.columns.map((c) => el('th', { scope: 'col' }, c.label))];
    if (spec.info) heads.push(el('th', { scope: 'col' }, spec.infoTitle));
    heads.push(el('th', { scope: 'col' }, el('span', { class: 'sr-only' }, 'Actions')));
    this.table = el('table', { class: 'grid own-grid' }, el('caption', { class: 'sr-only' }, spec.title),
      el('thead', {}, el('tr', {}, heads)), this.body);
    const add = el('button', { type: 'button', class: 'add-row' }, spec.add);
    add.addEventListener('click', () => this.set([...this.values(), spec.blank()], true));
    this.root = el('div', { class: 'own-table' },
      el('div', { class: 'scroll', tabindex: '0', role: 'region', 'aria-label': spec.title }, this.table),
      el('p', { class: 'actions' }, add));
  }

  // Draw rows (a list of {key: value}).
  set(rows, changed = false) {
    const { spec } = this;
    this.body.replaceChildren(...rows.map((row, i) => {
      const label = `${spec.noun} ${i + 1}`;
      const cells = spec.columns.map((c) => el('td', {},
        control(c, row[c.key], `${label} ${c.label}`, c.field === '' ? spec.field(i) : `${spec.field(i)}.${c.field || c.key}`)));
      const actions = el('td', { class: 'row-actions' });
      if (spec.order) {
        actions.append(this.button('↑', `move ${label} up`, i === 0, () => this.move(i, -1)),
          this.button('↓', `move ${label} down`, i === rows.length - 1, () => this.move(i, 1)));
      }
      actions.append(this.button('×', `remove ${label}`, false, () => this.set(this.values().filter((_, j) => j !== i), true)));
      const info = spec.info ? el('td', { class: 'muted info' }, spec.info(i) || '') : null;
      return el('tr', { 'data-row': String(i), 'data-field': spec.field(i) }, el('th', { scope: 'row' }, String(i + 1)), cells, info, actions);
    }));
    if (changed) this.onChange();
  }

  button(text, label, disabled, onClick) {
    const b = el('button', { type: 'button', class: 'small', 'aria-label': label, title: label, disabled }, text);
    b.addEventListener('click', onClick);
    return b;
  }

  move(i, by) {
    const rows = this.values();
    [rows[i], rows[i + by]] = [rows[i + by], rows[i]];
    this.set(rows, true);
  }

  // The rows as typed: {key: text or checked}.
  values() {
    return [...this.body.querySelectorAll(':scope > tr[data-row]')].map((tr) => {
      const row = {};
      for (const input of tr.querySelectorAll('[data-key]')) row[input.dataset.key] = input.type === 'checkbox' ? input.checked : input.value;
      return row;
    });
  }
}

// Show message under the table row that holds target (an input the error
// names), or in the field-error line of the box that holds it.
export function showNear(target, message) {
  target.classList.add('invalid');
  target.setAttribute('aria-invalid', 'true');
  const row = target.closest('tr[data-row]');
  if (row) {
    const id = `err-${Math.random().toString(36).slice(2)}`;
    row.after(el('tr', { class: 'row-error' }, el('td', { colspan: String(row.cells.length) },
      el('p', { class: 'field-error', role: 'alert', id }, message))));
    if (target.matches('input, select')) target.setAttribute('aria-describedby', id);
  } else {
    const box = target.closest('.field') || target;
    box.classList.add('invalid');
    const line = box.querySelector(':scope > .field-error');
    if (line) line.textContent = message;
  }
  target.scrollIntoView({ block: 'center' });
}

// Undo every showNear in root.
export function clearNear(root) {
  for (const tr of root.querySelectorAll('tr.row-error')) tr.remove();
  for (const p of root.querySelectorAll('.field-error, .form-error')) p.textContent = '';
  for (const e of root.querySelectorAll('.invalid')) e.classList.remove('invalid');
  for (const e of root.querySelectorAll('[aria-invalid]')) {
    e.removeAttribute('aria-invalid');
    e.removeAttribute('aria-describedby');
  }
}
