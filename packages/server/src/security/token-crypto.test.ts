import { describe, expect, it } from 'vitest';
import { deriveKey, openJson, randomAlphanumeric, randomHex, randomToken, sealJson, timeOrderedUuid } from './token-crypto.js';

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

describe('time-ordered UUIDs (version 7)', () => {
  const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('carries the millisecond it was made in its first 48 bits, then the version and variant of RFC 9562', () => {
    const at = Date.UTC(2026, 10, 26, 12, 0, 0, 123);
    const uuid = timeOrderedUuid(at);
    expect(uuid).toMatch(V7);
    expect(Number.parseInt(uuid.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts by time across milliseconds, so new rows land at the end of a unique index', () => {
    const made = [0, 1, 2, 1_000, 86_400_000].map((offset) => timeOrderedUuid(1_700_000_000_000 + offset));
    expect([...made].sort()).toEqual(made);
  });

  it('keeps 74 random bits: no two of many made in the same millisecond are alike', () => {
    const same = Array.from({ length: 20_000 }, () => timeOrderedUuid(1_700_000_000_000));
    expect(new Set(same).size).toBe(same.length);
    for (const uuid of same.slice(0, 50)) expect(uuid).toMatch(V7);
  });
});
