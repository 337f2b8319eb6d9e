/**
 * The console's submission routes (issue #15): a form's list with filters and columns, one
 * submission, its status/spam change and delete, and the export download. Thin over the admin
 * services, judged by the same scopes as the API.
 */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import { countSubmissions, getSubmission, listSubmissions } from '../admin/admin-service.js';
import { deleteSubmission, parseChange, startExport, updateSubmission } from '../admin/admin-writes.js';
import { parseExportQuery, parseListQuery } from '../admin/admin-query.js';
import { attachmentDisposition } from '../admin/download-links.js';
import { baseUrl } from '../admin/admin-http.js';
import { EXPORT_CONTENT_TYPES } from '../exports/export-stream.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit, type Entries } from './console-kit.js';
import { renderSubmission, renderSubmissions } from './console-submission-pages.js';
import { flash } from './console-flash.js';
import { savedFiltersHtml } from './console-filters-routes.js';

/** The list filters a console URL may carry; the export and the list read the same names. */
export const LIST_FILTERS = ['status', 'spam', 'from', 'to', 'q', 'order'] as const;

export async function consoleSubmissionRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { ctx, services, signedIn, writer, notFound } = kit;

  scope.get<{ Params: { handle: string }; Querystring: Record<string, string | string[]> }>(`${CONSOLE_BASE}/forms/:handle`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const { principal, viewer } = current;
    const form = principal.canRead(request.params.handle) ? services.forms.get(request.params.handle) : undefined;
    if (!form) return notFound(reply, 'This form does not exist, or you may not see it.', viewer);
    const raw = request.query ?? {};
    const first = (name: string) => (Array.isArray(raw[name]) ? (raw[name] as string[])[0] : (raw[name] as string | undefined)) ?? '';
    const shown: Record<string, string> = {};
    for (const name of LIST_FILTERS) if (first(name) !== '') shown[name] = first(name);
    const cursor = first('cursor');
    const query = parseListQuery({ ...shown, ...(shown['spam'] ? {} : { spam: 'false' }), ...(cursor ? { cursor } : {}), limit: '50' }, services.statuses);
    const wanted = new Set([raw['columns'] ?? []].flat());
    const inputs = form.fields.filter((f) => f.handle !== null && f.type !== 'submit');
    const columns = wanted.size > 0 ? inputs.filter((f) => wanted.has(f.handle as string)) : inputs.slice(0, 3);
    const [page, count] = await Promise.all([listSubmissions(services, principal, form.handle, query), countSubmissions(services, principal, form.handle, query.filter)]);
    const savedFilters = await savedFiltersHtml(kit, current, form.handle, request);
    return pageHeaders(reply).send(renderSubmissions({ form, items: page.items, count, columns, query: shown, nextCursor: page.nextCursor, statuses: services.statuses, savedFilters }, viewer));
  });

  scope.get<{ Params: { id: string } }>(`${CONSOLE_BASE}/submissions/:id`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const { principal, viewer } = current;
    try {
      const detail = await getSubmission(services, principal, request.params.id, baseUrl(ctx, request));
      const form = services.forms.get(detail.form.handle);
      if (!form) throw new SvcError('SUBMISSION_NOT_FOUND');
      return pageHeaders(reply).send(renderSubmission(detail, form, services.statuses, viewer));
    } catch (error) {
      if (error instanceof SvcError && error.code === 'SUBMISSION_NOT_FOUND') return notFound(reply, 'This submission does not exist any more (it may have been deleted), or you may not see it.', viewer);
      throw error;
    }
  });

  scope.get<{ Params: { handle: string }; Querystring: Record<string, string> }>(`${CONSOLE_BASE}/forms/:handle/export`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const { principal, session } = current;
    const raw = Object.fromEntries(Object.entries(request.query ?? {}).filter(([name, value]) => ['format', 'bom', ...LIST_FILTERS].includes(name) && value !== ''));
    const query = parseExportQuery({ spam: 'false', ...raw }, services.statuses);
    const { stream, filename } = await startExport(services, principal, request.params.handle, query, { actor: `${session.kind}:${session.name}`, ip: request.ip });
    stream.once('error', (error) => request.log.error({ err: error }, 'console export failed while streaming'));
    return reply
      .header('Content-Type', EXPORT_CONTENT_TYPES[query.format])
      .header('Content-Disposition', attachmentDisposition(filename))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Cache-Control', 'no-store')
      .send(stream);
  });

  scope.post<{ Params: { id: string }; Body: Entries }>(`${CONSOLE_BASE}/submissions/:id`, async (request, reply) => {
    const { principal, by } = await writer(request);
    const body = (request.body ?? {}) as Entries;
    const change = parseChange({ status: body['status'], isSpam: body['isSpam'] === 'true' }, services.statuses);
    const result = await updateSubmission(services, principal, request.params.id, change, by);
    flash(reply, kit, `Submission #${result.id} saved: status ${change.status ?? 'unchanged'}, ${change.isSpam ? 'marked as spam' : 'not spam'}.`);
    return reply.redirect(`${CONSOLE_BASE}/submissions/${result.id}`, 303);
  });

  scope.post<{ Params: { id: string }; Body: Entries }>(`${CONSOLE_BASE}/submissions/:id/delete`, async (request, reply) => {
    const { principal, by } = await writer(request);
    if (((request.body ?? {}) as Entries)['confirm'] !== 'yes') throw new SvcError('PAYLOAD_INVALID', 'Tick the box to confirm the delete.');
    const deleted = await deleteSubmission(services, principal, request.params.id, by);
    flash(reply, kit, `Submission #${request.params.id} and its files were deleted.`);
    return reply.redirect(`${CONSOLE_BASE}/forms/${encodeURIComponent(deleted.formHandle)}`, 303);
  });
}
