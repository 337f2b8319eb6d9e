/**
 * The headers of a hosted page (issue #36 item 4): a strict CSP (scripts and stylesheets from svc
 * only, the element's one shadow `<style>` allowed by its hash, no 'unsafe-inline'), `noindex`
 * unless the form opts in, no caching (a page may carry a draft's token), and a Referer only to
 * svc itself, which its classic post needs to come back to the page.
 */
import type { Form } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import type { ThirdParties } from './hosted-third-parties.js';

export interface HostedPolicy {
  readonly indexable: boolean;
  /** The form drawn; null for a message page. */
  readonly form: Form | null;
  /** CSP source of the element's shadow stylesheet. */
  readonly styleHash: string;
  /** A captcha's or payment's origins (hosted-third-parties.ts); none for a message page. */
  readonly thirdParties?: ThirdParties;
}

/** Whether the page can work: the form's manifest and submits are open to front ends. */
export function isHosted(ctx: AppContext, form: Form): boolean {
  const switches = ctx.config.headless.forms[form.handle];
  return ctx.config.headless.enabled && switches?.exposeManifest === true && switches.allowSubmit === true;
}

function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * @example
 * reply.headers(hostedHeaders(ctx, { indexable: false, form, styleHash }));
 */
export function hostedHeaders(ctx: AppContext, policy: HostedPolicy): Record<string, string> {
  const form = policy.form;
  // Chromium applies form-action to the redirect after a post too: the form's return URL is allowed.
  const returnOrigin = originOf(form?.settings.returnUrl);
  // An https logo is drawn from its own origin; a path is svc's ('self').
  const logo = (form?.settings.hostedTheme as { logo?: { url?: string } } | null)?.logo?.url ?? (ctx.config.hosted.theme as { logo?: { url?: string } }).logo?.url;
  const logoOrigin = originOf(logo);
  // Embedding in an iframe: svc itself and the origins the form's front ends are allowed from.
  const frameOrigins = form ? [...ctx.config.headless.allowedOrigins, ...(ctx.config.headless.forms[form.handle]?.allowedOrigins ?? [])] : [];
  const extra = (kind: keyof ThirdParties) => (policy.thirdParties?.[kind] ?? []).map((origin) => ` ${origin}`).join('');
  const csp = [
    "default-src 'none'",
    `script-src 'self'${extra('script')}`,
    `style-src 'self' ${policy.styleHash}${extra('style')}`,
    `img-src 'self' data:${logoOrigin ? ` ${logoOrigin}` : ''}`,
    `connect-src 'self'${extra('connect')}`,
    ...(policy.thirdParties && policy.thirdParties.frame.length > 0 ? [`frame-src${extra('frame')}`] : []),
    `form-action 'self'${returnOrigin ? ` ${returnOrigin}` : ''}`,
    "base-uri 'none'",
    `frame-ancestors 'self'${frameOrigins.map((origin) => ` ${origin}`).join('')}`,
  ].join('; ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'same-origin',
    'x-content-type-options': 'nosniff',
    'content-security-policy': csp,
    ...(policy.indexable ? {} : { 'x-robots-tag': 'noindex, nofollow' }),
  };
}
