import type { FieldValue } from '../form-model.js';

function isEmptyCell(cell: unknown): boolean {
  return cell === null || cell === undefined || cell === false || (typeof cell === 'string' && cell.trim() === '');
}

/**
 * What "empty" means for the required check and the rules engine. `false` is empty because an
 * unticked opt-in has not answered; a table is empty when no row holds anything.
 */
export function isEmptyValue(value: FieldValue | undefined): boolean {
  if (value === null || value === undefined || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number' || typeof value === 'boolean') return false;
  // Raw wire values reach here too (a draft's merge): anything that is not a list is not empty.
  if (!Array.isArray(value)) return false;
  return value.every((item) => Array.isArray(item) && item.every(isEmptyCell));
}
