/**
 * The console's report page (issue #35 item 6): /svc/console/forms/{handle}/reports, for anyone
 * who may read the form, with the period and interval the admin API takes and the same figures.
 */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import { parseReportQuery } from '../admin/admin-reports-query.js';
import { buildReport } from '../admin/admin-reports-service.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit } from './console-kit.js';
import { renderReports } from './console-reports-pages.js';
import { consoleZone } from './console-time.js';

export async function consoleReportsRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { ctx, services, signedIn, notFound } = kit;
  scope.get<{ Params: { handle: string }; Querystring: Record<string, string | string[]> }>(`${CONSOLE_BASE}/forms/:handle/reports`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const { principal, viewer } = current;
    const form = principal.canRead(request.params.handle) ? services.forms.get(request.params.handle) : undefined;
    if (!form) return notFound(reply, 'This form does not exist, or you may not see it.', viewer);
    const shown: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (typeof value !== 'string') throw new SvcError('PAYLOAD_INVALID', `\`${name.slice(0, 40)}\` must be given once.`);
      if (value !== '') shown[name] = value;
    }
    const zone = consoleZone(ctx);
    const query = parseReportQuery(shown, services.now(), zone);
    const report = await buildReport(services, principal, form.handle, query, zone);
    return pageHeaders(reply).send(renderReports({ handle: form.handle, name: form.name, report, query: shown }, viewer));
  });
}
