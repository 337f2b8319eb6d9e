/** POST /svc/api/forms/{handle}/submit (interface.md §4.2, contract §4): parse, call the pipeline, shape. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { resolveHeadlessForm } from '../http/form-access.js';
import { readCookie } from '../http/cookie-reader.js';
import { parseSubmitRequest } from './submit-request.js';
import { submitForm } from './submit-pipeline.js';

export async function submitRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{ Params: { handle: string } }>(
    '/svc/api/forms/:handle/submit',
    { config: { cors: 'form' }, onRequest: ctx.guard },
    async (request, reply) => {
      const form = resolveHeadlessForm(ctx, request.params.handle, 'submit');
      const submitRequest = parseSubmitRequest(request.body);
      const token = request.headers['x-csrf-token'];
      const result = await submitForm(ctx.submit, form, {
        request: submitRequest,
        csrf: { binding: readCookie(request, ctx.config.csrf.cookieName), token: Array.isArray(token) ? token[0] : token },
        ip: request.ip,
      });
      return reply.code(result.httpStatus).header('Cache-Control', 'no-store').send(result.body);
    },
  );
}
