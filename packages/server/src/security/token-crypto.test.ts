import { describe, expect, it } from 'vitest';
import { deriveKey, openJson, randomAlphanumeric, randomHex, randomToken, sealJson } from './token-crypto.js';

describe('random tokens from the pooled CSPRNG', () => {
  it('never hands out the same bytes twice, across many refills of the pool', () => {
    // 20,000 × 16 bytes is 78 pages of the 4 KiB pool.
    const tokens = Array.from({ length: 20_000 }, () => randomToken(16));
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens.slice(0, 50)) expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const names = Array.from({ length: 5_000 }, () => randomHex(16));
    expect(new Set(names).size).toBe(names.length);
    expect(names[0]).toMatch(/^[0-9a-f]{32}$/);
  });

  it('makes alphanumeric tokens of the asked length, evenly spread over the 62 characters', () => {
    const text = Array.from({ length: 2_000 }, () => randomAlphanumeric(32)).join('');
    expect(text).toMatch(/^[A-Za-z0-9]+$/);
    expect(text.length).toBe(64_000);
    const counts = new Map<string, number>();
    for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // About 1,032 each; a biased or repeating source would leave some far off.
    for (const n of counts.values()) expect(Math.abs(n - 64_000 / 62)).toBeLessThan(200);
  });

  it('draws more than a page at once straight from the CSPRNG', () => {
    expect(randomHex(5_000)).toMatch(/^[0-9a-f]{10000}$/);
  });

  it('seals with a fresh IV each time, and opens what it sealed', () => {
    const key = deriveKey('a secret of enough length for the test', 'test');
    const a = sealJson(key, { n: 1 });
    const b = sealJson(key, { n: 1 });
    expect(a).not.toBe(b);
    expect(openJson(key, a)).toEqual({ n: 1 });
  });
});
