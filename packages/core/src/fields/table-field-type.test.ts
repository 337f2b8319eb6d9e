import { describe, expect, it } from 'vitest';
import type { TableColumn, TableField } from '../form-model.js';
import { FIELD_MESSAGES } from './field-messages.js';
import { selectColumnOptions, tableFieldType } from './table-field-type.js';

const columns: TableColumn[] = [
  { label: 'Name', type: 'string', required: true },
  { label: 'Qty', type: 'number' },
  { label: 'Gift', type: 'checkbox' },
  { label: 'Size', type: 'select', value: 'S; M ;L' },
];
const table: TableField = { type: 'table', handle: 't', label: 'T', columns };

describe('table normalise', () => {
  it.each([
    ['rows of cells', [['Ann', '2', true, 'M']], [['Ann', '2', true, 'M']]],
    ['numbers canonicalised', [['Ann', '1.50', false, 'S'], ['Bob', 3, '1', null]], [['Ann', '1.5', false, 'S'], ['Bob', '3', true, null]]],
    ['negative numbers allowed in cells', [['Ann', '-2', false, '']], [['Ann', '-2', false, null]]],
    ['missing trailing cells', [['Ann']], [['Ann', null, false, null]]],
    ['extra cells ignored', [['Ann', '1', 'on', 'L', 'extra']], [['Ann', '1', true, 'L']]],
    ['rows keyed by index', { 1: ['Bob'], 0: ['Ann'] }, [['Ann', null, false, null], ['Bob', null, false, null]]],
    ['cells keyed by index', [{ 0: 'Ann', 3: 'S', 2: 'yes' }], [['Ann', null, true, 'S']]],
    ['blank rows dropped', [['', '', false, ''], ['Ann'], [null, null, 'false', null], null, []], [['Ann', null, false, null]]],
    ['whitespace-only rows dropped', [['   ', '', false, '']], []],
    ['cells kept as typed', [[' Ann ', ' 4 ', 0, 'M']], [[' Ann ', '4', false, 'M']]],
    ['number and boolean text cells', [[7, null, false, null]], [['7', null, false, null]]],
    ['undefined', undefined, []],
    ['null', null, []],
    ['the empty string', '', []],
    ['an empty list', [], []],
    ['exactly 500 rows', Array.from({ length: 500 }, () => ['x']), Array.from({ length: 500 }, () => ['x', null, false, null])],
  ] as const)('%s', (_name, raw, want) => {
    expect(tableFieldType.normalise(table, raw)).toEqual({ ok: true, value: want });
  });

  it('reads a checkbox column by its configured value', () => {
    const withValue: TableField = { ...table, columns: [{ label: 'Vegan', type: 'checkbox', value: 'vegan' }] };
    expect(tableFieldType.normalise(withValue, [['vegan'], ['0']])).toEqual({ ok: true, value: [[true]] });
  });

  it.each([
    ['a string', 'rows', FIELD_MESSAGES.notTable],
    ['a number', 5, FIELD_MESSAGES.notTable],
    ['an object with other keys', { rows: [] }, FIELD_MESSAGES.notTable],
    ['a row that is text', ['Ann'], FIELD_MESSAGES.rowInvalid(1)],
    ['a row with other keys', [['Ann'], { name: 'Bob' }], FIELD_MESSAGES.rowInvalid(2)],
    ['a text cell that is an object', [[{ name: 'Ann' }]], FIELD_MESSAGES.cellNotText(1, 'Name')],
    ['a number cell that is not a number', [['Ann', 'two']], FIELD_MESSAGES.cellNotNumber(1, 'Qty')],
    ['a number cell with an exponent', [['Ann', '1e3']], 'Row 1: Qty must be a number'],
    ['a checkbox cell that is neither', [['Ann', '1', 'maybe']], FIELD_MESSAGES.cellNotCheckbox(1, 'Gift')],
    ['a select cell that is a list', [['Ann', '1', true, ['S']]], FIELD_MESSAGES.cellNotText(1, 'Size')],
    ['501 rows', Array.from({ length: 501 }, () => ['x']), FIELD_MESSAGES.tooManyRows(500)],
    ['501 rows keyed by index', Object.fromEntries(Array.from({ length: 501 }, (_, i) => [String(i), ['x']])), 'Must have at most 500 rows'],
  ] as const)('rejects %s', (_name, raw, error) => {
    expect(tableFieldType.normalise(table, raw)).toEqual({ ok: false, error });
  });
});

