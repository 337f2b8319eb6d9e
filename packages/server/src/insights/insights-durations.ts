/**
 * Time per page as histogram buckets (issue #38): a journey's time on a page is stored only as the
 * floor of its bucket, whole seconds up to a minute, then coarser, capped at an hour, so no
 * duration is kept exactly enough to tell one visit from another, and the median of a period is
 * read from the buckets' counts.
 */

/** Bucket floors in seconds, ascending; a duration falls in the last floor not above it. */
export const DURATION_BUCKETS: readonly number[] = [
  ...Array.from({ length: 60 }, (_, i) => i),
  ...Array.from({ length: 48 }, (_, i) => 60 + i * 5),
  ...Array.from({ length: 50 }, (_, i) => 300 + i * 30),
  ...Array.from({ length: 18 }, (_, i) => 1800 + i * 100),
  3600,
];

export function durationBucket(seconds: number): number {
  if (!(seconds > 0)) return 0;
  let low = 0;
  let high = DURATION_BUCKETS.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((DURATION_BUCKETS[mid] as number) <= seconds) low = mid;
    else high = mid - 1;
  }
  return DURATION_BUCKETS[low] as number;
}

/** The median of a histogram ({bucket floor: count}): the floor of the bucket holding the middle journey. */
export function medianOf(histogram: readonly { readonly seconds: number; readonly n: number }[]): number | null {
  const sorted = [...histogram].filter((b) => b.n > 0).sort((a, b) => a.seconds - b.seconds);
  const total = sorted.reduce((sum, b) => sum + b.n, 0);
  if (total === 0) return null;
  const middle = Math.ceil(total / 2);
  let seen = 0;
  for (const bucket of sorted) {
    seen += bucket.n;
    if (seen >= middle) return bucket.seconds;
  }
  return null;
}
