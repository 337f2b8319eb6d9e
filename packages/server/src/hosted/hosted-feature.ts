/**
 * The hosted room (issue #36): a page per form at `<hosted.prefix>/<handle>` for forms with
 * `settings.hostedPage: true`, drawn by `<svc-form>` with the classic form inside it for browsers
 * without JavaScript; its theme stylesheet; the element's lean bundles; and signed profile links
 * opened as that page, whose no-JavaScript form posts back to it (hosted-profile-fallback.ts). One
 * plugin entry for the composition root.
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
import { queryPropertyEntries, type PropertyValues } from '../profiles/profile-properties.js';
import type { ResolvedProfile } from '../profiles/profile-registry.js';
import type { ProfileContext } from '../profiles/profile-context.js';
import { submitThroughProfile } from '../profiles/profile-submit.js';
import { withLimit } from '../http/rate-limit-hooks.js';
import type { Entries } from '../classic/classic-entries.js';
import { hasProfileFallback, postedFillTimestamp, profileFallback, readProfilePost, type ProfileFormState } from './hosted-profile-fallback.js';
import { bundleVariant, elementStylesHash, hostedFile } from './hosted-bundle.js';
import { classicFallback, renderFallbackForm } from './hosted-fallback.js';
import { demoLanguage } from '../demo/demo-language.js';
import { hostedHeaders, isHosted, type HostedPolicy } from './hosted-headers.js';
import { renderElement, renderHostedDocument } from './hosted-page.js';
import { renderThemeCss } from './hosted-styles.js';
import { resolveTheme, type HostedTheme } from './hosted-theme.js';
import { etagOf, sendCached } from './hosted-cache.js';
import { HOSTED_FRAME_JS } from './hosted-frame-script.js';
import { thirdParties } from './hosted-third-parties.js';

type Query = Readonly<Record<string, unknown>>;

/** A profile link that opened: the profile, the properties as the query gave and as checked, its context. */
interface OpenedProfile {
  readonly profile: ResolvedProfile;
  readonly entries: readonly (readonly [string, unknown])[];
  readonly properties: PropertyValues;
  readonly context: ProfileContext;
}

/** A form-encoded body as this room's parser made it. */
class PostedEntries {
  constructor(readonly entries: Entries) {}
}

