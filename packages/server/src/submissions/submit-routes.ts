/** POST /svc/api/forms/{handle}/submit (interface.md §4.2, contract §4): parse, call the pipeline, shape. */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { resolveHeadlessForm } from '../http/form-access.js';
import { readCookie } from '../http/cookie-reader.js';
import { withLimit } from '../http/rate-limit-hooks.js';
import { parseSubmitRequest } from './submit-request.js';
import { submitForm } from './submit-pipeline.js';

export async function submitRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{ Params: { handle: string } }>(
    '/svc/api/forms/:handle/submit',
    { config: { cors: 'form' }, onRequest: withLimit(ctx.guard, ctx.limits.submit) },
    async (request, reply) => {
      const form = resolveHeadlessForm(ctx, request.params.handle, 'submit');
      const submitRequest = parseSubmitRequest(request.body);
      const token = request.headers['x-csrf-token'];
      const idempotencyKey = request.headers['idempotency-key'];
      if (idempotencyKey !== undefined && (typeof idempotencyKey !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(idempotencyKey))) {
        throw new SvcError('PAYLOAD_INVALID', 'Idempotency-Key must be 1-200 printable characters.');
      }
      const result = await submitForm(ctx.submit, form, {
        request: submitRequest,
        csrf: { binding: readCookie(request, ctx.config.csrf.cookieName), token: Array.isArray(token) ? token[0] : token },
        ip: request.ip,
        idempotencyKey,
      });
      return reply.code(result.httpStatus).header('Cache-Control', 'no-store').send(result.body);
    },
  );
}
