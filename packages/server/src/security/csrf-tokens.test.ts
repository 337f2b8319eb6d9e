import { describe, expect, it } from 'vitest';
import { createCsrfTokens } from './csrf-tokens.js';
import { createBoundedMemo } from './bounded-memo.js';

const SECRET = 'csrf-test-secret-0123456789-abcdefghijklmnop';

describe('CSRF tokens', () => {
  const tokens = createCsrfTokens(SECRET, 60);
  const binding = tokens.newBinding();
  const issuedAt = 1_800_000_000_000;

  it('accepts its own token for its binding, again and again within the lifetime', () => {
    const token = tokens.issue(binding, issuedAt);
    for (let i = 0; i < 3; i++) expect(tokens.verify(binding, token, issuedAt + i * 1000)).toBe(true);
  });

  it('still expires a token that was verified before (the memo keeps its issue time)', () => {
    const token = tokens.issue(binding, issuedAt);
    expect(tokens.verify(binding, token, issuedAt + 1000)).toBe(true);
    expect(tokens.verify(binding, token, issuedAt + 61 * 60_000)).toBe(false);
    // And a token from the future stays refused beyond the skew allowance.
    expect(tokens.verify(binding, token, issuedAt - 2 * 60_000)).toBe(false);
  });

  it('refuses a verified token under another binding, and a forged one under its own, however often', () => {
    const token = tokens.issue(binding, issuedAt);
    expect(tokens.verify(binding, token, issuedAt)).toBe(true);
    const other = tokens.newBinding();
    const [issued, nonce, mac] = token.split('.');
    const forged = `${issued}.${nonce}.${(mac as string).slice(0, -2)}AA`;
    for (let i = 0; i < 2; i++) {
      expect(tokens.verify(other, token, issuedAt)).toBe(false);
      expect(tokens.verify(binding, forged, issuedAt)).toBe(false);
    }
  });

  it('does not trust another secret', () => {
    const token = createCsrfTokens(`${SECRET}-other`, 60).issue(binding, issuedAt);
    expect(tokens.verify(binding, token, issuedAt)).toBe(false);
  });
});

describe('bounded memo', () => {
  it('forgets everything when full instead of growing', () => {
    const memo = createBoundedMemo<number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) memo.set(key, i);
    expect(memo.get('c')).toBe(2);
    memo.set('d', 3);
    expect([memo.get('a'), memo.get('b'), memo.get('c'), memo.get('d')]).toEqual([undefined, undefined, undefined, 3]);
  });
});
