/** The admin REST API under /svc/api/admin/ (issue #5): thin handlers over admin-service.ts. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { assertCanWrite, createAdminKeys } from './admin-keys.js';
import { parseListQuery } from './admin-query.js';
import {
  deleteSubmission,
  getSubmission,
  listForms,
  listSubmissions,
  parseChange,
  resendDelivery,
  updateSubmission,
} from './admin-service.js';
import { baseUrl, createAdminGuard, createAdminServices, sendData } from './admin-http.js';
import { adminExportRoutes } from './admin-export-routes.js';

type Handle = { Params: { handle: string } };
type Id = { Params: { id: string } };

export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const keys = createAdminKeys(ctx.config);
  const services = createAdminServices(ctx);
  const onRequest = createAdminGuard(ctx.config.headless.enabled);
  const auth = (headers: { authorization?: string | undefined }) => keys.authenticate(headers.authorization);

  app.get('/svc/api/admin/forms', { onRequest }, async (request, reply) => {
    const key = auth(request.headers);
    return sendData(reply, await listForms(services, key));
  });

  app.get<Handle>('/svc/api/admin/forms/:handle/submissions', { onRequest }, async (request, reply) => {
    const key = auth(request.headers);
    const query = parseListQuery(request.query as Record<string, unknown>, services.statuses);
    const page = await listSubmissions(services, key, request.params.handle, query);
    return sendData(reply, page.items, { limit: query.limit, nextCursor: page.nextCursor });
  });

  app.get<Id>('/svc/api/admin/submissions/:id', { onRequest }, async (request, reply) => {
    const key = auth(request.headers);
    return sendData(reply, await getSubmission(services, key, request.params.id, baseUrl(ctx, request)));
  });

  app.patch<Id>('/svc/api/admin/submissions/:id', { onRequest }, async (request, reply) => {
    const key = auth(request.headers);
    assertCanWrite(key);
    const change = parseChange(request.body, services.statuses);
    const result = await updateSubmission(services, key, request.params.id, change);
    // Not spam after all: it gets the deliveries a clean submission would have had, now.
    if (result.markedNotSpam) await ctx.deliveries.onMarkedNotSpam(result.id);
    return sendData(reply, await getSubmission(services, key, String(result.id), baseUrl(ctx, request)));
  });

  app.delete<Id>('/svc/api/admin/submissions/:id', { onRequest }, async (request, reply) => {
    const key = auth(request.headers);
    assertCanWrite(key);
    return sendData(reply, { ...(await deleteSubmission(services, key, request.params.id)), deleted: true });
  });

  app.post<Id>('/svc/api/admin/deliveries/:id/resend', { onRequest }, async (request, reply) => {
    const key = auth(request.headers);
    return sendData(reply, { ...(await resendDelivery(services, key, request.params.id)), queued: true });
  });

  await adminExportRoutes(app, { keys, services, onRequest });
}
