/**
 * Guessing passwords (issues #15, #32): every sign-in attempt reserves a slot per client address
 * and per account before its credential is checked; each attempt waits longer than the one
 * before, and past a limit in the window the attempt is refused without a check. A success gives
 * its address slot back and clears its account's count.
 * Reserving first is what makes the budget hold under concurrency (DESIGN principle 9): counting
 * after the scrypt let 60 wrong passwords sent at once all be checked, since each read a count of
 * zero. The counts live in the rate limiter's store (an atomic increment in process, INCR in one
 * MULTI in Redis), so with `redis.url` every instance shares one budget.
 * A store that cannot answer throws, and the sign-in is refused (fail closed).
 */
import type { RateLimitStore } from '../security/rate-limit-store.js';
import { sha256 } from '../security/token-crypto.js';

/** What one attempt is counted under: the address it came from and the account it tried. */
export interface AttemptKeys {
  readonly ip: string;
  readonly account: string;
}

export interface Lockout {
  /**
   * Reserves this attempt's slots: how long to hold the answer before checking the credential,
   * or null when the address or the account has spent its budget (refuse, check nothing).
   */
  reserve(attempt: AttemptKeys): Promise<number | null>;
  /** The attempt's credential was right: its address slot is given back, its account cleared. */
  succeeded(attempt: AttemptKeys): Promise<void>;
}

export const LOCKOUT_WINDOW_MS = 15 * 60_000;
/** Attempts checked per address and per account in a window; the next one is refused. */
export const LOCKOUT_BUDGET = 10;
const STEP_MS = 200;
const MAX_DELAY_MS = 2_000;

// Apart from the rate limits' `<group>:<ip>` keys in the same store.
const accountKey = (account: string) => `console-lockout:a:${account}`;
const ipKey = (ip: string) => `console-lockout:i:${ip}`;

/**
 * The account an attempt counts under: the user's name, or for an API key a hash of the key that
 * was presented. One bucket for every API key let any client lock every key holder out with ten
 * wrong keys (issue #32); now a wrong key locks out only itself, and its address.
 */
export function attemptAccount(form: { username: string; apiKey: string }): string {
  return form.apiKey ? `key:${sha256(form.apiKey).slice(0, 32)}` : `user:${form.username}`;
}

export function createLockout(store: RateLimitStore): Lockout {
  return {
    async reserve({ ip, account }) {
      // The address first: an address past its budget is refused without adding to the account's
      // count, so a guesser hammering from one address cannot lock the account out for others.
      const byIp = await store.hit(ipKey(ip), LOCKOUT_WINDOW_MS);
      if (byIp.count > LOCKOUT_BUDGET) return null;
      const byAccount = await store.hit(accountKey(account), LOCKOUT_WINDOW_MS);
      if (byAccount.count > LOCKOUT_BUDGET) return null;
      // The attempts before this one in the window each add a step; the first waits nothing.
      return Math.min(MAX_DELAY_MS, (Math.max(byIp.count, byAccount.count) - 1) * STEP_MS);
    },
    async succeeded({ ip, account }) {
      await Promise.all([store.release(ipKey(ip)), store.reset(accountKey(account))]);
    },
  };
}