function done(message: string): string {
  return `<p class="done" role="status">${escapeHtml(message)}</p>`;
}

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

  /** What a form's page needs of a request: its site and the form, or the 404 page already sent. */
  const pageTarget = async (reply: FastifyReply, handle: string, query: Query) => {
    let site: Site;
    try {
      site = ctx.sites.resolve(text(query, 'site') ?? undefined);
    } catch {
      await notFound(reply, ctx.sites.defaultSite);
      return null;
    }
    const form = ctx.forms.get(handle);
    // One answer for a form that does not exist and one that has no page: nothing leaks.
    if (!form || !form.settings.hostedPage || !isHosted(ctx, form)) {
      await notFound(reply, site);
      return null;
    }
    return { form, site, siteForm: ctx.localize(form, site.language), named: text(query, 'site') };
  };
  type PageTarget = NonNullable<Awaited<ReturnType<typeof pageTarget>>>;

  /** The form's page: `<svc-form>` with `attributes` around the no-JavaScript `fallback`, or the fallback alone without a script. */
  const formPage = async (reply: FastifyReply, status: number, target: PageTarget, query: Query, page: { attributes: Record<string, string | null>; fallback: string; script: string | null }) => {
    const { form, site, siteForm, named } = target;
    // The captcha's and payment's scripts, as the manifest the element reads names them.
    const manifest = ctx.manifests.get(siteForm, site).data;
    const policy: HostedPolicy = { indexable: form.settings.hostedIndexable, form, styleHash: await elementStylesHash(), thirdParties: thirdParties(manifest) };
    const theme = resolveTheme(siteTheme, form.settings.hostedTheme as HostedTheme | null);
    const css = themeOf(form);
    return reply.code(status).headers(hostedHeaders(ctx, policy)).send(renderHostedDocument({
      title: siteForm.name,
      description: siteForm.settings.description,
      language: site.language,
      dir: textDirection(site.language),
      indexable: form.settings.hostedIndexable,
      canonicalUrl: publicUrl ? `${publicUrl}${prefix}/${form.handle}${named ? `?site=${encodeURIComponent(named)}` : ''}` : null,
      // The version in the address lets a changed theme show at once, whatever a cache kept.
      stylesheet: `${prefix}/${form.handle}/theme.css?v=${etagOf(css).slice(1, 9)}`,
      script: page.script,
      // In an iframe (the console's embed snippet) the page reports its height to the embedding page.
      frameScript: text(query, 'embed') === '1' ? `${assets}/hosted-frame.js` : null,
      logo: theme.logo,
      body: page.script === null ? page.fallback : renderElement(page.attributes, page.fallback),
    }));
  };

  const scriptOf = (target: PageTarget) => `${assets}/svc-form.${bundleVariant(target.form, resolveLanguage(target.site.language))}.js`;

  /** A profile link's page: the element with the link's context, and its no-JavaScript form where it can work. */
  const profilePage = (reply: FastifyReply, status: number, target: PageTarget, query: Query, opened: OpenedProfile, state: ProfileFormState) => {
    const { form, site, siteForm } = target;
    const attributes = { lang: site.language, profile: opened.profile.name, token: text(query, 'token'), properties: JSON.stringify(opened.properties) };
    const manifest = ctx.manifests.get(siteForm, site).data;
    const fallback = hasProfileFallback(opened.profile) ? renderFallbackForm(profileFallback(form, manifest, ctx.submit.spamFields, pageUrl(form, query), state), demoLanguage(site)) : '';
    return formPage(reply, status, target, query, { attributes, fallback, script: scriptOf(target) });
  };

  app.get<{ Params: { handle: string }; Querystring: Query }>(`${prefix}/:handle`, async (request, reply) => {
    const query = request.query ?? {};
    const target = await pageTarget(reply, request.params.handle, query);
    if (!target) return reply;
    const { form, site, named } = target;
    const profileName = text(query, 'profile');
    if (profileName) {
      const opened = await openProfile(request, profileName, form, query);
      if (opened instanceof SvcError) return messagePage(reply, opened.status, site.language, errorMessage(site.language, opened.code), [], form);
      // The link's context fills the form: its default values, and the locked ones it forces anyway.
      const { defaultValues, lockedFields } = opened.context;
      const fillTimestamp = form.settings.spam.honeypot || form.settings.spam.minimumFillSeconds > 0 ? ctx.submit.fillTimestamps.issue(form, ctx.submit.now().getTime()) : null;
      return profilePage(reply, 200, target, query, opened, { pageIndex: 0, values: { ...defaultValues, ...lockedFields }, fresh: true, errors: {}, formErrors: [], stateToken: null, fillTimestamp });
    }
    const siteQuery = named ? `&site=${encodeURIComponent(named)}` : '';
    // A form of several pages may be saved for later; its link comes back to this page.
    const drafts: Record<string, string> = form.pages.length > 1 ? { 'allow-save': '', 'resume-url': `${prefix}/${form.handle}?token={token}&key={key}${siteQuery}` } : {};
    const attributes: Record<string, string | null> = { handle: form.handle, site: named, lang: site.language, ...drafts };
    const token = text(query, 'token');
    const key = text(query, 'key');
    // A resume link (the element's own, which comes back to this page) carries the draft.
    if (token && key && (text(query, 'form') ?? form.handle) === form.handle) Object.assign(attributes, { 'draft-token': token, 'draft-key': key });
    const properties = await classicProperties(form, named, text(query, 'svc_flash'));
    if (properties === undefined) return notFound(reply, site);
    // The no-JavaScript post is done: the success page, drawn without the element.
    if (properties?.finished) return formPage(reply, 200, target, query, { attributes, fallback: done(properties.message ?? properties.successMessage), script: null });
    // The properties' action already names the site (`/svc/submit?site=de`).
    const fallback = properties ? renderFallbackForm(classicFallback(properties), demoLanguage(site)) : '';
    return formPage(reply, 200, target, query, { attributes, fallback, script: scriptOf(target) });
  });

  await app.register(async (scope) => {
    // Entries in order, repeated names kept, as the classic route reads a form post.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, new PostedEntries([...new URLSearchParams(body as string)])));
    /**
     * A signed profile link's form posted without JavaScript (hosted-profile-fallback.ts): to the
     * page's own address, so the link's token and properties come in its query. Refused values
     * draw the page again with their errors; the next page of a longer form likewise; done, the
     * form's return URL or its success page. A spent or refused link is the page that says so.
     */
    scope.post<{ Params: { handle: string }; Querystring: Query }>(`${prefix}/:handle`, { onRequest: withLimit(ctx.guard, ctx.limits.submit) }, async (request, reply) => {
      const query = request.query ?? {};
      const target = await pageTarget(reply, request.params.handle, query);
      if (!target) return reply;
      const { form, site } = target;
      const profileName = text(query, 'profile');
      // Only a profile link's form posts here; the classic form posts to the classic route.
      if (!profileName) return notFound(reply, site);
      const opened = await openProfile(request, profileName, form, query);
      if (opened instanceof SvcError) return messagePage(reply, opened.status, site.language, errorMessage(site.language, opened.code), [], form);
      if (!hasProfileFallback(opened.profile) || !(request.body instanceof PostedEntries)) return messagePage(reply, 400, site.language, errorMessage(site.language, 'PAYLOAD_INVALID'), [], form);
      const entries = request.body.entries;
      let result: Awaited<ReturnType<typeof submitThroughProfile>>;
      let post: ReturnType<typeof readProfilePost>;
      try {
        post = readProfilePost(form, entries, ctx.submit.spamFields);
        result = await submitThroughProfile(ctx.submit, deps.profiles.services, opened.profile, {
          request: post.request,
          site,
          properties: opened.entries,
          authorization: undefined,
          token: query['token'],
          // Refused unless the link stands in for it, which hasProfileFallback makes sure of.
          csrf: { binding: undefined, token: undefined },
          ip: request.ip,
        });
      } catch (error) {
        if (error instanceof SvcError) return messagePage(reply, error.status, site.language, errorMessage(site.language, error.code), [], form);
        throw error;
      }
      const body = result.body;
      if (body.complete) {
        // The form's return URL (its CSP's form-action allows the browser to follow), else the success page.
        if (body.redirect?.url) return reply.redirect(body.redirect.url, 303);
        return formPage(reply, 200, target, query, { attributes: {}, fallback: done(body.message ?? target.siteForm.settings.successMessage), script: null });
      }
      const refused = !body.success;
      return profilePage(reply, refused ? result.httpStatus : 200, target, query, opened, {
        pageIndex: refused ? post.pageIndex : body.page.currentIndex,
        // Refused: what was typed, shown again; the next page: the state's values so far.
        values: refused ? { ...post.request.values, ...opened.context.lockedFields } : body.state.values,
        fresh: false,
        errors: body.errors.fields,
        formErrors: body.errors.form,
        stateToken: body.state.token,
        fillTimestamp: postedFillTimestamp(entries),
      });
    });
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

  /** A page's address with its query (a profile link's form posts back to it). */
  function pageUrl(form: Form, query: Query): string {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (typeof value === 'string') search.append(name, value);
    return `${prefix}/${form.handle}${search.size > 0 ? `?${search}` : ''}`;
  }

  /** A signed link's profile, checked as its manifest would be: a refused or spent link is a page, not JSON. */
  async function openProfile(request: FastifyRequest, name: string, form: Form, query: Query): Promise<OpenedProfile | SvcError> {
    try {
      const profile = deps.profiles.registry.resolve(name);
      if (profile.form.handle !== form.handle) throw new SvcError('PROFILE_NOT_FOUND');
      // The page's own parameters are not the profile's; anything else is checked as a property.
      const { profile: _profile, site: _site, embed: _embed, ...rest } = query;
      const entries = queryPropertyEntries(rest);
      const access = await authorizeProfile(deps.profiles.services, profile, {
        properties: entries,
        authorization: request.headers.authorization,
        token: query['token'],
        purpose: 'manifest',
      });
      return { profile, entries, properties: access.properties, context: access.context };
    } catch (error) {
      if (error instanceof SvcError) return error;
      throw error;
    }
  }
}

