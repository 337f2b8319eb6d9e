/** The admin API's form report (issue #35 item 6): thin over admin-reports-service.ts. */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { AdminKeys } from './admin-keys.js';
import type { AdminServices } from './admin-service.js';
import { sendData } from './admin-http.js';
import { parseReportQuery } from './admin-reports-query.js';
import { buildReport } from './admin-reports-service.js';
import { adminReportsSchema } from './admin-reports-schemas.js';

export interface AdminReportsDeps {
  readonly keys: AdminKeys;
  readonly services: AdminServices;
  readonly onRequest: onRequestHookHandler;
  /** The zone the series' days are days of: the default site's, else UTC. */
  readonly timezone: string;
}

export async function adminReportsRoutes(app: FastifyInstance, deps: AdminReportsDeps): Promise<void> {
  const { keys, services, onRequest, timezone } = deps;
  app.get<{ Params: { handle: string } }>('/svc/api/admin/forms/:handle/reports', { onRequest, schema: adminReportsSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    const query = parseReportQuery((request.query ?? {}) as Record<string, unknown>, services.now(), timezone);
    return sendData(reply, await buildReport(services, key, request.params.handle, query, timezone));
  });
}
