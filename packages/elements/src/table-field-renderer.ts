/**
 * A table field: one row of inputs per answer row, an "add row" button up to `maxRows` and a
 * remove button per row. The value is a list of rows, each a list of cells in column order,
 * the JSON shape @svc/core's table type reads. Blank rows are dropped by the core, so an
 * untouched first row is not an answer. A `file` column gets a file input per cell; its files
 * travel with the next submit as `files[table][row][col][]` (session.setCellFiles).
 */
import { formatMessage } from '@svc/core';
import { h } from './dom-builder.js';
import { acceptOf } from './file-field-renderer.js';
import { configNumber, listOf, textOf, type ControlView, type FieldRenderContext } from './field-view.js';

interface Column {
  readonly label: string;
  readonly type: string;
  readonly value: string;
  readonly options: readonly string[];
  readonly required: boolean;
  readonly fileKinds: unknown;
  readonly fileCount: number;
}

type Cell = string | boolean | string[];

/** `columns` when the manifest has them; otherwise interface.md's `tableLayout` JSON text. */
function columnsOf(config: Readonly<Record<string, unknown>>, language: string): Column[] {
  let raw: unknown = config.columns;
  if (!Array.isArray(raw) && typeof config.tableLayout === 'string') {
    try {
      raw = JSON.parse(config.tableLayout);
    } catch {
      raw = [];
    }
  }
  if (!Array.isArray(raw)) return [];
  return raw.map((c: Record<string, unknown>, i) => {
    const value = textOf(c.value);
    const options = Array.isArray(c.options) ? c.options.map(textOf) : value.split(';').map((o) => o.trim()).filter((o) => o !== '');
    const fileCount = typeof c.fileCount === 'number' && Number.isFinite(c.fileCount) ? c.fileCount : 1;
    return { label: textOf(c.label) || formatMessage(language, 'field.column', { number: i + 1 }), type: textOf(c.type) || 'string', value, options, required: c.required === true, fileKinds: c.fileKinds, fileCount };
  });
}

function cellControl(column: Column, value: unknown, label: string, language: string): HTMLInputElement | HTMLSelectElement | HTMLElement {
  switch (column.type) {
    case 'select':
      return h(
        'select',
        { 'aria-label': label, required: column.required },
        h('option', { value: '' }, formatMessage(language, 'element.choose')),
        column.options.map((o) => h('option', { value: o, selected: textOf(value) === o }, o)),
      );
    case 'checkbox':
      return h('input', { type: 'checkbox', 'aria-label': label, checked: value === true || value === '1' || value === column.value && column.value !== '' });
    // A text or number column's `value` is its default: a new row starts with it filled in, so it
    // is submitted as shown (as a placeholder it looked filled in and was sent empty).
    case 'number':
      return h('input', { type: 'text', inputmode: 'decimal', 'aria-label': label, value: textOf(value ?? column.value), required: column.required });
    case 'file': {
      // Ids already stored for the cell (a resumed draft, a page revisited) are kept in the value.
      const input = h('input', { type: 'file', 'aria-label': label, multiple: column.fileCount > 1, accept: acceptOf(column.fileKinds) });
      input.dataset.ids = JSON.stringify(listOf(value));
      return input;
    }
    default:
      return h('input', { type: 'text', 'aria-label': label, value: textOf(value ?? column.value), required: column.required });
  }
}

export function renderTable(ctx: FieldRenderContext): ControlView {
  const { field } = ctx;
  const { language } = ctx.session;
  const columns = columnsOf(field.config, language);
  const maxRows = configNumber(field, 'maxRows');
  const addLabel = textOf(field.config.addButtonLabel) || formatMessage(language, 'element.addRow');
  const removeLabel = textOf(field.config.removeButtonLabel) || formatMessage(language, 'element.remove');
  const tbody = h('tbody');
  const add = h('button', { type: 'button', part: 'add-row', class: 'secondary' }, addLabel);

  const read = (): Cell[][] =>
    Array.from(tbody.rows).map((row) =>
      columns.map((column, i) => {
        const control = row.cells[i]?.firstElementChild;
        if (control instanceof HTMLInputElement && control.type === 'file') return JSON.parse(control.dataset.ids ?? '[]') as string[];
        if (control instanceof HTMLInputElement) return column.type === 'checkbox' ? control.checked : control.value;
        if (control instanceof HTMLSelectElement) return control.value;
        return '';
      }),
    );
  // Picked files follow their row: after a remove, every cell's files are set again by position.
  const syncFiles = () => {
    if (!columns.some((c) => c.type === 'file')) return;
    for (const entry of [...ctx.session.cellFiles.values()]) {
      if (entry.handle === field.handle) ctx.session.setCellFiles(field.handle, entry.row, entry.column, []);
    }
    Array.from(tbody.rows).forEach((row, r) => {
      columns.forEach((column, i) => {
        const control = row.cells[i]?.firstElementChild;
        if (column.type === 'file' && control instanceof HTMLInputElement) ctx.session.setCellFiles(field.handle, r, i, Array.from(control.files ?? []));
      });
    });
  };
  const renumber = () => {
    Array.from(tbody.rows).forEach((row, r) => {
      columns.forEach((column, i) => row.cells[i]?.firstElementChild?.setAttribute('aria-label', `${column.label}, row ${r + 1}`));
      row.querySelector('button')?.setAttribute('aria-label', `${removeLabel} row ${r + 1}`);
    });
    add.disabled = maxRows !== undefined && tbody.rows.length >= maxRows;
  };
  const addRow = (cells: readonly unknown[]) => {
    const remove = h('button', { type: 'button', part: 'remove-row', class: 'secondary' }, removeLabel);
    const row = h(
      'tr',
      {},
      columns.map((column, i) => h('td', {}, cellControl(column, cells[i], column.label, language))),
      h('td', {}, remove),
    );
    remove.addEventListener('click', () => {
      row.remove();
      renumber();
      syncFiles();
      ctx.change(read());
    });
    tbody.appendChild(row);
    renumber();
  };
  const rows = Array.isArray(ctx.value) ? (ctx.value as unknown[]) : [];
  for (const row of rows) addRow(Array.isArray(row) ? row : []);
  if (rows.length === 0) addRow([]);
  tbody.addEventListener('input', () => ctx.change(read()));
  tbody.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'file') syncFiles();
    ctx.change(read());
  });
  add.addEventListener('click', () => {
    addRow([]);
    ctx.change(read());
    (tbody.rows[tbody.rows.length - 1]?.cells[0]?.firstElementChild as HTMLElement | null)?.focus();
  });
  const table = h(
    'table',
    { part: 'table' },
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c.label)), h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, formatMessage(language, 'element.actions'))))),
    tbody,
  );
  return {
    layout: 'group',
    body: h('div', { class: 'table-wrap' }, table, add),
    described: [],
    focusTarget: () => (tbody.querySelector('input, select') as HTMLElement | null) ?? add,
  };
}
