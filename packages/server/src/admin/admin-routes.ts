/** The admin REST API under /svc/api/admin/ (issue #5): thin handlers over admin-service.ts (reads) and admin-writes.ts (audited writes). */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { assertCanWrite, createAdminKeys } from './admin-keys.js';
import { parseListQuery } from './admin-query.js';
import { getSubmission, listDeadDeliveries, listForms, listSubmissions } from './admin-service.js';
import { deleteSubmission, parseChange, resendDelivery, updateSubmission } from './admin-writes.js';
import { baseUrl, createAdminGuard, createAdminServices, sendData } from './admin-http.js';
import { adminExportRoutes } from './admin-export-routes.js';
import { adminNotesRoutes } from './admin-notes-routes.js';
import { editSubmissionValues } from './admin-edit-values.js';
import { adminBulkRoutes } from './admin-bulk-routes.js';
import { adminReportsRoutes } from './admin-reports-routes.js';
import { listAudit } from './audit-log.js';
import { adminAuditSchema, adminDeadDeliveriesSchema, adminDeleteSubmissionSchema, adminFormsSchema, adminResendSchema, adminSubmissionSchema, adminSubmissionsSchema, adminUpdateSubmissionSchema } from './admin-schemas.js';

type Handle = { Params: { handle: string } };
type Id = { Params: { id: string } };

export async function adminRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const keys = createAdminKeys(ctx.config);
  const services = createAdminServices(ctx);
  const onRequest = createAdminGuard(ctx.config.headless.enabled);
  const auth = (headers: { authorization?: string | undefined }) => keys.authenticate(headers.authorization);
  // issue #15: the services write each audit entry in the transaction of the change it records.
  const by = (request: { ip: string }) => ({ ip: request.ip });

  app.get('/svc/api/admin/forms', { onRequest, schema: adminFormsSchema }, async (request, reply) => {
    const key = auth(request.headers);
    return sendData(reply, await listForms(services, key));
  });

  app.get<Handle>('/svc/api/admin/forms/:handle/submissions', { onRequest, schema: adminSubmissionsSchema }, async (request, reply) => {
    const key = auth(request.headers);
    const query = parseListQuery(request.query as Record<string, unknown>, services.statuses);
    const page = await listSubmissions(services, key, request.params.handle, query);
    return sendData(reply, page.items, { limit: query.limit, nextCursor: page.nextCursor });
  });

  app.get<Id>('/svc/api/admin/submissions/:id', { onRequest, schema: adminSubmissionSchema }, async (request, reply) => {
    const key = auth(request.headers);
    return sendData(reply, await getSubmission(services, key, request.params.id, baseUrl(ctx, request)));
  });

  app.patch<Id>('/svc/api/admin/submissions/:id', { onRequest, schema: adminUpdateSubmissionSchema }, async (request, reply) => {
    const key = auth(request.headers);
    assertCanWrite(key);
    const { values, ...rest } = (request.body ?? {}) as Record<string, unknown>;
    const change = values === undefined || Object.keys(rest).length > 0 ? parseChange(rest, services.statuses) : null;
    // issue #35: the values are judged (and written) before the status, so a refused edit changes nothing.
    if (values !== undefined) await editSubmissionValues(services, key, request.params.id, values, by(request));
    // Not spam after all: the service queues the deliveries a clean submission would have had.
    const result = change ? await updateSubmission(services, key, request.params.id, change, by(request)) : null;
    return sendData(reply, await getSubmission(services, key, String(result?.id ?? request.params.id), baseUrl(ctx, request)));
  });

  app.delete<Id>('/svc/api/admin/submissions/:id', { onRequest, schema: adminDeleteSubmissionSchema }, async (request, reply) => {
    const key = auth(request.headers);
    assertCanWrite(key);
    const deleted = await deleteSubmission(services, key, request.params.id, by(request));
    return sendData(reply, { id: deleted.id, files: deleted.files, deleted: true });
  });

  app.post<Id>('/svc/api/admin/deliveries/:id/resend', { onRequest, schema: adminResendSchema }, async (request, reply) => {
    const key = auth(request.headers);
    const resent = await resendDelivery(services, key, request.params.id, by(request));
    return sendData(reply, { id: resent.id, queued: true });
  });

  app.get('/svc/api/admin/deliveries/dead', { onRequest, schema: adminDeadDeliveriesSchema }, async (request, reply) => {
    const key = auth(request.headers);
    return sendData(reply, await listDeadDeliveries(services, key));
  });

  app.get('/svc/api/admin/audit', { onRequest, schema: adminAuditSchema }, async (request, reply) => {
    const key = auth(request.headers);
    const query = request.query as Record<string, unknown>;
    const limit = query['limit'] === undefined ? 50 : Number(query['limit']);
    const before = query['before'] === undefined ? null : Number(query['before']);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new SvcError('PAYLOAD_INVALID', '`limit` must be 1 to 500.');
    if (before !== null && (!Number.isSafeInteger(before) || before < 1)) throw new SvcError('PAYLOAD_INVALID', '`before` must be an entry id.');
    const page = await listAudit(services.db, key, { limit, before }, ctx.sealer);
    return sendData(reply, page.items, { limit, nextCursor: page.nextCursor });
  });

  await adminExportRoutes(app, { keys, services, onRequest });
  await adminNotesRoutes(app, { keys, services, onRequest });
  await adminBulkRoutes(app, { keys, services, onRequest });
  await adminReportsRoutes(app, { keys, services, onRequest, timezone: ctx.sites.defaultSite.timezone ?? 'UTC' });
}
