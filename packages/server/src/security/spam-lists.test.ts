/**
 * Blocked keywords, emails and IPs (issue #4): which normalised values and client IPs each list
 * catches, and how site-wide and per-form lists combine.
 */
import { describe, expect, it } from 'vitest';
import type { FieldType, Form, SpamSettings, Values } from '@svc/core';
import { createSpamLists, type SiteSpamLists } from './spam-lists.js';

type Lists = Partial<Pick<SpamSettings, 'blockedKeywords' | 'blockedEmails' | 'blockedIps'>>;

const NO_SITE_LISTS: SiteSpamLists = { blockedKeywords: [], blockedEmails: [], blockedIps: [] };

const FIELDS: readonly { handle: string; type: FieldType }[] = [
  { handle: 'name', type: 'text' },
  { handle: 'message', type: 'textarea' },
  { handle: 'email', type: 'email' },
  { handle: 'backupEmail', type: 'email' },
  { handle: 'topics', type: 'checkboxGroup' },
  { handle: 'schedule', type: 'table' },
  { handle: 'age', type: 'number' },
  { handle: 'agree', type: 'checkbox' },
];

/** Only what the lists read: the form's spam settings and its fields' handles and types. A new object each call (lists are cached per form). */
function formWith(lists: Lists): Form {
  const spam: SpamSettings = {
    honeypot: false,
    javascriptTest: false,
    behavior: 'simulate_success',
    minimumFillSeconds: 0,
    blockedKeywords: [],
    blockedEmails: [],
    blockedIps: [],
    ...lists,
  };
  return { handle: 'test', settings: { spam }, fields: FIELDS } as unknown as Form;
}

function check(lists: Lists, values: Values, ip: string | null = null, site: SiteSpamLists = NO_SITE_LISTS) {
  return createSpamLists(site).check(formWith(lists), values, ip);
}

describe('blocked keywords', () => {
  it.each([
    ['matches a keyword inside a longer value', ['viagra'], 'Buy viagra now', true],
    ['matches regardless of case', ['viagra'], 'Buy VIAGRA now', true],
    ['matches a keyword written in upper case', ['VIAGRA'], 'buy viagra', true],
    ['matches non-ASCII letters regardless of case', ['ärger'], 'KEIN ÄRGER', true],
    ['matches inside a word (substring)', ['cheap'], 'the cheapest deal', true],
    ['matches a phrase', ['click here'], 'please CLICK HERE today', true],
    ['does not match text without the keyword', ['viagra'], 'Hello there', false],
    ['lets `*` match anything between words', ['free * money'], 'get FREE easy money', true],
    ['lets `*` match a long stretch', ['free * money'], 'free and very very easy money', true],
    ['keeps the order of a wildcard phrase', ['free * money'], 'money for free', false],
    ['treats `.` literally', ['a.b'], 'axb', false],
    ['matches a literal `.`', ['a.b'], 'see a.b here', true],
    ['treats `+` literally', ['c++'], 'I write c++ daily', true],
    ['does not read `+` as a repetition', ['c++'], 'I write ccc', false],
    ['treats parentheses literally', ['(win)'], 'you win now', false],
    ['matches literal parentheses', ['(win)'], 'you (win) now', true],
    ['treats `|` literally', ['spam|ham'], 'just ham', false],
    ['matches a literal `|`', ['spam|ham'], 'spam|ham offer', true],
    ['treats `$` and `^` literally', ['$5^'], 'only $5^ today', true],
    ['does not read `^` as an anchor', ['^start'], 'start here', false],
    ['treats `?` literally', ['why?'], 'wh', false],
    ['treats brackets literally', ['[x]'], 'x', false],
    ['treats braces literally', ['a{2}'], 'aa', false],
    ['treats a backslash literally', ['a\\d'], 'a1', false],
    ['matches a literal backslash', ['a\\d'], 'path a\\d here', true],
    ['trims keywords', ['  viagra  '], 'buyviagra', true],
    ['ignores blank keywords', ['   '], 'anything at all', false],
    ['matches when any one of several keywords occurs', ['casino', 'viagra'], 'cheap viagra', true],
  ])('%s', (_label, keywords, text, blocked) => {
    expect(check({ blockedKeywords: keywords }, { message: text })).toEqual(blocked ? ['blocked_keyword'] : []);
  });

  it.each<[string, Values, boolean]>([
    ['a plain text value', { name: 'viagra' }, true],
    ['an email value', { email: 'viagra@example.test' }, true],
    ['an item of a list value', { topics: ['news', 'Viagra deals'] }, true],
    ['a cell of a table value', { schedule: [['mon', '9'], ['tue', 'buy viagra']] }, true],
    ['a table without the keyword', { schedule: [['mon', '9'], [null, true]] }, false],
    ['numbers and booleans only', { age: 12, agree: true }, false],
    ['no values at all', {}, false],
    ['a null value', { name: null }, false],
  ])('checks %s', (_label, values, blocked) => {
    expect(check({ blockedKeywords: ['viagra'] }, values)).toEqual(blocked ? ['blocked_keyword'] : []);
  });

  it('checks values, not field handles', () => {
    expect(check({ blockedKeywords: ['message'] }, { message: 'hello' })).toEqual([]);
  });
});

