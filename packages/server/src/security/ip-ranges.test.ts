/** IP lists of single addresses and CIDR ranges (issue #4): which entries are valid and what they match. */
import { describe, expect, it } from 'vitest';
import { createIpList, ipEntryProblem, ipListed } from './ip-ranges.js';

describe('ipEntryProblem', () => {
  it.each([
    ['a single IPv4 address', '203.0.113.7'],
    ['an IPv4 CIDR range', '203.0.113.0/24'],
    ['the whole IPv4 space', '0.0.0.0/0'],
    ['an IPv4 /32', '10.0.0.1/32'],
    ['a single IPv6 address', '2001:db8::1'],
    ['an IPv6 CIDR range', '2001:db8::/32'],
    ['the whole IPv6 space', '::/0'],
    ['an IPv6 /128', '::1/128'],
    ['an IPv4-mapped IPv6 address', '::ffff:203.0.113.7'],
    ['an entry with surrounding whitespace', '  203.0.113.0/24  '],
  ])('accepts %s (%s)', (_label, entry) => {
    expect(ipEntryProblem(entry)).toBeNull();
  });

  it.each([
    ['a word', 'nope', 'is not an IP address or CIDR range'],
    ['an empty entry', '', 'is not an IP address or CIDR range'],
    ['an IPv4 address with an octet over 255', '203.0.113.256', 'is not an IP address or CIDR range'],
    ['a wildcard address', '203.0.113.*', 'is not an IP address or CIDR range'],
    ['a hostname', 'example.test', 'is not an IP address or CIDR range'],
    ['two prefixes', '203.0.113.0/24/8', 'is not an IP address or CIDR range'],
    ['an IPv4 prefix over 32', '203.0.113.0/33', 'has a prefix outside 0-32'],
    ['an IPv6 prefix over 128', '2001:db8::/129', 'has a prefix outside 0-128'],
    ['an empty prefix', '203.0.113.0/', 'has a prefix outside 0-32'],
    ['a negative prefix', '203.0.113.0/-1', 'has a prefix outside 0-32'],
    ['a non-numeric prefix', '2001:db8::/x', 'has a prefix outside 0-128'],
  ])('rejects %s (%j) naming the entry', (_label, entry, reason) => {
    const problem = ipEntryProblem(entry);
    expect(problem).toContain(reason);
    expect(problem).toContain(`"${entry}"`);
  });
});

describe('ipListed', () => {
  it.each([
    ['a single IPv4 entry matches that address', ['203.0.113.7'], '203.0.113.7', true],
    ['a single IPv4 entry does not match its neighbour', ['203.0.113.7'], '203.0.113.8', false],
    ['an IPv4 range matches an address inside it', ['203.0.113.0/24'], '203.0.113.200', true],
    ['an IPv4 range does not match an address outside it', ['203.0.113.0/24'], '203.0.114.1', false],
    ['a /8 loopback range matches 127.0.0.1', ['127.0.0.0/8'], '127.0.0.1', true],
    ['a single IPv6 entry matches that address', ['2001:db8::1'], '2001:db8::1', true],
    ['a single IPv6 entry matches the address written out in full', ['2001:db8::1'], '2001:0db8:0000:0000:0000:0000:0000:0001', true],
    ['a single IPv6 entry does not match its neighbour', ['2001:db8::1'], '2001:db8::2', false],
    ['an IPv6 range matches an address inside it', ['2001:db8::/32'], '2001:db8:ffff::1', true],
    ['an IPv6 range does not match an address outside it', ['2001:db8::/32'], '2001:db9::1', false],
    ['an IPv4-mapped IPv6 address matches the IPv4 entry', ['203.0.113.7'], '::ffff:203.0.113.7', true],
    ['an IPv4-mapped IPv6 address matches the IPv4 range', ['203.0.113.0/24'], '::ffff:203.0.113.9', true],
    ['an upper-case IPv4-mapped prefix matches too', ['203.0.113.0/24'], '::FFFF:203.0.113.9', true],
    ['an IPv4-mapped address outside the range does not match', ['203.0.113.0/24'], '::ffff:198.51.100.1', false],
    ['an IPv4 range does not match a plain IPv6 address', ['0.0.0.0/0'], '2001:db8::1', false],
    ['an IPv6 range does not match an IPv4 address', ['2001:db8::/32'], '203.0.113.7', false],
    ['a malformed client address matches nothing', ['0.0.0.0/0'], 'not-an-ip', false],
    ['an empty client address matches nothing', ['0.0.0.0/0'], '', false],
    ['invalid entries are skipped and valid ones still apply', ['nope', '203.0.113.0/33', '203.0.113.7'], '203.0.113.7', true],
    ['entries are trimmed', ['  203.0.113.0/24 '], '203.0.113.1', true],
    ['an empty list matches nothing', [], '203.0.113.7', false],
  ])('%s', (_label, entries, ip, listed) => {
    expect(ipListed(createIpList(entries), ip)).toBe(listed);
  });

  it('never lists a null address, even against the whole address space', () => {
    expect(ipListed(createIpList(['0.0.0.0/0', '::/0']), null)).toBe(false);
  });
});
