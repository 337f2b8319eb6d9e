/** The admin API's bulk route (issue #35 item 1): a thin handler over admin-bulk-writes.ts. */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { AdminKeys } from './admin-keys.js';
import type { AdminServices } from './admin-service.js';
import { sendData } from './admin-http.js';
import { parseBulkRequest, runBulk } from './admin-bulk-writes.js';
import { adminBulkSchema } from './admin-bulk-schemas.js';

export interface AdminBulkDeps {
  readonly keys: AdminKeys;
  readonly services: AdminServices;
  readonly onRequest: onRequestHookHandler;
}

export async function adminBulkRoutes(app: FastifyInstance, deps: AdminBulkDeps): Promise<void> {
  const { keys, services, onRequest } = deps;
  app.post<{ Params: { handle: string } }>('/svc/api/admin/forms/:handle/submissions/bulk', { onRequest, schema: adminBulkSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    const bulk = parseBulkRequest(request.body, services.statuses);
    return sendData(reply, await runBulk(services, key, request.params.handle, bulk, { ip: request.ip }));
  });
}
