/**
 * Small helpers of a form session: placeholders for files picked but not yet sent (so `required`
 * sees them in local validation), and the random ids requests carry.
 */

/**
 * A table value with `count` placeholder ids added to one cell, as the server lays in received files.
 *
 * @example
 * withPendingCell([['Widget', null]], 0, 1, 2); // [['Widget', ['pending0', 'pending1']]]
 */
export function withPendingCell(table: unknown, row: number, column: number, count: number): unknown[] {
  const rows: unknown[] = Array.isArray(table) ? table.map((r) => (Array.isArray(r) ? [...(r as unknown[])] : [])) : [];
  while (rows.length <= row) rows.push([]);
  const cells = rows[row] as unknown[];
  while (cells.length <= column) cells.push(null);
  const current = Array.isArray(cells[column]) ? (cells[column] as unknown[]) : [];
  cells[column] = [...current, ...Array.from({ length: count }, (_f, i) => `pending${i}`)];
  return rows;
}

/**
 * @example
 * headers['idempotency-key'] = randomId(); // a UUID v4
 */
export function randomId(): string {
  return globalThis.crypto.randomUUID();
}