describe('blocked emails', () => {
  it.each([
    ['matches an exact address', ['spammer@spam.test'], 'spammer@spam.test', true],
    ['matches an exact address regardless of case', ['spammer@spam.test'], 'SPAMMER@Spam.Test', true],
    ['does not match another address at the same domain', ['spammer@spam.test'], 'other@spam.test', false],
    ['does not match an address that only contains the entry', ['spammer@spam.test'], 'xspammer@spam.test.org', false],
    ['matches any local part with `*@domain`', ['*@spam.test'], 'anyone@spam.test', true],
    ['matches `*@domain` regardless of case', ['*@spam.test'], 'Anyone@SPAM.TEST', true],
    ['does not let `*@domain` match a subdomain', ['*@spam.test'], 'anyone@mail.spam.test', false],
    ['does not let `*@domain` match a longer domain', ['*@spam.test'], 'anyone@spam.testing', false],
    ['does not let `*@domain` match another domain ending alike', ['*@spam.test'], 'anyone@notspam.test', false],
    ['treats `.` in an entry literally', ['*@spam.test'], 'anyone@spamxtest', false],
    ['trims the typed value', ['*@spam.test'], '  anyone@spam.test  ', true],
    ['trims the entry', ['  *@spam.test '], 'anyone@spam.test', true],
    ['matches a `*` inside the domain', ['*@*.spam.test'], 'a@mail.spam.test', true],
    ['ignores blank entries', ['  '], 'anyone@example.test', false],
  ])('%s', (_label, entries, email, blocked) => {
    expect(check({ blockedEmails: entries }, { email })).toEqual(blocked ? ['blocked_email'] : []);
  });

  it('checks every email-type field', () => {
    expect(check({ blockedEmails: ['*@spam.test'] }, { email: 'ann@example.test', backupEmail: 'bot@spam.test' })).toEqual(['blocked_email']);
  });

  it.each<[string, Values]>([
    ['a text field', { name: 'bot@spam.test' }],
    ['a textarea', { message: 'write to bot@spam.test' }],
    ['a list value', { topics: ['bot@spam.test'] }],
  ])('does not check an address typed into %s', (_label, values) => {
    expect(check({ blockedEmails: ['*@spam.test'] }, values)).toEqual([]);
  });

  it('does not check an empty email field', () => {
    expect(check({ blockedEmails: ['*'] }, { email: null })).toEqual([]);
  });
});

