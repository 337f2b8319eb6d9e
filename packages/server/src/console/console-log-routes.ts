/** The console's lists across forms (issue #15): dead-lettered deliveries with resend, and the audit log. */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import { listDeadDeliveries } from '../admin/admin-service.js';
import { resendDelivery } from '../admin/admin-writes.js';
import { listAudit } from '../admin/audit-log.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit, type Entries } from './console-kit.js';
import { renderAudit, renderDeadLetters } from './console-log-pages.js';
import { flash } from './console-flash.js';

export async function consoleLogRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { services, signedIn, writer } = kit;

  scope.get(`${CONSOLE_BASE}/deliveries`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    return pageHeaders(reply).send(renderDeadLetters(await listDeadDeliveries(services, current.principal), current.viewer));
  });

  scope.post<{ Params: { id: string }; Body: Entries }>(`${CONSOLE_BASE}/deliveries/:id/resend`, async (request, reply) => {
    const { principal, by } = await writer(request);
    await resendDelivery(services, principal, request.params.id, by);
    flash(reply, kit, `Delivery #${request.params.id} queued to be sent again.`);
    // Back to the submission it was resent from, when that is where the button was; never elsewhere.
    const back = ((request.body ?? {}) as Entries)['back'];
    return reply.redirect(typeof back === 'string' && /^\/svc\/console\/submissions\/\d{1,15}$/.test(back) ? back : `${CONSOLE_BASE}/deliveries`, 303);
  });

  scope.get<{ Querystring: Record<string, string> }>(`${CONSOLE_BASE}/audit`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const before = request.query?.['before'] ? Number(request.query['before']) : null;
    if (before !== null && (!Number.isSafeInteger(before) || before < 1)) throw new SvcError('PAYLOAD_INVALID', '`before` must be an entry id.');
    const page = await listAudit(services.db, current.principal, { limit: 100, before }, kit.ctx.sealer);
    return pageHeaders(reply).send(renderAudit(page.items, page.nextCursor, current.viewer));
  });
}
