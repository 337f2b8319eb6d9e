/**
 * Guessing passwords (issue #15): every failed sign-in is counted per account and per client
 * address over a window; each failure slows the next answer, and past a limit the account or
 * address is refused until the window has passed. A success clears the account's count.
 * The counts live in the rate limiter's store, so with `redis.url` every instance sees the same
 * ones (a guesser cannot multiply the budget by the number of instances); in process otherwise.
 * A store that cannot answer throws, and the sign-in is refused (fail closed).
 */
import type { RateLimitStore } from '../security/rate-limit-store.js';

export interface Lockout {
  /** How long to hold the answer, or null when the sign-in is refused outright. */
  check(account: string, ip: string): Promise<number | null>;
  failed(account: string, ip: string): Promise<void>;
  succeeded(account: string): Promise<void>;
}

export const LOCKOUT_WINDOW_MS = 15 * 60_000;
const REFUSE_AFTER = 10;
const STEP_MS = 200;
const MAX_DELAY_MS = 2_000;

// Apart from the rate limits' `<group>:<ip>` keys in the same store.
const accountKey = (account: string) => `console-lockout:a:${account}`;
const ipKey = (ip: string) => `console-lockout:i:${ip}`;

export function createLockout(store: RateLimitStore): Lockout {
  return {
    async check(account, ip) {
      const [byAccount, byIp] = await Promise.all([store.peek(accountKey(account)), store.peek(ipKey(ip))]);
      const worst = Math.max(byAccount, byIp);
      if (worst >= REFUSE_AFTER) return null;
      return Math.min(MAX_DELAY_MS, worst * STEP_MS);
    },
    async failed(account, ip) {
      // The window starts at the first failure and is not moved on by later ones (a fixed window).
      await Promise.all([store.hit(accountKey(account), LOCKOUT_WINDOW_MS), store.hit(ipKey(ip), LOCKOUT_WINDOW_MS)]);
    },
    async succeeded(account) {
      await store.reset(accountKey(account));
    },
  };
}