describe('blocked IPs', () => {
  it.each<[string, readonly string[], string | null, boolean]>([
    ['matches a single IPv4 address', ['203.0.113.7'], '203.0.113.7', true],
    ['does not match another IPv4 address', ['203.0.113.7'], '203.0.113.8', false],
    ['matches an IPv4 address inside a CIDR range', ['203.0.113.0/24'], '203.0.113.99', true],
    ['does not match an IPv4 address outside the range', ['203.0.113.0/24'], '198.51.100.1', false],
    ['matches a single IPv6 address', ['2001:db8::1'], '2001:db8::1', true],
    ['matches an IPv6 address inside a CIDR range', ['2001:db8::/32'], '2001:db8:1:2::3', true],
    ['does not match an IPv6 address outside the range', ['2001:db8::/32'], '2001:db9::1', false],
    ['matches an IPv4-mapped IPv6 address against the IPv4 entry', ['1.2.3.4'], '::ffff:1.2.3.4', true],
    ['matches an IPv4-mapped IPv6 address against an IPv4 range', ['1.2.3.0/24'], '::ffff:1.2.3.200', true],
    ['never matches a null IP', ['0.0.0.0/0', '::/0'], null, false],
    ['skips invalid entries', ['nope', '203.0.113.7'], '203.0.113.7', true],
  ])('%s', (_label, entries, ip, blocked) => {
    expect(check({ blockedIps: entries }, {}, ip)).toEqual(blocked ? ['blocked_ip'] : []);
  });
});

describe('site-wide and per-form lists', () => {
  const SITE: SiteSpamLists = { blockedKeywords: ['casino'], blockedEmails: ['*@site.test'], blockedIps: ['198.51.100.0/24'] };

  it.each<[string, Values, string | null, string[]]>([
    ['a site-wide keyword', { message: 'best CASINO' }, null, ['blocked_keyword']],
    ['a per-form keyword', { message: 'buy viagra' }, null, ['blocked_keyword']],
    ['a site-wide email', { email: 'bot@site.test' }, null, ['blocked_email']],
    ['a per-form email', { email: 'bot@form.test' }, null, ['blocked_email']],
    ['a site-wide IP', {}, '198.51.100.5', ['blocked_ip']],
    ['a per-form IP', {}, '203.0.113.5', ['blocked_ip']],
    ['nothing listed', { message: 'hello', email: 'ann@example.test' }, '192.0.2.1', []],
  ])('catches %s when both lists are set', (_label, values, ip, reasons) => {
    const form = formWith({ blockedKeywords: ['viagra'], blockedEmails: ['*@form.test'], blockedIps: ['203.0.113.0/24'] });
    expect(createSpamLists(SITE).check(form, values, ip)).toEqual(reasons);
  });

  it('applies the site-wide lists to a form without lists of its own', () => {
    const lists = createSpamLists(SITE);
    expect(lists.check(formWith({}), { message: 'casino', email: 'x@site.test' }, '198.51.100.1')).toEqual([
      'blocked_keyword',
      'blocked_email',
      'blocked_ip',
    ]);
  });

  it("keeps one form's lists off another form", () => {
    const lists = createSpamLists(NO_SITE_LISTS);
    const strict = formWith({ blockedKeywords: ['viagra'], blockedEmails: ['*@spam.test'], blockedIps: ['203.0.113.7'] });
    const open = formWith({});
    const values: Values = { message: 'viagra', email: 'bot@spam.test' };
    expect(lists.check(strict, values, '203.0.113.7')).toEqual(['blocked_keyword', 'blocked_email', 'blocked_ip']);
    expect(lists.check(open, values, '203.0.113.7')).toEqual([]);
  });

  it('reports every list that matches, keyword then email then IP', () => {
    const reasons = check({ blockedKeywords: ['viagra'], blockedEmails: ['*@spam.test'], blockedIps: ['203.0.113.0/24'] }, { message: 'viagra', email: 'a@spam.test' }, '203.0.113.1');
    expect(reasons).toEqual(['blocked_keyword', 'blocked_email', 'blocked_ip']);
  });

  it('reports nothing when no list is set anywhere', () => {
    expect(check({}, { message: 'viagra', email: 'a@spam.test' }, '203.0.113.1')).toEqual([]);
  });
});
