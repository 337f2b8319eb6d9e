/** GET /svc/api/admin/forms/{handle}/insights (issue #38): the admin API's view of a form's insights. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { createAdminKeys } from '../admin/admin-keys.js';
import { createAdminGuard, sendData } from '../admin/admin-http.js';
import { readableForm } from '../admin/admin-service.js';
import { adminInsightsSchema } from './insights-schemas.js';
import { parseInsightsQuery } from './insights-query.js';
import type { InsightsReport, ReportQuery } from './insights-report.js';
import type { Form } from '@svc/core';

/** `report` is the feature's (its pending counts written first); passed in, so this file needs nothing else of it. */
export async function insightsAdminRoutes(app: FastifyInstance, ctx: AppContext, report: (form: Form, query: ReportQuery) => Promise<InsightsReport>): Promise<void> {
  const keys = createAdminKeys(ctx.config);
  const onRequest = createAdminGuard(ctx.config.headless.enabled);
  app.get<{ Params: { handle: string } }>('/svc/api/admin/forms/:handle/insights', { onRequest, schema: adminInsightsSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    const form = readableForm(ctx, key, request.params.handle);
    const query = parseInsightsQuery(request.query as Record<string, unknown>, ctx.sites, ctx.submit.now());
    return sendData(reply, await report(form, query));
  });
}
