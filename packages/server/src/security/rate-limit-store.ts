/**
 * Fixed-window counters for API rate limits (issue #4) and the console's sign-in lockout (issue
 * #15): in process by default, in Redis when `redis.url` is set so several instances share one
 * budget. A store that cannot answer throws; the caller fails closed.
 */
import { Redis } from 'ioredis';

export interface WindowCount {
  readonly count: number;
  /** Milliseconds until the window resets. */
  readonly resetMs: number;
}

export interface RateLimitStore {
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** The count of `key`'s current window without adding to it; 0 when it has none. */
  peek(key: string): Promise<number>;
  /** Ends `key`'s window now (a successful sign-in clears its account's failures). */
  reset(key: string): Promise<void>;
  /**
   * Gives back one hit of `key`'s current window (a sign-in that reserved a slot and succeeded);
   * nothing when the window has ended, so a late release never makes a window or a negative count.
   */
  release(key: string): Promise<void>;
  /** Resolves once the store can answer, or after a short wait (then hits fail: closed). */
  ready(): Promise<boolean>;
  /** Whether the store can answer now, without waiting (readiness, issue #16). */
  healthy(): boolean;
  close(): Promise<void>;
}

export function createMemoryStore(now: () => number): RateLimitStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let hits = 0;
  return {
    async hit(key, windowMs) {
      const time = now();
      // Sweep expired windows now and then, so idle clients do not accumulate.
      if (++hits % 1000 === 0) for (const [k, w] of windows) if (w.resetAt <= time) windows.delete(k);
      let window = windows.get(key);
      if (!window || window.resetAt <= time) {
        window = { count: 0, resetAt: time + windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, resetMs: window.resetAt - time };
    },
    async peek(key) {
      const window = windows.get(key);
      return window && window.resetAt > now() ? window.count : 0;
    },
    async reset(key) {
      windows.delete(key);
    },
    async release(key) {
      const window = windows.get(key);
      if (window && window.resetAt > now() && window.count > 0) window.count -= 1;
    },
    async ready() {
      return true;
    },
    healthy: () => true,
    async close() {
      windows.clear();
    },
  };
}

const RELEASE_SCRIPT = "if (tonumber(redis.call('GET', KEYS[1]) or '0') > 0) then return redis.call('DECR', KEYS[1]) end return 0";

export function createRedisStore(url: string, keyPrefix: string): RateLimitStore {
  // No offline queue and no retries per command: while Redis is away a hit fails at once, and
  // the limiter answers 503 instead of holding requests or letting them through.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 1000, lazyConnect: false });
  client.on('error', () => undefined);
  return {
    async hit(key, windowMs) {
      const fullKey = `${keyPrefix}${key}`;
      const results = await client.multi().set(fullKey, '0', 'PX', windowMs, 'NX').incr(fullKey).pttl(fullKey).exec();
      if (!results || results.some(([error]) => error)) throw new Error('rate limit store failed');
      const count = Number(results[1]?.[1]);
      const ttl = Number(results[2]?.[1]);
      return { count, resetMs: ttl > 0 ? ttl : windowMs };
    },
    async peek(key) {
      const value = await client.get(`${keyPrefix}${key}`);
      return value === null ? 0 : Number(value);
    },
    async reset(key) {
      await client.del(`${keyPrefix}${key}`);
    },
    async release(key) {
      // One script, so the key cannot expire between the check and the DECR (which would make a
      // key of -1 without a TTL).
      await client.eval(RELEASE_SCRIPT, 1, `${keyPrefix}${key}`);
    },
    healthy: () => client.status === 'ready',
    ready() {
      if (client.status === 'ready') return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), 2000);
        client.once('ready', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    async close() {
      client.disconnect();
    },
  };
}
