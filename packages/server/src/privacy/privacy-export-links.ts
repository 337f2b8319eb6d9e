/**
 * The short-lived signed link an export is fetched through (issue #37 item 4), made the way the
 * file download links are (admin/download-links.ts: HMAC under a key derived from the secret, an
 * expiry, the same check for a forged and an expired link), under its own key, so neither link
 * can stand for the other. The link names the subject by its keyed hash (never the value: links
 * land in access logs) and the account that asked: at download the account must still exist and
 * still hold the privacy scope, and the zip holds what it may read then.
 */
import { deriveKey, hmac, safeEqual } from '../security/token-crypto.js';
import type { AdminAccount } from '../admin/admin-keys.js';
import type { Subject } from './privacy-blind-index.js';

export const EXPORT_DOWNLOAD_PATH = '/svc/api/admin/privacy/exports/download';

export interface ExportLinkTarget {
  readonly subject: Subject;
  readonly account: { readonly kind: AdminAccount['kind']; readonly name: string };
}

export interface ExportLinks {
  /** Path and query of a link valid for the configured minutes, and when it expires. */
  create(target: ExportLinkTarget): { path: string; expiresAt: string };
  /** The target a link's query signs, while it is valid; else null. */
  verify(query: Readonly<Record<string, unknown>>): ExportLinkTarget | null;
}

const SUBJECT = /^(email|identifier)\.([A-Za-z0-9_-]{43})$/;
const ACCOUNT = /^(key|user):([\x21-\x7e]{1,128})$/;

export function createExportLinks(secret: string, lifetimeMinutes: number, now: () => Date): ExportLinks {
  const key = deriveKey(secret, 'privacy-export-link');
  const sign = (subject: string, account: string, expires: number) => hmac(key, `${subject}\n${account}\n${expires}`);
  return {
    create({ subject, account }) {
      const expires = Math.floor(now().getTime() / 1000) + lifetimeMinutes * 60;
      const s = `${subject.kind}.${subject.hash}`;
      const a = `${account.kind}:${account.name}`;
      const query = new URLSearchParams({ subject: s, account: a, expires: String(expires), signature: sign(s, a, expires) });
      return { path: `${EXPORT_DOWNLOAD_PATH}?${query}`, expiresAt: new Date(expires * 1000).toISOString() };
    },
    verify(query) {
      const { subject, account, expires, signature } = query;
      if (typeof subject !== 'string' || typeof account !== 'string' || typeof expires !== 'string' || typeof signature !== 'string') return null;
      const s = SUBJECT.exec(subject);
      const a = ACCOUNT.exec(account);
      if (!s || !a || !/^\d{1,12}$/.test(expires)) return null;
      const at = Number(expires);
      // The signature is checked even for an expired link, so both failures take the same time.
      const valid = safeEqual(sign(subject, account, at), signature);
      if (!valid || at * 1000 <= now().getTime()) return null;
      return { subject: { kind: s[1] as Subject['kind'], hash: s[2] as string }, account: { kind: a[1] as AdminAccount['kind'], name: a[2] as string } };
    },
  };
}
