/**
 * How one submission becomes one line of an export (issue #5): CSV per RFC 4180, spreadsheet-safe
 * (OWASP "CSV injection": a cell a spreadsheet would read as a formula is prefixed with `'`), and
 * JSON Lines. Pure functions; export-stream.ts feeds them rows in batches.
 */
import type { Field, Form } from '@svc/core';
import type { ListedSubmission, SubmissionRecord } from '../submissions/submission-search.js';
import type { PaymentRecord } from '../payments/payment-records.js';
import type { SubmissionNote } from '../admin/admin-notes-repository.js';

/** The file rows an export needs: the stored name of each upload id. */
export interface ExportFile {
  readonly id: string;
  readonly field: string;
  readonly name: string;
  readonly kind: string;
  readonly size: number;
  readonly extension: string;
}

export const CSV_FIXED_COLUMNS = ['id', 'uid', 'title', 'status', 'isSpam', 'createdAt'] as const;
/** After the fields: what the client said of itself (contract §1). */
export const CSV_CLIENT_COLUMNS = ['client', 'clientVersion', 'sourceUrl'] as const;
/** After those, for a form that has submissions made through a named profile (issue #13). */
export const CSV_PROFILE_COLUMNS = ['profile', 'profileSubject', 'profileProperties'] as const;
/** Last, for a form with a payment field (issue #12). */
export const CSV_PAYMENT_COLUMNS = ['paymentStatus', 'paymentAmount', 'paymentCurrency', 'paymentIntent'] as const;
/** After everything, for a form any of whose submissions has an owner's note (issue #35). */
export const CSV_NOTES_COLUMN = 'notes';
export const UTF8_BOM = '\uFEFF';

export function hasPayment(form: Form): boolean {
  return form.fields.some((f) => f.type === 'payment');
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: formula-like text defused, then quoted when it holds a comma, quote or line break. */
export function csvCell(text: string): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The handles of a form's exported columns, in definition order. */
export function exportFields(form: Form): readonly Field[] {
  return form.fields.filter((f) => f.handle !== null);
}

/** Which optional column groups a form's CSV has; the header and every row agree on it. */
export interface CsvShape {
  readonly profiles: boolean;
  /** Some submission of the form has a note: every row gets a `notes` cell. */
  readonly notes?: boolean;
}

/** A submission's notes as one cell: each `<createdAt> <author>: <text>`, a blank line between them. */
export function notesText(notes: readonly SubmissionNote[]): string {
  return notes.map((n) => `${n.createdAt} ${n.author}: ${n.text}`).join('\n\n');
}

export function csvHeader(form: Form, shape: CsvShape = { profiles: false }): string {
  const payment = hasPayment(form) ? CSV_PAYMENT_COLUMNS : [];
  const profile = shape.profiles ? CSV_PROFILE_COLUMNS : [];
  return csvLine([...CSV_FIXED_COLUMNS, ...exportFields(form).map((f) => f.handle as string), ...CSV_CLIENT_COLUMNS, ...profile, ...payment, ...(shape.notes ? [CSV_NOTES_COLUMN] : [])]);
}

function ids(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : typeof value === 'string' ? [value] : [];
}

/** Whether a form's CSV cells name uploaded files: a file field, or a table with a file column. */
export function showsFileNames(form: Form): boolean {
  return form.fields.some((f) => f.type === 'file' || (f.type === 'table' && f.columns.some((c) => c.type === 'file')));
}

/** A table with its file cells turned from upload ids into names. */
function tableWithNames(field: Field, rows: unknown, names: ReadonlyMap<string, string>): unknown {
  if (field.type !== 'table' || !Array.isArray(rows)) return rows;
  const fileColumns = new Set(field.columns.flatMap((c, i) => (c.type === 'file' ? [i] : [])));
  if (fileColumns.size === 0) return rows;
  return rows.map((row: unknown) =>
    Array.isArray(row) ? row.map((cell: unknown, i) => (fileColumns.has(i) ? ids(cell).map((id) => names.get(id) ?? id) : cell)) : row,
  );
}

/** A stored value as cell text: lists and tables as JSON, booleans 1/0, files by name (one per line). */
export function cellText(field: Field, value: unknown, names: ReadonlyMap<string, string>): string {
  if (value === null || value === undefined) return '';
  // File names never contain a line break (cleanFileName), so one per line is unambiguous.
  if (field.type === 'file') return ids(value).map((id) => names.get(id) ?? id).join('\n');
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(tableWithNames(field, value, names));
}

/**
 * Writes a form's CSV rows. What every row of one export shares (its columns, whether the form is
 * paid) is worked out once, and a row is one string built cell by cell: an export's rows are
 * counted in millions (issue #17).
 */
export function csvRowWriter(form: Form, shape: CsvShape = { profiles: false }) {
  const fields = exportFields(form);
  const paid = hasPayment(form);
  return (submission: ListedSubmission, names: ReadonlyMap<string, string>, payment: PaymentRecord | null = null, notes: readonly SubmissionNote[] = []): string => {
    const values = submission.values as Readonly<Record<string, unknown>>;
    const { profile, client } = submission;
    let line = `${submission.id},${csvCell(submission.uid)},${csvCell(submission.title)},${csvCell(submission.status)},${submission.isSpam ? '1' : '0'},${csvCell(submission.createdAt)}`;
    for (const field of fields) line += `,${csvCell(cellText(field, values[field.handle as string], names))}`;
    line += `,${csvCell(client?.name ?? '')},${csvCell(client?.version ?? '')},${csvCell(client?.sourceUrl ?? '')}`;
    if (shape.profiles) line += `,${csvCell(profile?.name ?? '')},${csvCell(profile?.subject ?? '')},${csvCell(profile ? JSON.stringify(profile.properties) : '')}`;
    if (paid) line += `,${csvCell(payment?.status ?? '')},${csvCell(payment?.amountFormatted ?? '')},${csvCell(payment?.currency ?? '')},${csvCell(payment?.intentId ?? '')}`;
    if (shape.notes) line += `,${csvCell(notesText(notes))}`;
    return `${line}\r\n`;
  };
}

/** `notes` (issue #35) is given, and written, for a form any of whose submissions has a note. */
export function jsonLine(submission: SubmissionRecord, files: readonly ExportFile[], payment: PaymentRecord | null = null, notes?: readonly SubmissionNote[]): string {
  const { id, uid, title, status, isSpam, spamReasons, createdAt, values, client, profile, site } = submission;
  return `${JSON.stringify({ id, uid, title, status, isSpam, spamReasons, createdAt, values, files, client, ...(payment ? { payment } : {}), ...(profile ? { profile } : {}), site, ...(notes ? { notes } : {}) })}\n`;
}
