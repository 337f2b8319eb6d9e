/**
 * The console's bulk actions (issue #35 item 1): Apply on the list draws a confirmation page, and
 * only its Confirm changes anything, through the same service as the admin API's bulk route
 * (admin-bulk-writes.ts: one audit entry per submission, chunked statements). "Export as CSV"
 * needs no confirmation: it streams the selection through the export (audited as every export).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import { countSubmissions, readableForm } from '../admin/admin-service.js';
import { parseExportQuery, parseFilter } from '../admin/admin-query.js';
import { parseIds, runBulk, type BulkRequest } from '../admin/admin-bulk-writes.js';
import { startExport } from '../admin/admin-writes.js';
import { attachmentDisposition } from '../admin/download-links.js';
import { EXPORT_CONTENT_TYPES } from '../exports/export-stream.js';
import type { SubmissionFilter } from '../submissions/submission-search.js';
import { safeEqual } from '../security/token-crypto.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, serveAsset, type ConsoleKit, type Entries } from './console-kit.js';
import { flash } from './console-flash.js';
import { BULK_FILTERS, renderBulkConfirm, type ConsoleBulkAction } from './console-bulk-pages.js';
import { CONSOLE_BULK_JS } from './console-bulk-script.js';

const ACTIONS: readonly ConsoleBulkAction[] = ['setStatus', 'markSpam', 'markNotSpam', 'delete', 'export'];

interface ConsoleBulk {
  readonly action: ConsoleBulkAction;
  readonly status: string | null;
  /** The ticked ids, or null for "all matching". */
  readonly ids: readonly number[] | null;
  /** The list filters as posted (`filter.<name>`), for "all matching". */
  readonly filterEntries: Readonly<Record<string, string>>;
  readonly back: string;
}

/** Reads the bar's post: `id.<n>` per ticked row, `filter.<name>` per list filter. */
function parseConsoleBulk(body: Entries, handle: string, statuses: readonly string[]): ConsoleBulk {
  const action = body['action'] as ConsoleBulkAction;
  if (!ACTIONS.includes(action)) throw new SvcError('PAYLOAD_INVALID', `"action" must be one of ${ACTIONS.join(', ')}.`);
  const status = action === 'setStatus' ? (body['status'] ?? '') : null;
  if (status !== null && !statuses.includes(status)) throw new SvcError('PAYLOAD_INVALID', `"status" must be one of ${statuses.join(', ')}.`);
  const picked = Object.keys(body).filter((name) => /^id\.\d+$/.test(name)).map((name) => name.slice(3));
  const ids = body['scope'] === 'all' ? null : picked.length === 0 ? [] : parseIds(picked, true);
  const filterEntries = Object.fromEntries(BULK_FILTERS.flatMap((name) => (body[`filter.${name}`] ? [[name, body[`filter.${name}`] as string]] : [])));
  // Back only to a console page, in plain URL characters: never an open redirect.
  const back = /^\/svc\/console\/[\w.~%-][\w.~%\-/?&=+]*$/.test(body['back'] ?? '') ? (body['back'] as string) : `${CONSOLE_BASE}/forms/${encodeURIComponent(handle)}`;
  return { action, status, ids, filterEntries, back };
}

function selectionFilter(bulk: ConsoleBulk, statuses: readonly string[]): SubmissionFilter {
  return bulk.ids !== null ? { spam: null, ids: bulk.ids } : parseFilter(bulk.filterEntries, statuses);
}

function done(count: number, bulk: ConsoleBulk): string {
  const what = `${count} submission(s)`;
  if (bulk.action === 'setStatus') return `${what} changed to ${bulk.status ?? ''}.`;
  if (bulk.action === 'markSpam') return `${what} marked as spam.`;
  if (bulk.action === 'markNotSpam') return `${what} marked as not spam; their notifications are on their way.`;
  return `${what} deleted with their files.`;
}

export async function consoleBulkRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { services, signedIn, writer, assertSameOrigin } = kit;
  serveAsset(scope, 'console-bulk.js', 'text/javascript', CONSOLE_BULK_JS);

  /** An export of the selection is a read: any signed-in viewer with the session's CSRF token. */
  const reader = async (request: FastifyRequest) => {
    assertSameOrigin(request);
    const current = await signedIn(request);
    if (!current) throw new SvcError('AUTH_REQUIRED', 'Sign in to the console again.');
    const token = ((request.body ?? {}) as Entries)['csrf'];
    if (typeof token !== 'string' || !safeEqual(token, current.viewer.csrf)) throw new SvcError('CSRF_INVALID');
    return current;
  };

  scope.post<{ Params: { handle: string }; Body: Entries }>(`${CONSOLE_BASE}/forms/:handle/bulk`, async (request, reply) => {
    const body = (request.body ?? {}) as Entries;
    const bulk = parseConsoleBulk(body, request.params.handle, services.statuses);
    if (bulk.action === 'export') {
      const { principal, session } = await reader(request);
      const query = parseExportQuery({ format: 'csv', bom: 'true' }, services.statuses);
      const filter = selectionFilter(bulk, services.statuses);
      const { stream, filename } = await startExport(services, principal, request.params.handle, { ...query, filter }, { actor: `${session.kind}:${session.name}`, ip: request.ip });
      stream.once('error', (error) => request.log.error({ err: error }, 'console bulk export failed while streaming'));
      return reply
        .header('Content-Type', EXPORT_CONTENT_TYPES.csv)
        .header('Content-Disposition', attachmentDisposition(filename))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .send(stream);
    }
    const { principal, viewer } = await writer(request);
    const form = readableForm(services, principal, request.params.handle);
    const count = await countSubmissions(services, principal, form.handle, selectionFilter(bulk, services.statuses));
    return pageHeaders(reply).send(renderBulkConfirm({ handle: form.handle, formName: form.name, action: bulk.action, status: bulk.status, ids: bulk.ids, filter: bulk.filterEntries, count, back: bulk.back }, viewer));
  });

  scope.post<{ Params: { handle: string }; Body: Entries }>(`${CONSOLE_BASE}/forms/:handle/bulk/apply`, async (request, reply) => {
    const { principal, by } = await writer(request);
    const bulk = parseConsoleBulk((request.body ?? {}) as Entries, request.params.handle, services.statuses);
    if (bulk.action === 'export') throw new SvcError('PAYLOAD_INVALID', 'An export needs no confirmation.');
    if (bulk.ids !== null && bulk.ids.length === 0) throw new SvcError('PAYLOAD_INVALID', 'Tick at least one row.');
    const action = bulk.action === 'setStatus' ? { kind: 'setStatus' as const, status: bulk.status ?? '' } : { kind: bulk.action };
    const selection = bulk.ids !== null ? { ids: bulk.ids } : { filter: parseFilter(bulk.filterEntries, services.statuses) };
    const wanted: BulkRequest = { selection, action };
    const { changed } = await runBulk(services, principal, request.params.handle, wanted, by);
    flash(reply, kit, done(changed, bulk));
    return reply.redirect(bulk.back, 303);
  });
}
