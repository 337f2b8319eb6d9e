/**
 * Signed fill timestamps for the minimum fill time (issue #4): the manifest's honeypot carries
 * `issued.mac`, the client sends it back, and a submit sooner than the form's minimumFillSeconds
 * after issue is spam. Manifests are cached, so a client may hold an older timestamp; that only
 * makes the check more lenient, never wrong for a person filling the form.
 */
import type { Form } from '@svc/core';
import { deriveKey, hmac, safeEqual } from './token-crypto.js';

/** The placeholder the cached manifest bytes hold where each response splices a fresh timestamp. */
export const FILL_TIMESTAMP_PLACEHOLDER = '__svc_fill_timestamp__';

/**
 * Between the javascript test's value and the timestamp it also carries; never in either part
 * (the value is base64url, the timestamp base36 and hex).
 */
export const FILL_TIMESTAMP_SEPARATOR = '~';

export interface FillTimestamps {
  issue(form: Form, now: number): string;
  /** Seconds since issue, or null when the timestamp is missing, forged or for another form. */
  age(form: Form, timestamp: string | undefined, now: number): number | null;
}

export function createFillTimestamps(secret: string): FillTimestamps {
  const key = deriveKey(secret, 'fill-timestamp');
  // The last timestamp issued per form: every manifest served in the same millisecond carries
  // the same one, so its HMAC is computed once per millisecond, not per response (issue #17).
  const last = new WeakMap<Form, { readonly now: number; readonly value: string }>();
  return {
    issue(form, now) {
      const previous = last.get(form);
      if (previous?.now === now) return previous.value;
      const issued = now.toString(36);
      const value = `${issued}.${hmac(key, `${form.uid}.${issued}`)}`;
      last.set(form, { now, value });
      return value;
    },
    age(form, timestamp, now) {
      if (typeof timestamp !== 'string') return null;
      const [issued, mac, extra] = timestamp.split('.');
      if (!issued || !mac || extra !== undefined || !safeEqual(mac, hmac(key, `${form.uid}.${issued}`))) return null;
      const at = Number.parseInt(issued, 36);
      return Number.isFinite(at) ? (now - at) / 1000 : null;
    },
  };
}
