/**
 * The hosted room (issue #36): a page per form at `<hosted.prefix>/<handle>` for forms with
 * `settings.hostedPage: true`, drawn by `<svc-form>` with the classic form inside it for browsers
 * without JavaScript; its theme stylesheet; the element's lean bundles; and signed profile links
 * opened as that page. One plugin entry for the composition root.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorMessage, resolveLanguage, SvcError, textDirection, type Form } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { NOT_A_VIEW_HEADER } from '../forms/manifest-builder.js';
import { escapeHtml } from '../http/html-page.js';
import type { ClassicPageProperties } from '../demo/demo-classic-page.js';
import type { Site } from '../sites/site-registry.js';
import { authorizeProfile } from '../profiles/profile-access.js';
import type { ProfileFeature } from '../profiles/profiles-feature.js';
import { queryPropertyEntries } from '../profiles/profile-properties.js';
import { bundleVariant, elementStylesHash, hostedFile } from './hosted-bundle.js';
import { renderFallbackForm } from './hosted-fallback.js';
import { demoLanguage } from '../demo/demo-language.js';
import { hostedHeaders, isHosted, type HostedPolicy } from './hosted-headers.js';
import { renderElement, renderHostedDocument } from './hosted-page.js';
import { renderThemeCss } from './hosted-styles.js';
import { resolveTheme, type HostedTheme } from './hosted-theme.js';
import { etagOf, sendCached } from './hosted-cache.js';
import { HOSTED_FRAME_JS } from './hosted-frame-script.js';
import { thirdParties } from './hosted-third-parties.js';

type Query = Readonly<Record<string, unknown>>;

function text(query: Query, name: string): string | null {
  const value = query[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

export async function registerHosted(app: FastifyInstance, ctx: AppContext, deps: { readonly profiles: ProfileFeature }): Promise<void> {
  const { config } = ctx;
  const prefix = config.hosted.prefix;
  const siteTheme = config.hosted.theme as HostedTheme;
  const publicUrl = config.server.publicUrl?.replace(/\/$/, '') ?? null;
  const assets = `${prefix}/_`;
  const siteCss = renderThemeCss(resolveTheme(siteTheme, null));
  const themeOf = (form: Form) => renderThemeCss(resolveTheme(siteTheme, form.settings.hostedTheme as HostedTheme | null));

  for (const form of ctx.forms.list()) {
    if (form.settings.hostedPage && !isHosted(ctx, form)) app.log.warn({ form: form.handle }, 'settings.hostedPage is on but headless.forms does not expose the manifest and allow submits; its page answers 404');
  }

  /** A page with a heading and lines of text: not found, a spent link, a refused link. Same for every form. */
  const messagePage = async (reply: FastifyReply, status: number, language: string, title: string, lines: readonly string[], form: Form | null) => {
    const policy: HostedPolicy = { indexable: false, form: null, styleHash: await elementStylesHash() };
    const body = lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n');
    return reply
      .code(status)
      .headers(hostedHeaders(ctx, policy))
      .send(renderHostedDocument({
        title, description: null, language, dir: textDirection(language), indexable: false, canonicalUrl: null,
        stylesheet: form ? `${prefix}/${form.handle}/theme.css` : `${assets}/theme.css`, script: null, frameScript: null, logo: null, body,
      }));
  };
  const notFound = (reply: FastifyReply, site: Site) => messagePage(reply, 404, site.language, errorMessage(site.language, 'FORM_NOT_FOUND'), [], null);

  app.get<{ Params: { handle: string }; Querystring: Query }>(`${prefix}/:handle`, async (request, reply) => {
    const query = request.query ?? {};
    let site: Site;
    try {
      site = ctx.sites.resolve(text(query, 'site') ?? undefined);
    } catch {
      return notFound(reply, ctx.sites.defaultSite);
    }
    const form = ctx.forms.get(request.params.handle);
    // One answer for a form that does not exist and one that has no page: nothing leaks.
    if (!form || !form.settings.hostedPage || !isHosted(ctx, form)) return notFound(reply, site);
    const siteForm = ctx.localize(form, site.language);
    const language = resolveLanguage(site.language);
    const named = text(query, 'site');
    const profileName = text(query, 'profile');
    const siteQuery = named ? `&site=${encodeURIComponent(named)}` : '';
    // A form of several pages may be saved for later; its link comes back to this page.
    const drafts: Record<string, string> = form.pages.length > 1 ? { 'allow-save': '', 'resume-url': `${prefix}/${form.handle}?token={token}&key={key}${siteQuery}` } : {};
    const attributes: Record<string, string | null> = { handle: form.handle, site: named, lang: site.language, ...drafts };
    let fallback = '';
    let script: string | null = `${assets}/svc-form.${bundleVariant(form, language)}.js`;
    if (profileName) {
      const opened = await openProfile(request, profileName, form, query);
      if (opened instanceof SvcError) return messagePage(reply, opened.status, site.language, errorMessage(site.language, opened.code), [], form);
      Object.assign(attributes, { handle: null, site: null, 'allow-save': null, 'resume-url': null, profile: profileName, token: text(query, 'token'), properties: JSON.stringify(opened.properties) });
    } else {
      const token = text(query, 'token');
      const key = text(query, 'key');
      // A resume link (the element's own, which comes back to this page) carries the draft.
      if (token && key && (text(query, 'form') ?? form.handle) === form.handle) Object.assign(attributes, { 'draft-token': token, 'draft-key': key });
      const properties = await classicProperties(form, named, text(query, 'svc_flash'));
      if (properties === undefined) return notFound(reply, site);
      if (properties?.finished) {
        // The no-JavaScript post is done: the success page, drawn without the element.
        fallback = `<p class="done" role="status">${escapeHtml(properties.message ?? properties.successMessage)}</p>`;
        script = null;
      } else if (properties) {
        // The properties' action already names the site (`/svc/submit?site=de`).
        fallback = renderFallbackForm(properties, demoLanguage(site));
      }
    }
    // The captcha's and payment's scripts, as the manifest the element reads names them.
    const manifest = ctx.manifests.get(siteForm, site).data;
    const policy: HostedPolicy = { indexable: form.settings.hostedIndexable, form, styleHash: await elementStylesHash(), thirdParties: thirdParties(manifest) };
    const theme = resolveTheme(siteTheme, form.settings.hostedTheme as HostedTheme | null);
    const css = themeOf(form);
    return reply.headers(hostedHeaders(ctx, policy)).send(renderHostedDocument({
      title: siteForm.name,
      description: siteForm.settings.description,
      language: site.language,
      dir: textDirection(site.language),
      indexable: form.settings.hostedIndexable,
      canonicalUrl: publicUrl ? `${publicUrl}${prefix}/${form.handle}${named ? `?site=${encodeURIComponent(named)}` : ''}` : null,
      // The version in the address lets a changed theme show at once, whatever a cache kept.
      stylesheet: `${prefix}/${form.handle}/theme.css?v=${etagOf(css).slice(1, 9)}`,
      script,
      // In an iframe (the console's embed snippet) the page reports its height to the embedding page.
      frameScript: text(query, 'embed') === '1' ? `${assets}/hosted-frame.js` : null,
      logo: theme.logo,
      body: script === null ? fallback : renderElement(attributes, fallback),
    }));
  });

  app.get<{ Params: { handle: string } }>(`${prefix}/:handle/theme.css`, async (request, reply) => {
    const form = ctx.forms.get(request.params.handle);
    const css = form && form.settings.hostedPage && isHosted(ctx, form) ? themeOf(form) : null;
    if (css === null) return reply.code(404).type('text/css; charset=utf-8').send('');
    return sendCached(request, reply, 'text/css; charset=utf-8', css, 'no-cache');
  });
  app.get(`${assets}/theme.css`, async (request, reply) => sendCached(request, reply, 'text/css; charset=utf-8', siteCss, 'no-cache'));
  app.get(`${assets}/hosted-frame.js`, async (request, reply) => sendCached(request, reply, 'text/javascript; charset=utf-8', HOSTED_FRAME_JS, 'public, max-age=300'));
  app.get<{ Params: { file: string } }>(`${assets}/:file`, async (request, reply) => {
    // The element's bundles and the phone variants' chunk (hosted-bundle.ts); any other name is not found.
    const bundle = await hostedFile(request.params.file);
    if (!bundle) throw new SvcError('ROUTE_NOT_FOUND');
    // Public, like the demo's bundle: the embed snippet loads it (and its chunk) from another origin.
    reply.header('Access-Control-Allow-Origin', '*');
    return sendCached(request, reply, 'text/javascript; charset=utf-8', bundle.code, 'public, max-age=300', bundle.etag);
  });

  /**
   * The classic page state (fresh, or what a post's flash left) through the properties route, as
   * any site reads it; null without the classic routes, undefined when they refuse the form.
   */
  async function classicProperties(form: Form, site: string | null, flash: string | null): Promise<ClassicPageProperties | null | undefined> {
    if (!config.classic.enabled) return null;
    const search = new URLSearchParams();
    if (site) search.set('site', site);
    if (flash) search.set('flash', flash);
    const url = `${config.classic.propertiesPath.replace('{handle}', encodeURIComponent(form.handle))}${search.size > 0 ? `?${search}` : ''}`;
    // The page's element reads the manifest, and that is the view (issue #38); this is not another.
    const answer = await app.inject({ method: 'GET', url, headers: { [NOT_A_VIEW_HEADER]: '1' } });
    // Not served (the form's switches changed under us): the page is not there either.
    if (answer.statusCode !== 200) return undefined;
    return answer.json<ClassicPageProperties>();
  }

  /** A signed link's profile, checked as its manifest would be: a refused or spent link is a page, not JSON. */
  async function openProfile(request: FastifyRequest, name: string, form: Form, query: Query) {
    try {
      const profile = deps.profiles.registry.resolve(name);
      if (profile.form.handle !== form.handle) throw new SvcError('PROFILE_NOT_FOUND');
      // The page's own parameters are not the profile's; anything else is checked as a property.
      const { profile: _profile, site: _site, embed: _embed, ...rest } = query;
      const access = await authorizeProfile(deps.profiles.services, profile, {
        properties: queryPropertyEntries(rest),
        authorization: request.headers.authorization,
        token: query['token'],
        purpose: 'manifest',
      });
      return { properties: access.properties };
    } catch (error) {
      if (error instanceof SvcError) return error;
      throw error;
    }
  }
}

