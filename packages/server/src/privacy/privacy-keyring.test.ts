import { describe, expect, it } from 'vitest';
import { createKeyring, isSealedText, kekIdOf, openText, sealText, secretKek } from './privacy-keyring.js';

const old = secretKek('a'.repeat(40));
const next = { id: 'k2', key: Buffer.alloc(32, 7) };

describe('privacy keyring', () => {
  it('wraps data keys under the active KEK and opens them under any configured one', () => {
    const before = createKeyring([old], 'secret');
    const { key, wrapped } = before.newDataKey();
    expect(kekIdOf(wrapped)).toBe('secret');
    const after = createKeyring([old, next], 'k2');
    expect(after.unwrap(wrapped)?.equals(key)).toBe(true);
    const rotated = after.rewrap(wrapped) as string;
    expect(kekIdOf(rotated)).toBe('k2');
    expect(createKeyring([next], 'k2').unwrap(rotated)?.equals(key)).toBe(true);
    // Without the KEK it was wrapped under, a data key is gone.
    expect(createKeyring([next], 'k2').unwrap(wrapped)).toBeNull();
  });

  it('refuses tampered wrapped keys and sealed text bound to something else', () => {
    const ring = createKeyring([old], 'secret');
    const { key, wrapped } = ring.newDataKey();
    // The check block's last characters changed (to something else whatever they were): a tampered or foreign key.
    const flipped = `${wrapped.slice(0, -2)}${wrapped.endsWith('AA') ? 'BA' : 'AA'}`;
    expect(ring.unwrap(flipped)).toBeNull();
    const sealed = sealText(key, '{"email":"marker@example.com"}', 'submission:1');
    expect(isSealedText(sealed)).toBe(true);
    expect(sealed).not.toContain('marker');
    expect(openText(key, sealed, 'submission:1')).toBe('{"email":"marker@example.com"}');
    expect(openText(key, sealed, 'submission:2')).toBeNull();
    expect(openText(key, '{"plain":true}', 'submission:1')).toBeNull();
  });

  it('names an active key that is not configured', () => {
    expect(() => createKeyring([old], 'missing')).toThrow(/missing/);
  });
});
