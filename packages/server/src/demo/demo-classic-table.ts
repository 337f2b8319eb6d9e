/**
 * A table field on the demo's server-rendered pages: a plain HTML table of the rows the person
 * has, plus one new row, whose cells post as `table[row][col]` (interface.md §4.7). Text and
 * number columns start with their column `value` (its default); the classic post leaves out a
 * new row nobody touched (classic-entries.ts), so the extra row costs nothing when unused.
 */
import type { ManifestField, TableColumn } from '@svc/core';
import { escapeHtml } from './demo-html.js';
import { ENGLISH_DEMO, type DemoLanguage } from './demo-language.js';

function columnsOf(field: ManifestField): readonly TableColumn[] {
  const layout = field.config.tableLayout;
  try {
    const parsed: unknown = typeof layout === 'string' ? JSON.parse(layout) : layout;
    return Array.isArray(parsed) ? (parsed as TableColumn[]) : [];
  } catch {
    return [];
  }
}

function optionsOf(column: TableColumn): readonly string[] {
  return column.options ?? (column.value ?? '').split(';').map((o) => o.trim()).filter((o) => o !== '');
}

function cellText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

function cellControl(column: TableColumn, name: string, label: string, value: unknown, language: DemoLanguage): string {
  const common = `name="${escapeHtml(name)}" aria-label="${escapeHtml(label)}"`;
  switch (column.type) {
    case 'select': {
      const chosen = cellText(value);
      const options = optionsOf(column).map((o) => `<option value="${escapeHtml(o)}"${o === chosen ? ' selected' : ''}>${escapeHtml(o)}</option>`);
      return `<select ${common}><option value="">${escapeHtml(language.element('element.choose'))}</option>${options.join('')}</select>`;
    }
    case 'checkbox':
      return `<input type="checkbox" ${common} value="1"${value === true || value === '1' ? ' checked' : ''}>`;
    case 'file':
      return `<span>${escapeHtml(language.text('demo.tableFiles'))}</span>`;
    default:
      return `<input type="text" ${common} value="${escapeHtml(value === undefined ? (column.value ?? '') : cellText(value))}"${column.type === 'number' ? ' inputmode="decimal"' : ''}>`;
  }
}

/**
 * @example
 * renderClassicTable(manifest.fields.table, [['Widget', '2', 'M']], 'f-table');
 */
export function renderClassicTable(field: ManifestField, value: unknown, id: string, language: DemoLanguage = ENGLISH_DEMO): string {
  const columns = columnsOf(field);
  const rows: unknown[][] = Array.isArray(value) ? value.map((row) => (Array.isArray(row) ? row : [])) : [];
  const maxRows = typeof field.config.maxRows === 'number' ? field.config.maxRows : Infinity;
  if (rows.length < maxRows) rows.push([]);
  const head = columns.map((c) => `<th scope="col">${escapeHtml(c.label)}</th>`).join('');
  const body = rows.map((row, r) =>
    `<tr>${columns.map((c, i) => `<td>${cellControl(c, `${field.handle}[${r}][${i}]`, language.text('demo.tableCell', { column: c.label, row: r + 1 }), row[i], language)}</td>`).join('')}</tr>`,
  );
  return `<table class="table" id="${id}"><thead><tr>${head}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}