describe('table validate', () => {
  it.each([
    ['complete rows', table, [['Ann', '2', true, 'M']], []],
    ['an optional empty cell', table, [['Ann', null, false, null]], []],
    ['a missing required cell', table, [['Ann', null, false, null], [null, '2', false, null]], [FIELD_MESSAGES.cellRequired(2, 'Name')]],
    ['a blank required cell', table, [['  ', '2', false, null]], ['Row 1: Name is required']],
    ['a select value not offered', table, [['Ann', null, false, 'XL']], [FIELD_MESSAGES.cellInvalidOption(1, 'Size')]],
    ['a select value with padding', table, [['Ann', null, false, ' M ']], [FIELD_MESSAGES.cellInvalidOption(1, 'Size')]],
    ['within maxRows', { ...table, maxRows: 2 }, [['A'], ['B']], []],
    ['over maxRows', { ...table, maxRows: 2 }, [['A'], ['B'], ['C']], [FIELD_MESSAGES.tooManyRows(2)]],
    ['a required checkbox column unticked', { ...table, columns: [{ label: 'OK', type: 'checkbox', required: true }] }, [[false]], ['Row 1: OK is required']],
    ['an unlabelled column', { ...table, columns: [{ label: '', type: 'string', required: true }] }, [[null]], ['Row 1: Column 1 is required']],
    [
      'select options from the options list',
      { ...table, columns: [{ label: 'Pick', type: 'select', options: ['a', 'b'], value: 'c' }] },
      [['c'], ['b']],
      [FIELD_MESSAGES.cellInvalidOption(1, 'Pick')],
    ],
    ['not a table', table, 'Ann', [FIELD_MESSAGES.notTable]],
    ['a list of strings', table, ['Ann'], [FIELD_MESSAGES.notTable]],
  ] as const)('%s', (_name, field: TableField, value, want) => {
    expect(tableFieldType.validate(field, value, {})).toEqual(want);
  });

  it.each([
    [{ label: 'S', type: 'select', value: 'a;b; c ;' }, ['a', 'b', 'c']],
    [{ label: 'S', type: 'select' }, []],
    [{ label: 'S', type: 'select', options: ['x'], value: 'a;b' }, ['x']],
  ] as const)('select column options of %j', (column: TableColumn, want) => {
    expect(selectColumnOptions(column)).toEqual(want);
  });

  it('starts with no rows', () => {
    expect(tableFieldType.defaultValue(table)).toEqual([]);
  });
});

describe('table file columns (contract §7 files[table][row][col][])', () => {
  const withFiles: TableField = {
    type: 'table',
    handle: 'refs',
    label: 'References',
    columns: [
      { label: 'Who', type: 'string' },
      { label: 'Letter', type: 'file', fileKinds: ['pdf'], fileCount: 2 },
    ],
  };
  const normalise = (raw: unknown) => tableFieldType.normalise(withFiles, raw);

  it('holds upload ids as a list per cell; one id alone becomes a list', () => {
    expect(normalise([['Ann', ['abc', 'def']], ['Bob', 'ghi']])).toEqual({ ok: true, value: [['Ann', ['abc', 'def']], ['Bob', ['ghi']]] });
  });

  it('drops a row whose only content is an empty file cell', () => {
    expect(normalise([['', []]])).toEqual({ ok: true, value: [] });
  });

  it('refuses a cell that is not a list of ids', () => {
    expect(normalise([['Ann', [{ id: 'x' }]]])).toEqual({ ok: false, error: FIELD_MESSAGES.cellNotFiles(1, 'Letter') });
  });

  it('limits files per cell to the column fileCount and checks the id shape', () => {
    const validate = (value: unknown) => tableFieldType.validate(withFiles, value as never, {});
    expect(validate([['Ann', ['a', 'b']]])).toEqual([]);
    expect(validate([['Ann', ['a', 'b', 'c']]])).toEqual([FIELD_MESSAGES.cellTooManyFiles(1, 'Letter', 2)]);
    expect(validate([['Ann', ['../etc/passwd']]])).toEqual([FIELD_MESSAGES.invalidUpload]);
  });
});
