/**
 * Signed, short-lived file download URLs (issue #5): the admin API hands out
 * `/svc/api/admin/files/{id}/download?expires=…&signature=…`, an HMAC (under a key derived from the
 * server secret) of the file id and the expiry. The link is the credential, so a browser or a
 * mail client can follow it without the API key; it stops working after `admin.downloadUrlMinutes`.
 */
import { deriveKey, hmac, safeEqual } from '../security/token-crypto.js';

export interface DownloadLinks {
  /** Path and query of a link valid until now + the configured lifetime. */
  create(fileId: string): string;
  /** Whether `signature` signs `fileId` until `expires` and that moment has not passed. */
  verify(fileId: string, expires: string | undefined, signature: string | undefined): boolean;
}

export const DOWNLOAD_PATH_PREFIX = '/svc/api/admin/files/';

export function createDownloadLinks(secret: string, lifetimeMinutes: number, now: () => Date): DownloadLinks {
  const key = deriveKey(secret, 'admin-file-download');
  const sign = (fileId: string, expires: number) => hmac(key, `${fileId}\n${expires}`);
  return {
    create(fileId) {
      const expires = Math.floor(now().getTime() / 1000) + lifetimeMinutes * 60;
      return `${DOWNLOAD_PATH_PREFIX}${encodeURIComponent(fileId)}/download?expires=${expires}&signature=${sign(fileId, expires)}`;
    },
    verify(fileId, expires, signature) {
      if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires)) return false;
      const at = Number(expires);
      // The signature is checked even for an expired link, so both failures take the same time.
      const valid = safeEqual(sign(fileId, at), signature);
      return valid && at * 1000 > now().getTime();
    },
  };
}

/** `attachment` with an ASCII fallback name and the exact name in RFC 5987 form. */
export function attachmentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** What a browser shows by itself without running anything of the file's: raster images and PDF. */
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf']);

/**
 * How a signed file is answered (issue #35): `inline` only when asked for and only for the types
 * above (types are sniffed from the bytes at upload, never taken from the client), an attachment
 * otherwise; always under a sandboxing CSP, except an inline PDF: Chromium will not start its PDF
 * viewer in a sandboxed document ("This page has been blocked"), so a PDF shown in the browser
 * gets `default-src 'none'` without `sandbox` (the viewer is its own isolated process).
 */
export function fileResponseHeaders(mime: string, name: string, inline: boolean): { disposition: string; csp: string } {
  const attachment = attachmentDisposition(name);
  if (!inline || !INLINE_TYPES.has(mime)) return { disposition: attachment, csp: "default-src 'none'; sandbox" };
  return { disposition: attachment.replace(/^attachment/, 'inline'), csp: mime === 'application/pdf' ? "default-src 'none'" : "default-src 'none'; sandbox" };
}
