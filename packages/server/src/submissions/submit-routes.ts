/** POST /svc/api/forms/{handle}/submit (interface.md §4.2, contract §4): parse, call the pipeline, shape. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { resolveHeadlessForm } from '../http/form-access.js';
import { readCookie } from '../http/cookie-reader.js';
import { readBrowserBinding } from '../security/browser-binding.js';
import { withLimit } from '../http/rate-limit-hooks.js';
import { parseSubmitRequest } from './submit-request.js';
import { submitForm, type SubmitInput } from './submit-pipeline.js';
import { createCsrfGate } from '../http/multipart-support.js';
import { readMultipartSubmit } from '../files/multipart-submit.js';
import { submitSchema } from './submit-schemas.js';
import { readIdempotencyKey } from './idempotency-header.js';
import { siteOfQuery } from '../sites/site-registry.js';

export async function submitRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post<{ Params: { handle: string } }>(
    '/svc/api/forms/:handle/submit',
    { config: { cors: 'form' }, onRequest: withLimit(ctx.guard, ctx.limits.submit), schema: submitSchema },
    async (request, reply) => {
      const form = resolveHeadlessForm(ctx, request.params.handle, 'submit');
      let body = request.body;
      let csrf: SubmitInput['csrf'];
      let uploads: SubmitInput['uploads'];
      if (request.isMultipart()) {
        // contract §3: multipart carries CSRF as a field; files stream in before the pipeline runs.
        const gate = createCsrfGate(ctx, request);
        const multipart = await readMultipartSubmit(ctx, form, request, gate);
        gate.require();
        ({ body, uploads } = multipart);
        csrf = 'trusted';
      } else {
        const token = request.headers['x-csrf-token'];
        csrf = { binding: readCookie(request, ctx.config.csrf.cookieName), token: Array.isArray(token) ? token[0] : token };
      }
      const browser = readBrowserBinding(request, ctx.config.csrf);
      const submitRequest = parseSubmitRequest(body);
      const idempotencyKey = readIdempotencyKey(request);
      // issue #34: `context.site` first (the body is what a client controls), then `?site=`.
      const site = ctx.sites.resolve(submitRequest.context.site ?? siteOfQuery(request.query));
      const result = await submitForm(ctx.submit, ctx.localize(form, site.language), {
        request: submitRequest,
        site,
        csrf,
        ip: request.ip,
        idempotencyKey,
        ...(uploads ? { uploads } : {}),
        ...(browser ? { browser } : {}),
      });
      return reply.code(result.httpStatus).header('Cache-Control', 'no-store').send(result.body);
    },
  );
}
