import { describe, expect, it } from 'vitest';
import { compileSimpleTitle, renderSubmissionTitle, renderWithLiquid } from './submission-title.js';

const SCOPE = {
  firstName: 'Ann',
  lastName: 'Lee',
  age: 34,
  agree: true,
  refused: false,
  nothing: null,
  form: { name: 'Contact' },
  values: { firstName: 'Ann' },
  dateCreated: '2026-11-22 10:00:00',
};

describe('the simple title fast path', () => {
  it.each([
    '{{ firstName }} {{ lastName }}',
    '{{firstName}}-{{ lastName}}!',
    'Application from {{ firstName }} ({{ age }}), agreed: {{ agree }} / {{ refused }}',
    '{{ missing }}|{{ nothing }}|{{ form.name }}|{{ values.firstName }}|{{ form.missing.deeper }}',
    'Plain text only',
    '{{ dateCreated }}',
    '',
  ])('renders %j exactly as Liquid does', (format) => {
    const fast = compileSimpleTitle(format);
    expect(fast).not.toBeNull();
    expect(fast?.(SCOPE)).toBe(renderWithLiquid(format, SCOPE));
  });

  it.each(['{{ firstName | upcase }}', '{% if agree %}yes{% endif %}', '{{ "literal" }}', 'a }} b', '{{ a[0] }}'])(
    'leaves %j to Liquid',
    (format) => {
      expect(compileSimpleTitle(format)).toBeNull();
    },
  );

  it('falls back to Liquid when a variable is an object', () => {
    expect(compileSimpleTitle('{{ form }}')?.(SCOPE)).toBeNull();
  });

  it('renders titles through either path with the same result', () => {
    const scope = { values: { firstName: 'Ann', lastName: 'Lee' }, formName: 'Contact', dateCreated: new Date('2026-11-22T10:00:00Z') };
    expect(renderSubmissionTitle('{{ firstName }} {{ lastName }}', scope)).toBe('Ann Lee');
    expect(renderSubmissionTitle('{{ firstName | upcase }} {{ lastName }}', scope)).toBe('ANN Lee');
    expect(renderSubmissionTitle('{{ nope }}', scope)).toBe('2026-11-22 10:00:00');
  });

  it('gives a simple format only the names it reads, with the same result as the whole scope', () => {
    // `form` and `dateCreated` win over fields of those names; lists are joined; `values` holds every field.
    const scope = {
      values: { firstName: 'Ann', tags: ['a', 'b'], form: 'shadowed', dateCreated: 'shadowed', other: 'x' },
      formName: 'Contact',
      dateCreated: new Date('2026-11-22T10:00:00Z'),
    };
    for (const format of ['{{ tags }}: {{ form.name }} {{ dateCreated }}', '{{ values.other }} {{ values.tags }} {{ firstName }}', '{{ form }}']) {
      const whole = { ...scope.values, tags: 'a, b', values: { ...scope.values, tags: 'a, b' }, form: { name: 'Contact' }, dateCreated: '2026-11-22 10:00:00' };
      const expected = renderWithLiquid(format, whole).replace(/\s+/g, ' ').trim() || '2026-11-22 10:00:00';
      expect(renderSubmissionTitle(format, scope)).toBe(expected);
    }
  });
});
