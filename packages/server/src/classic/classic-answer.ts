/**
 * How a classic post is answered (contract §10): JSON for a script (`Accept: application/json` or
 * `X-Requested-With: XMLHttpRequest`), with the keys a Freeform ajax client reads; otherwise a 303
 * redirect, to the form's return URL when it is finished, else back to the page that posted with
 * a one-time flash key. A redirect only ever goes to an origin the form allows: never an open one.
 */
import type { FastifyRequest } from 'fastify';
import type { SubmitBody } from '../submissions/submit-response.js';
import type { OriginPolicy } from '../security/origin-policy.js';

export const FLASH_PARAM = 'svc_flash';

/** Whether the poster is a script that wants JSON rather than a page to go to. */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '');
  return /\bapplication\/json\b/i.test(accept) || String(request.headers['x-requested-with'] ?? '').toLowerCase() === 'xmlhttprequest';
}

/** The JSON answer: the submit object's outcome under the names a Freeform ajax client reads. */
export function classicJson(body: SubmitBody, next: { payload: string | null; hash: string; honeypot: { name: string; value: string } | null }) {
  return {
    success: body.success,
    finished: body.complete,
    status: body.status,
    submissionId: body.submission?.id ?? null,
    submissionToken: body.submission?.token ?? null,
    errors: body.errors.fields,
    formErrors: body.errors.form,
    message: body.message,
    returnUrl: body.redirect?.url ?? null,
    page: { index: body.page.currentIndex, total: body.page.total },
    hash: next.hash,
    svc_payload: next.payload,
    honeypot: next.honeypot,
    draft: body.draft,
  };
}

/** Where a refused or unfinished post goes back to: an absolute URL, or a path on this service. */
export interface BackLink {
  readonly url: URL;
  /** Send only the path: the browser stays on the host it posted to, whatever Host header came with it. */
  readonly relative: boolean;
}

/**
 * Where the browser came from, when the form may send it back there (issue #32 item 7). An
 * absolute URL is never built from the Host header, which the poster chooses: the Referer's origin
 * must be one the form allows, or `server.publicUrl`'s. Without publicUrl, a Referer on the host
 * the post came in on is followed by its path alone, which the browser resolves against the host
 * it really posted to. Null otherwise (then a plain page answers instead).
 */
export function safeReferer(request: FastifyRequest, policy: OriginPolicy, publicUrl: string | null, isSameOrigin: (origin: string) => boolean): BackLink | null {
  const referer = request.headers.referer;
  if (typeof referer !== 'string' || referer.length > 4096) return null;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (policy.check(url.origin) === 'credentialed') return { url, relative: false };
  if (publicUrl !== null) return url.origin === new URL(publicUrl).origin ? { url, relative: false } : null;
  return isSameOrigin(url.origin) ? { url, relative: true } : null;
}

/** The page to go back to, with the flash key in place of any earlier one and no fragment kept but the form's anchor. */
export function backTo(back: BackLink, flashKey: string, anchor: string): string {
  const url = new URL(back.url);
  url.searchParams.set(FLASH_PARAM, flashKey);
  url.hash = anchor;
  if (!back.relative) return url.toString();
  // `//host/…` would be read as another host: a path always starts with exactly one slash.
  return `/${url.pathname.replace(/^\/+/, '')}${url.search}${url.hash}`;
}

/**
 * The form's `returnUrl` with `{id}`, `{token}` and `{<field handle>}` filled in, each value
 * URL-encoded so an answer can only ever be data in the URL, never change where it points.
 *
 * @example
 * returnUrlFor('https://site.test/thanks?id={id}&name={firstName}', { id: 7, token: 't' }, { firstName: 'Ann Lee' });
 * // 'https://site.test/thanks?id=7&name=Ann%20Lee'
 */
export function returnUrlFor(template: string, submission: { readonly id: number; readonly token: string } | null, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{([A-Za-z][A-Za-z0-9_]{0,63})\}/g, (_whole, name: string) => {
    const value = name === 'id' ? submission?.id : name === 'token' ? submission?.token : values[name];
    const text = Array.isArray(value) ? value.join(',') : value === undefined || value === null ? '' : String(value);
    return encodeURIComponent(text);
  });
}
