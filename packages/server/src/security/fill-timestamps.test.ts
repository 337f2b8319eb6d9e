import { describe, expect, it } from 'vitest';
import type { Form } from '@svc/core';
import { createFillTimestamps } from './fill-timestamps.js';

const form = (uid: string) => ({ uid }) as unknown as Form;

describe('fill timestamps', () => {
  it('issues one timestamp per form and millisecond, each valid for its own form only', () => {
    const stamps = createFillTimestamps('a-secret-long-enough-for-the-test-0123456789');
    const a = form('a');
    const b = form('b');
    const now = 1_700_000_000_000;
    const first = stamps.issue(a, now);
    expect(stamps.issue(a, now)).toBe(first);
    const other = stamps.issue(b, now);
    expect(other).not.toBe(first);
    expect(stamps.issue(a, now + 1)).not.toBe(first);
    expect(stamps.issue(a, now)).toBe(first);
    expect(stamps.age(a, first, now + 5_000)).toBe(5);
    expect(stamps.age(b, other, now + 2_000)).toBe(2);
    expect(stamps.age(b, first, now + 5_000)).toBeNull();
  });
});
