/**
 * `/demo/`: the example forms rendered by `<svc-form>` (issue #6), and `/demo/resume`, where a
 * saved draft's link leads (issue #11); registered only when the service runs as the demo
 * (`npm start`, config.demo). The script is public and sent with
 * `Access-Control-Allow-Origin: *` so a copy of the page on another origin can load it too.
 */
import type { FastifyInstance } from 'fastify';
import { demoBundle } from './demo-bundle.js';
import { DEMO_PAGE_HEADERS } from './demo-html.js';
import { DEMO_FORMS, renderDemoPage } from './demo-page.js';
import { DEMO_CLASSIC_PATH, renderClassicPage, type ClassicPageProperties } from './demo-classic-page.js';
import { DEMO_RESUME_PATH, renderResumePage } from './demo-resume-page.js';
import { DEMO_JWKS_PATH, demoJwks } from '../profiles/demo-issuer.js';

export const DEMO_SCRIPT_PATH = '/demo/svc-elements.js';

export async function demoRoutes(app: FastifyInstance, dataDir: string, propertiesPath = '/svc/api/forms/{handle}/properties'): Promise<void> {
  // issue #14: each example form drawn on the server from its properties JSON, as a PHP or Rails
  // site would: fetched over HTTP (in-process here), never from svc's internals.
  app.get<{ Params: { handle: string }; Querystring: Record<string, unknown> }>(`${DEMO_CLASSIC_PATH}/:handle`, async (request, reply) => {
    const demo = DEMO_FORMS.find((form) => form.handle === request.params.handle);
    if (!demo) return reply.callNotFound();
    const flash = typeof request.query['svc_flash'] === 'string' ? `?flash=${encodeURIComponent(request.query['svc_flash'])}` : '';
    const answer = await app.inject({ method: 'GET', url: `${propertiesPath.replace('{handle}', demo.handle)}${flash}` });
    if (answer.statusCode !== 200) return reply.code(answer.statusCode).type('application/json').send(answer.body);
    // The post goes back to this page (same origin), so it must learn where it came from.
    reply.headers({ ...DEMO_PAGE_HEADERS, 'referrer-policy': 'same-origin' });
    return renderClassicPage(answer.json<ClassicPageProperties>(), demo.title);
  });
  // The development issuer of the demo's `member` profile (issue #13).
  app.get(DEMO_JWKS_PATH, async (_request, reply) => reply.header('cache-control', 'no-cache').send(await demoJwks(dataDir)));
  app.get('/demo', async (_request, reply) => reply.redirect('/demo/'));
  app.get('/demo/', async (_request, reply) => {
    reply.headers(DEMO_PAGE_HEADERS);
    return renderDemoPage(DEMO_SCRIPT_PATH, null);
  });
  // The same page whatever the query: the page's script reads it (demo-resume-page.ts).
  app.get(DEMO_RESUME_PATH, async (_request, reply) => {
    reply.headers(DEMO_PAGE_HEADERS);
    return renderResumePage(DEMO_SCRIPT_PATH, null);
  });
  app.get(DEMO_SCRIPT_PATH, async (_request, reply) => {
    const code = await demoBundle();
    reply.header('cache-control', 'no-cache').header('access-control-allow-origin', '*').type('text/javascript; charset=utf-8');
    return code;
  });
}
