/** The pages' catalogue in every language: the English keys, parsing ICU, the same placeholders (issue #34 item 4). */
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LANGUAGES } from './message-format.js';
import { formatPageMessage, PAGE_MESSAGE_CATALOGUES } from './page-message-format.js';
import { PAGE_MESSAGES_EN } from './page-messages-en.js';

/** The placeholders a message names (FormatJS element types 1-6 carry `value`). */
function placeholders(pattern: string, language: string): string[] {
  const names = new Set<string>();
  const walk = (elements: readonly { type: number; value?: unknown; options?: Record<string, { value: readonly never[] }> }[]) => {
    for (const element of elements) {
      if (element.type >= 1 && element.type <= 6 && typeof element.value === 'string') names.add(element.value);
      for (const option of Object.values(element.options ?? {})) walk(option.value);
    }
  };
  walk(new IntlMessageFormat(pattern, language, undefined, { ignoreTag: true }).getAst() as never);
  return [...names].sort();
}

const ENGLISH_KEYS = Object.keys(PAGE_MESSAGES_EN).sort();

describe.each(SUPPORTED_LANGUAGES)('the %s page catalogue', (language) => {
  const catalogue = PAGE_MESSAGE_CATALOGUES[language];

  it('has exactly the English keys, none missing and none extra', () => {
    expect(Object.keys(catalogue).sort()).toEqual(ENGLISH_KEYS);
  });

  it.each(ENGLISH_KEYS)('%s parses as ICU with the same placeholders as English', (key) => {
    const pattern = catalogue[key as keyof typeof catalogue];
    expect(pattern.trim()).not.toBe('');
    expect(placeholders(pattern, language)).toEqual(placeholders(PAGE_MESSAGES_EN[key as keyof typeof PAGE_MESSAGES_EN], 'en'));
  });
});

describe('formatPageMessage', () => {
  it('picks the language that best serves a site tag, English for any other', () => {
    expect(formatPageMessage('de-DE', 'page.notSent')).toBe('Das Formular wurde nicht gesendet');
    expect(formatPageMessage('ar', 'demo.backToForm')).toBe('العودة إلى النموذج');
    expect(formatPageMessage('ja-JP', 'page.thankYou')).toBe('Thank you');
    expect(formatPageMessage('en-US', 'demo.tableCell', { column: 'Name', row: 1 })).toBe('Name, row 1');
  });
});
