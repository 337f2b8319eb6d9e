/** GET /svc/tokens (interface.md §4.3, contract §3): a CSRF token and the cookie that binds it. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { CSRF_FIELD_NAME } from './csrf-tokens.js';
import { readCookie } from '../http/cookie-reader.js';
import { withLimit } from '../http/rate-limit-hooks.js';

export async function csrfRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { csrf: settings } = ctx.config;
  app.get('/svc/tokens', { config: { cors: 'all' }, onRequest: withLimit(ctx.guard, ctx.limits.tokens) }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    const tokens = ctx.csrf;
    if (!tokens) return {};
    let binding = readCookie(request, settings.cookieName);
    if (!tokens.isBinding(binding)) {
      binding = tokens.newBinding();
      reply.setCookie(settings.cookieName, binding, {
        path: '/',
        httpOnly: true,
        sameSite: settings.sameSite,
        // SameSite=None is only honoured on Secure cookies.
        secure: request.protocol === 'https' || settings.sameSite === 'none',
        maxAge: settings.ttlMinutes * 60,
      });
    }
    return { csrf: { name: CSRF_FIELD_NAME, value: tokens.issue(binding, ctx.submit.now().getTime()) } };
  });
}
