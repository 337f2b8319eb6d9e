/**
 * What the console shows to share a form (issue #36 item 3): the hosted page's absolute link and
 * the embed snippets, or why the form has no page.
 */
import { resolveLanguage, type Form } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { bundleVariant } from './hosted-bundle.js';
import { embedSnippets } from './hosted-frame-script.js';
import { isHosted } from './hosted-headers.js';

export interface HostedShare {
  readonly url: string | null;
  readonly reason: string | null;
  readonly snippets: { readonly script: string; readonly iframe: string } | null;
}

/**
 * @example
 * hostedShare(ctx, form, 'https://forms.example.com').url; // 'https://forms.example.com/f/contact'
 */
export function hostedShare(ctx: AppContext, form: Form, origin: string): HostedShare {
  if (!form.settings.hostedPage) return { url: null, reason: 'This form has no hosted page: set settings.hostedPage: true in its file.', snippets: null };
  if (!isHosted(ctx, form)) return { url: null, reason: 'This form has settings.hostedPage, but headless.forms does not expose its manifest and allow submits, so its page answers 404.', snippets: null };
  const prefix = ctx.config.hosted.prefix;
  const variant = bundleVariant(form, resolveLanguage(ctx.sites.defaultSite.language));
  return { url: `${origin}${prefix}/${form.handle}`, reason: null, snippets: embedSnippets(origin, prefix, form.handle, form.name, variant) };
}
