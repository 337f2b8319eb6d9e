/**
 * Stateless CSRF tokens (contract §3): a random binding value lives in an HttpOnly cookie and the
 * token is an HMAC over (binding, issue time, nonce) under a key derived from the server secret.
 * Any instance holding the secret verifies any other's token; nothing is stored.
 */
import { deriveKey, hmac, randomToken, safeEqual } from './token-crypto.js';
import { isBrowserBinding, newBrowserBinding } from './browser-binding.js';
import { createBoundedMemo } from './bounded-memo.js';

export const CSRF_FIELD_NAME = 'SVC_CSRF_TOKEN';

export interface CsrfTokens {
  /** A fresh binding value for a client that has no (valid) cookie yet. */
  newBinding(): string;
  isBinding(value: string | undefined): value is string;
  issue(binding: string, now?: number): string;
  verify(binding: string | undefined, token: string | undefined, now?: number): boolean;
}

export function createCsrfTokens(secret: string, ttlMinutes: number): CsrfTokens {
  const key = deriveKey(secret, 'csrf');
  const ttlMs = ttlMinutes * 60_000;
  const isBinding = isBrowserBinding;
  // A page sends its one token with every submit: each (binding, token) pair whose HMAC was right
  // is remembered with its issue time, which is still checked on every use (issue #17).
  const genuine = createBoundedMemo<number>(4096);
  return {
    newBinding: newBrowserBinding,
    isBinding,
    issue(binding, now = Date.now()) {
      const issued = now.toString(36);
      const nonce = randomToken(12);
      return `${issued}.${nonce}.${hmac(key, `${binding}.${issued}.${nonce}`)}`;
    },
    verify(binding, token, now = Date.now()) {
      if (!isBinding(binding) || typeof token !== 'string' || token.length > 200) return false;
      const pair = `${binding} ${token}`;
      let issuedAt = genuine.get(pair);
      if (issuedAt === undefined) {
        const [issued, nonce, mac, extra] = token.split('.');
        if (!issued || !nonce || !mac || extra !== undefined) return false;
        issuedAt = Number.parseInt(issued, 36);
        if (!Number.isFinite(issuedAt) || !safeEqual(mac, hmac(key, `${binding}.${issued}.${nonce}`))) return false;
        genuine.set(pair, issuedAt);
      }
      // A small allowance for clock skew between instances.
      return issuedAt <= now + 60_000 && now - issuedAt <= ttlMs;
    },
  };
}
