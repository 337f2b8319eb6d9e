/** GET /svc/tokens (interface.md §4.3, contract §3): a CSRF token and the cookie that binds it. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { CSRF_FIELD_NAME } from './csrf-tokens.js';
import { ensureBrowserBinding } from './browser-binding.js';
import { withLimit } from '../http/rate-limit-hooks.js';
import { csrfTokenSchema } from './csrf-schemas.js';

export async function csrfRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { csrf: settings } = ctx.config;
  app.get('/svc/tokens', { config: { cors: 'all' }, onRequest: withLimit(ctx.guard, ctx.limits.tokens), schema: csrfTokenSchema }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const tokens = ctx.csrf;
    if (!tokens) return {};
    const binding = ensureBrowserBinding(request, reply, settings);
    return { csrf: { name: CSRF_FIELD_NAME, value: tokens.issue(binding, ctx.submit.now().getTime()) } };
  });
}
