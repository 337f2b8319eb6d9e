/**
 * Every message a field constraint produces. Clients show them as they are, so they are plain
 * English sentences without internals; `required` is quoted by contract §4's example.
 */

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export const FIELD_MESSAGES = {
  required: 'This field is required',
  notText: 'This value must be text',
  notList: 'This value must be a list',
  tooManyItems: (max: number) => `Choose at most ${plural(max, 'item', 'items')}`,
  textTooLong: (max: number) => `Must be at most ${plural(max, 'character', 'characters')}`,
  invalidEmail: 'Enter a valid email address',
  invalidPhone: 'Enter a valid phone number',
  phoneFormat: (pattern: string) => `Enter a phone number in the format ${pattern}`,
  patternMismatch: 'This value is not valid',
  mismatch: 'The values do not match',
  notNumber: 'Enter a number',
  negative: 'Must not be negative',
  wholeNumber: 'Must be a whole number',
  tooManyDecimals: (max: number) => `Must have at most ${plural(max, 'decimal place', 'decimal places')}`,
  belowMin: (min: number) => `Must be at least ${min}`,
  aboveMax: (max: number) => `Must be at most ${max}`,
  tooFewDigits: (min: number) => `Must have at least ${plural(min, 'digit', 'digits')}`,
  invalidOption: 'Choose one of the listed options',
  chooseOne: 'Choose one option',
  invalidCheckbox: 'This value must be checked or unchecked',
  invalidOptIn: 'This value must be yes or no',
  invalidRating: (max: number) => `Choose a rating from 1 to ${max}`,
  invalidDate: (format: string) => `Enter a valid date in the format ${format}`,
  invalidTime: (format: string) => `Enter a valid time in the format ${format}`,
  invalidDateTime: (format: string) => `Enter a valid date and time in the format ${format}`,
  dateBeforeMin: (min: string) => `Must be on or after ${min}`,
  dateAfterMax: (max: string) => `Must be on or before ${max}`,
  invalidSignature: 'The signature is not a valid image',
  signatureTooLarge: (maxKiB: number) => `The signature must be at most ${maxKiB} KB`,
  invalidUpload: 'An uploaded file reference is not valid',
  invalidPayment: 'The payment reference is not valid',
  paymentRequired: 'Complete the payment to submit this form',
  tooManyFiles: (max: number) => `Upload at most ${plural(max, 'file', 'files')}`,
  notTable: 'This value must be a list of rows',
  tooManyRows: (max: number) => `Must have at most ${plural(max, 'row', 'rows')}`,
  rowInvalid: (row: number) => `Row ${row} must be a list of cells`,
  cellRequired: (row: number, column: string) => `Row ${row}: ${column} is required`,
  cellNotText: (row: number, column: string) => `Row ${row}: ${column} must be text`,
  cellNotNumber: (row: number, column: string) => `Row ${row}: ${column} must be a number`,
  cellNotCheckbox: (row: number, column: string) =>
    `Row ${row}: ${column} must be checked or unchecked`,
  cellNotFiles: (row: number, column: string) => `Row ${row}: ${column} must be a list of uploaded files`,
  cellTooManyFiles: (row: number, column: string, max: number) =>
    `Row ${row}: ${column} takes at most ${plural(max, 'file', 'files')}`,
  cellInvalidOption: (row: number, column: string) =>
    `Row ${row}: ${column} must be one of the listed options`,
} as const;
