/**
 * The console's insights page (issue #38): /svc/console/forms/{handle}/insights, for anyone who
 * may read the form, with the period and site the admin API takes. The figures come from the
 * insights room through the app it registered on; without it (insights off) the page is a 404.
 */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import { insightsOf } from '../insights/insights-feature.js';
import { parseInsightsQuery } from '../insights/insights-query.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit } from './console-kit.js';
import { renderInsights } from './console-insights-pages.js';

export async function consoleInsightsRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { ctx, services, signedIn, notFound } = kit;
  scope.get<{ Params: { handle: string }; Querystring: Record<string, string> }>(`${CONSOLE_BASE}/forms/:handle/insights`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const { principal, viewer } = current;
    const insights = insightsOf(scope);
    const form = principal.canRead(request.params.handle) ? services.forms.get(request.params.handle) : undefined;
    if (!form || !insights?.enabled) return notFound(reply, 'This form does not exist, you may not see it, or insights are off.', viewer);
    const raw = request.query ?? {};
    const shown: Record<string, string> = {};
    for (const name of ['from', 'to', 'site'] as const) {
      const value = raw[name];
      if (typeof value === 'string' && value !== '') shown[name] = value;
      else if (value !== undefined && typeof value !== 'string') throw new SvcError('PAYLOAD_INVALID', `\`${name}\` must be given once.`);
    }
    const query = parseInsightsQuery(shown, ctx.sites, ctx.submit.now());
    const report = await insights.report(form, query);
    return pageHeaders(reply).send(renderInsights({ handle: form.handle, name: form.name, report, query: shown, sites: ctx.sites.list.map((s) => s.handle) }, viewer));
  });
}
