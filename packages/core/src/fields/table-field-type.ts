import type { FieldValue, TableColumn, TableRow } from '../form-model.js';
import { isEmptyValue } from './empty-value-check.js';
import { FIELD_MESSAGES, type FieldMessages } from './field-messages.js';
import { withDefault, type FieldTypeChecks } from './field-type-spec.js';
import { CANONICAL_DECIMAL, parseDecimal } from './number-field-type.js';
import { DEFAULT_FILE_COUNT, UPLOAD_ID } from './upload-ids.js';
import { coerceText, coerceTextList, MAX_TEXT_CHARS, parseFlag, type Coerced } from './raw-value-coercion.js';

/** Hard ceiling whatever `maxRows` says: a table is typed by a person, not generated. */
export const MAX_TABLE_ROWS = 500;

type Cell = TableRow[number];

const INDEX_KEY = /^(?:0|[1-9]\d{0,5})$/;

function isPlainObject(raw: unknown): raw is Readonly<Record<string, unknown>> {
  if (typeof raw !== 'object' || raw === null) return false;
  const prototype: unknown = Object.getPrototypeOf(raw);
  return prototype === Object.prototype || prototype === null;
}

/**
 * Position/item pairs of a JSON array or of an object keyed by index ('0', '1', …), which is
 * how classic form posts (`values[table][1][0]`) arrive. Null when it is neither.
 */
function indexedEntries(raw: unknown): [number, unknown][] | null {
  if (Array.isArray(raw)) return raw.map((item, index): [number, unknown] => [index, item]);
  if (!isPlainObject(raw)) return null;
  const entries = Object.entries(raw);
  if (!entries.every(([key]) => INDEX_KEY.test(key))) return null;
  return entries.map(([key, item]): [number, unknown] => [Number(key), item]).sort((a, b) => a[0] - b[0]);
}

export function columnLabel(column: TableColumn, index: number, messages: FieldMessages = FIELD_MESSAGES): string {
  return column.label || messages.column(index + 1);
}

/** `options` when given; otherwise interface.md's `tableLayout` convention of `;`-separated values. */
export function selectColumnOptions(column: TableColumn): readonly string[] {
  if (column.options !== undefined) return column.options;
  return (column.value ?? '')
    .split(';')
    .map((option) => option.trim())
    .filter((option) => option !== '');
}

function normaliseCell(column: TableColumn, raw: unknown, row: number, label: string, messages: FieldMessages): Coerced<Cell> {
  switch (column.type) {
    case 'number': {
      const parsed = parseDecimal(raw, CANONICAL_DECIMAL, messages);
      return parsed.ok ? parsed : { ok: false, error: messages.cellNotNumber(row, label) };
    }
    case 'checkbox': {
      if (column.value && raw === column.value) return { ok: true, value: true };
      const flag = parseFlag(raw);
      return flag === undefined
        ? { ok: false, error: messages.cellNotCheckbox(row, label) }
        : { ok: true, value: flag };
    }
    case 'file': {
      const ids = coerceTextList(raw, messages);
      return ids.ok ? ids : { ok: false, error: messages.cellNotFiles(row, label) };
    }
    case 'string':
    case 'select': {
      const text = coerceText(raw, MAX_TEXT_CHARS, messages);
      return text.ok ? text : { ok: false, error: messages.cellNotText(row, label) };
    }
  }
}

function normaliseRow(columns: readonly TableColumn[], raw: unknown, row: number, messages: FieldMessages): Coerced<TableRow> {
  const entries = raw === undefined || raw === null ? [] : indexedEntries(raw);
  if (entries === null) return { ok: false, error: messages.rowInvalid(row) };
  const byIndex = new Map(entries);
  const cells: Cell[] = [];
  for (const [index, column] of columns.entries()) {
    // Cells beyond the layout are ignored: a client built for an older layout may still send them.
    const cell = normaliseCell(column, byIndex.get(index), row, columnLabel(column, index, messages), messages);
    if (!cell.ok) return cell;
    cells.push(cell.value);
  }
  return { ok: true, value: cells };
}

function fileCellErrors(column: TableColumn, cell: Cell, row: number, label: string, messages: FieldMessages): string[] {
  if (!Array.isArray(cell)) return [messages.cellNotFiles(row, label)];
  const ids = cell as readonly unknown[];
  if (!ids.every((id) => typeof id === 'string' && UPLOAD_ID.test(id))) return [messages.invalidUpload];
  const max = column.fileCount ?? DEFAULT_FILE_COUNT;
  return ids.length > max ? [messages.cellTooManyFiles(row, label, max)] : [];
}

function tableErrors(
  columns: readonly TableColumn[],
  maxRows: number | undefined,
  value: FieldValue,
  messages: FieldMessages,
): string[] {
  if (!Array.isArray(value) || !value.every((row) => Array.isArray(row))) return [messages.notTable];
  const rows = value as readonly TableRow[];
  const errors: string[] = [];
  if (maxRows !== undefined && rows.length > maxRows) errors.push(messages.tooManyRows(maxRows));
  rows.forEach((row, rowIndex) => {
    columns.forEach((column, index) => {
      const cell = row[index] ?? null;
      const label = columnLabel(column, index, messages);
      if (isEmptyValue(cell)) {
        if (column.required === true) errors.push(messages.cellRequired(rowIndex + 1, label));
      } else if (column.type === 'select' && !selectColumnOptions(column).includes(String(cell))) {
        errors.push(messages.cellInvalidOption(rowIndex + 1, label));
      } else if (column.type === 'file') {
        errors.push(...fileCellErrors(column, cell, rowIndex + 1, label, messages));
      }
    });
  });
  return errors;
}

export const tableFieldChecks: FieldTypeChecks<'table'> = {
  type: 'table',
  normalise: (field, raw, messages = FIELD_MESSAGES) => {
    if (raw === undefined || raw === null || raw === '') return { ok: true, value: [] };
    const tooMany = { ok: false, error: messages.tooManyRows(MAX_TABLE_ROWS) } as const;
    if (Array.isArray(raw) && raw.length > MAX_TABLE_ROWS) return tooMany;
    const entries = indexedEntries(raw);
    if (entries === null) return { ok: false, error: messages.notTable };
    if (entries.length > MAX_TABLE_ROWS) return tooMany;
    const rows: TableRow[] = [];
    for (const [position, [, rawRow]] of entries.entries()) {
      const row = normaliseRow(field.columns, rawRow, position + 1, messages);
      if (!row.ok) return row;
      // Blank rows are what an untouched "add row" leaves behind; they are not answers.
      if (!row.value.every((cell) => isEmptyValue(cell))) rows.push(row.value);
    }
    return { ok: true, value: rows };
  },
  validate: (field, value, _values, messages = FIELD_MESSAGES) => tableErrors(field.columns, field.maxRows, value, messages),
};
export const tableFieldType = /* @__PURE__ */ withDefault(tableFieldChecks, () => []);
