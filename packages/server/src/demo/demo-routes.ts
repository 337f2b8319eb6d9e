/**
 * `/demo/`: the example forms rendered by `<svc-form>` (issue #6), registered only when the
 * service runs as the demo (`npm start`, config.demo). The script is public and sent with
 * `Access-Control-Allow-Origin: *` so a copy of the page on another origin can load it too.
 */
import type { FastifyInstance } from 'fastify';
import { demoBundle } from './demo-bundle.js';
import { renderDemoPage } from './demo-page.js';

export const DEMO_SCRIPT_PATH = '/demo/svc-elements.js';

export async function demoRoutes(app: FastifyInstance): Promise<void> {
  app.get('/demo', async (_request, reply) => reply.redirect('/demo/'));
  app.get('/demo/', async (_request, reply) => {
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return renderDemoPage(DEMO_SCRIPT_PATH, null);
  });
  app.get(DEMO_SCRIPT_PATH, async (_request, reply) => {
    const code = await demoBundle();
    reply.header('cache-control', 'no-cache').header('access-control-allow-origin', '*').type('text/javascript; charset=utf-8');
    return code;
  });
}
