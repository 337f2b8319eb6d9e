/**
 * The spam folder (issue #35 item 4): GET /svc/console/spam across the forms a viewer may read,
 * GET /svc/console/forms/{handle}/spam for one form (with the bulk bar: delete, not spam), and the
 * one-click "Not spam" of a row, which is the single status change of the admin services (it
 * releases the held-back deliveries in the same transaction, audited).
 */
import type { FastifyInstance } from 'fastify';
import { countSubmissions, listForms, listSubmissions, type SubmissionItem } from '../admin/admin-service.js';
import { parseListQuery } from '../admin/admin-query.js';
import { updateSubmission } from '../admin/admin-writes.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit, type Entries } from './console-kit.js';
import { flash } from './console-flash.js';
import { newestSpam, spamByReason } from './console-spam-counts.js';
import { renderSpamFolder } from './console-spam-pages.js';

const PAGE = 50;

export async function consoleSpamRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { services, config, signedIn, writer, notFound } = kit;
  const retentionDays = config.retention.spamPurgeAfterDays;

  scope.get(`${CONSOLE_BASE}/spam`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const forms = services.forms.list().filter((f) => current.principal.canRead(f.handle));
    const ids = forms.map((f) => f.id);
    const [summaries, counts, newest] = await Promise.all([listForms(services, current.principal), spamByReason(services.db, ids, services.now()), newestSpam(services.db, services.sealer, ids, PAGE)]);
    const handles = new Map(forms.map((f) => [f.id, f.handle]));
    const items = newest.map((row) => ({ ...row, uid: '', status: '', isSpam: true, values: {}, fileCount: 0, client: null, site: null, formHandle: handles.get(row.formId) ?? '' }));
    return pageHeaders(reply).send(
      renderSpamFolder(
        {
          form: null,
          items,
          count: summaries.reduce((sum, f) => sum + f.submissions.spam, 0),
          ...counts,
          retentionDays,
          forms: summaries.map((f) => ({ handle: f.handle, name: f.name, spam: f.submissions.spam })),
          statuses: services.statuses,
          nextCursor: null,
        },
        current.viewer,
      ),
    );
  });

  scope.get<{ Params: { handle: string }; Querystring: Record<string, string> }>(`${CONSOLE_BASE}/forms/:handle/spam`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const form = current.principal.canRead(request.params.handle) ? services.forms.get(request.params.handle) : undefined;
    if (!form) return notFound(reply, 'This form does not exist, or you may not see it.', current.viewer);
    const cursor = typeof request.query?.cursor === 'string' && request.query.cursor !== '' ? request.query.cursor : null;
    const query = parseListQuery({ spam: 'true', limit: String(PAGE), ...(cursor ? { cursor } : {}) }, services.statuses);
    const [page, count, counts] = await Promise.all([
      listSubmissions(services, current.principal, form.handle, query),
      countSubmissions(services, current.principal, form.handle, query.filter),
      spamByReason(services.db, [form.id], services.now()),
    ]);
    const items = page.items.map((item: SubmissionItem) => ({ ...item, formHandle: form.handle }));
    return pageHeaders(reply).send(renderSpamFolder({ form, items, count, ...counts, retentionDays, forms: [], statuses: services.statuses, nextCursor: page.nextCursor }, current.viewer));
  });

  scope.post<{ Params: { id: string }; Body: Entries }>(`${CONSOLE_BASE}/spam/:id/not-spam`, async (request, reply) => {
    const { principal, by } = await writer(request);
    const result = await updateSubmission(services, principal, request.params.id, { isSpam: false }, by);
    const back = ((request.body ?? {}) as Entries)['back'] ?? '';
    flash(reply, kit, `Submission #${result.id} is not spam${result.queued > 0 ? `; ${result.queued} notification(s) are on their way` : ''}.`);
    // Back only to a console page, in plain URL characters: never an open redirect.
    return reply.redirect(/^\/svc\/console\/[\w.~%-][\w.~%\-/?&=+]*$/.test(back) ? back : `${CONSOLE_BASE}/spam`, 303);
  });
}
