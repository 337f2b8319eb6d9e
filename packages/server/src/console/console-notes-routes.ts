/**
 * The console's note form (issue #35 item 3): posts to the same service as the admin API, then
 * back to the submission with a confirmation; a refused note (empty, too long) is shown again on
 * the submission's page with the reason, its text kept.
 */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import { addNote } from '../admin/admin-notes-service.js';
import { getSubmission } from '../admin/admin-service.js';
import { baseUrl } from '../admin/admin-http.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, type ConsoleKit, type Entries } from './console-kit.js';
import { renderSubmission } from './console-submission-pages.js';
import { flash } from './console-flash.js';

export async function consoleNotesRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { ctx, services, writer } = kit;

  scope.post<{ Params: { id: string }; Body: Entries }>(`${CONSOLE_BASE}/submissions/:id/notes`, async (request, reply) => {
    const { principal, viewer, by } = await writer(request);
    const text = ((request.body ?? {}) as Entries)['text'] ?? '';
    try {
      const note = await addNote(services, principal, request.params.id, text, by);
      flash(reply, kit, 'Note added.');
      return reply.redirect(`${CONSOLE_BASE}/submissions/${encodeURIComponent(request.params.id)}#note-${note.id}`, 303);
    } catch (error) {
      if (!(error instanceof SvcError) || (error.code !== 'PAYLOAD_INVALID' && error.code !== 'NOTE_TOO_LONG')) throw error;
      const detail = await getSubmission(services, principal, request.params.id, baseUrl(ctx, request));
      const form = services.forms.get(detail.form.handle);
      if (!form) throw new SvcError('SUBMISSION_NOT_FOUND');
      return pageHeaders(reply.code(error.status)).send(renderSubmission(detail, form, services.statuses, viewer, { text: text.slice(0, 20_000), error: error.message }));
    }
  });
}
