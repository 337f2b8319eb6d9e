/**
 * Guessing passwords (issue #15): every failed sign-in is counted per account and per client
 * address over a window; each failure slows the next answer, and past a limit the account or
 * address is refused until the window has passed. A success clears the account's count.
 */
export interface Lockout {
  /** How long to hold the answer, or null when the sign-in is refused outright. */
  check(account: string, ip: string, now: number): number | null;
  failed(account: string, ip: string, now: number): void;
  succeeded(account: string): void;
}

const WINDOW_MS = 15 * 60_000;
const REFUSE_AFTER = 10;
const STEP_MS = 200;
const MAX_DELAY_MS = 2_000;
const MAX_TRACKED = 10_000;

export function createLockout(): Lockout {
  const failures = new Map<string, { count: number; since: number }>();
  const countOf = (id: string, now: number) => {
    const entry = failures.get(id);
    if (!entry || now - entry.since > WINDOW_MS) return 0;
    return entry.count;
  };
  const bump = (id: string, now: number) => {
    const entry = failures.get(id);
    if (!entry || now - entry.since > WINDOW_MS) failures.set(id, { count: 1, since: now });
    else entry.count += 1;
    // A flood of made-up accounts must not grow this without bound: the oldest go first.
    if (failures.size > MAX_TRACKED) failures.delete(failures.keys().next().value as string);
  };
  return {
    check(account, ip, now) {
      const worst = Math.max(countOf(`a:${account}`, now), countOf(`i:${ip}`, now));
      if (worst >= REFUSE_AFTER) return null;
      return Math.min(MAX_DELAY_MS, worst * STEP_MS);
    },
    failed(account, ip, now) {
      bump(`a:${account}`, now);
      bump(`i:${ip}`, now);
    },
    succeeded(account) {
      failures.delete(`a:${account}`);
    },
  };
}
