/** Time per page as histogram buckets (issue #38): which floor a duration falls on, and the median of a histogram. */
import { describe, expect, it } from 'vitest';
import { durationBucket, medianOf } from './insights-durations.js';

describe('durationBucket', () => {
  it.each([
    [-3, 0], [0, 0], [0.9, 0], [12, 12], [59.99, 59], [60, 60], [64, 60], [299, 295], [300, 300], [329, 300],
    [1799, 1770], [1800, 1800], [3599, 3500], [3600, 3600], [86_400, 3600], [Number.NaN, 0],
  ])('puts %s s on %s', (seconds, floor) => {
    expect(durationBucket(seconds)).toBe(floor);
  });
});

describe('medianOf', () => {
  it('answers the floor of the bucket that holds the middle journey, and null for none', () => {
    expect(medianOf([])).toBeNull();
    expect(medianOf([{ seconds: 12, n: 0 }])).toBeNull();
    expect(medianOf([{ seconds: 30, n: 1 }, { seconds: 12, n: 2 }])).toBe(12);
    expect(medianOf([{ seconds: 12, n: 1 }, { seconds: 30, n: 1 }])).toBe(12);
    expect(medianOf([{ seconds: 12, n: 1 }, { seconds: 30, n: 2 }, { seconds: 600, n: 1 }])).toBe(30);
  });
});
