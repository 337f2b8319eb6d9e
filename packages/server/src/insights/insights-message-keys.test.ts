/** Field errors read back into their catalogue keys (issue #38), in every language, parameters and all. */
import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES, fieldMessages, type Field } from '@svc/core';
import { messageKey } from './insights-message-keys.js';

const vat = { type: 'regex', handle: 'vatNumber', pattern: '^[A-Z]{2}$', message: 'Use a VAT number like DE123456789' } as unknown as Field;

describe('messageKey', () => {
  it.each([
    ['en', (m: typeof FIELD_MESSAGES) => m.invalidEmail, 'invalidEmail'],
    ['en', (m: typeof FIELD_MESSAGES) => m.required, 'required'],
    ['en', (m: typeof FIELD_MESSAGES) => m.belowMin(18), 'belowMin'],
    ['en', (m: typeof FIELD_MESSAGES) => m.aboveMax(12_000), 'aboveMax'],
    ['en', (m: typeof FIELD_MESSAGES) => m.tooManyFiles(3), 'tooManyFiles'],
    ['en', (m: typeof FIELD_MESSAGES) => m.invalidDate('YYYY-MM-DD'), 'invalidDate'],
    ['de-DE', (m: typeof FIELD_MESSAGES) => m.required, 'required'],
    ['de-DE', (m: typeof FIELD_MESSAGES) => m.belowMin(18), 'belowMin'],
    ['ar', (m: typeof FIELD_MESSAGES) => m.tooManyFiles(1), 'tooManyFiles'],
    ['ar', (m: typeof FIELD_MESSAGES) => m.invalidEmail, 'invalidEmail'],
  ] as const)('reads a %s message back to its key (%#)', (language, pick, key) => {
    const messages = fieldMessages(language);
    expect(messageKey(messages, undefined, pick(messages))).toBe(key);
  });

  it("names the form's own message custom, and anything else other", () => {
    expect(messageKey(FIELD_MESSAGES, vat, 'Use a VAT number like DE123456789')).toBe('custom');
    expect(messageKey(FIELD_MESSAGES, vat, 'Something a plugin said')).toBe('other');
  });
});
