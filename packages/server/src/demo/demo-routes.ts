/**
 * `/demo/`: the example forms rendered by `<svc-form>` (issue #6), and `/demo/resume`, where a
 * saved draft's link leads (issue #11); registered only when the service runs as the demo
 * (`npm start`, config.demo). The script is public and sent with
 * `Access-Control-Allow-Origin: *` so a copy of the page on another origin can load it too.
 * Every page takes `?site=` and speaks that site's language (issue #34).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { siteOfQuery } from '../sites/site-registry.js';
import { demoBundle } from './demo-bundle.js';
import { DEMO_PAGE_HEADERS } from './demo-html.js';
import { demoLanguage, ENGLISH_DEMO, type DemoLanguage } from './demo-language.js';
import { DEMO_FORMS, renderDemoPage, type DemoSite } from './demo-page.js';
import { DEMO_CLASSIC_PATH, renderClassicPage, type ClassicPageProperties } from './demo-classic-page.js';
import { DEMO_RESUME_PATH, renderResumePage } from './demo-resume-page.js';
import { DEMO_JWKS_PATH, demoJwks } from '../profiles/demo-issuer.js';

export const DEMO_SCRIPT_PATH = '/demo/svc-elements.js';

/** What the demo reads of the service: its sites and which forms each has translated. */
export type DemoContext = Pick<AppContext, 'sites' | 'forms' | 'localize' | 'config'>;

/** The configured sites, each with the exposed forms translated for it (as the banner lists them). */
function demoSites(ctx: DemoContext): readonly DemoSite[] {
  return ctx.sites.list.map((site) => ({
    handle: site.handle,
    language: site.language,
    isDefault: site.isDefault,
    translated: ctx.forms
      .list()
      .filter((form) => ctx.config.headless.forms[form.handle]?.exposeManifest && ctx.localize(form, site.language) !== form)
      .map((form) => form.handle as string),
  }));
}

export async function demoRoutes(app: FastifyInstance, dataDir: string, propertiesPath = '/svc/api/forms/{handle}/properties', ctx: DemoContext | null = null): Promise<void> {
  /** The language `?site=` names; an unknown site is SITE_NOT_FOUND, as on the API. */
  const languageOf = (query: unknown): DemoLanguage => (ctx === null ? ENGLISH_DEMO : demoLanguage(ctx.sites.resolve(siteOfQuery(query))));

  // issue #14: each example form drawn on the server from its properties JSON, as a PHP or Rails
  // site would: fetched over HTTP (in-process here), never from svc's internals.
  app.get<{ Params: { handle: string }; Querystring: Record<string, unknown> }>(`${DEMO_CLASSIC_PATH}/:handle`, async (request, reply) => {
    const demo = DEMO_FORMS.find((form) => form.handle === request.params.handle);
    if (!demo) return reply.callNotFound();
    const language = languageOf(request.query);
    const query = new URLSearchParams();
    if (typeof request.query['svc_flash'] === 'string') query.set('flash', request.query['svc_flash']);
    if (language.site !== null) query.set('site', language.site);
    const search = query.size > 0 ? `?${query.toString()}` : '';
    const answer = await app.inject({ method: 'GET', url: `${propertiesPath.replace('{handle}', demo.handle)}${search}` });
    if (answer.statusCode !== 200) return reply.code(answer.statusCode).type('application/json').send(answer.body);
    // The post goes back to this page (same origin), so it must learn where it came from.
    reply.headers({ ...DEMO_PAGE_HEADERS, 'referrer-policy': 'same-origin' });
    return renderClassicPage(answer.json<ClassicPageProperties>(), language.text(demo.titleKey), language);
  });
  // The development issuer of the demo's `member` profile (issue #13).
  app.get(DEMO_JWKS_PATH, async (_request, reply) => reply.header('cache-control', 'no-cache').send(await demoJwks(dataDir)));
  // The query goes along: /demo?site=ar is the Arabic demo too.
  app.get('/demo', async (request, reply) => reply.redirect(`/demo/${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`));
  app.get('/demo/', async (request, reply) => {
    const language = languageOf(request.query);
    reply.headers(DEMO_PAGE_HEADERS);
    return renderDemoPage(DEMO_SCRIPT_PATH, null, { language, sites: ctx === null ? [] : demoSites(ctx) });
  });
  // The same page whatever else the query holds: the page's script reads it (demo-resume-page.ts).
  app.get(DEMO_RESUME_PATH, async (request, reply) => {
    const language = languageOf(request.query);
    reply.headers(DEMO_PAGE_HEADERS);
    return renderResumePage(DEMO_SCRIPT_PATH, null, language);
  });
  app.get(DEMO_SCRIPT_PATH, async (_request, reply) => {
    const code = await demoBundle();
    reply.header('cache-control', 'no-cache').header('access-control-allow-origin', '*').type('text/javascript; charset=utf-8');
    return code;
  });
}
