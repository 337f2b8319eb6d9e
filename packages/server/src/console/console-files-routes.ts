/**
 * The console's image viewer (issue #35 item 5): one image of a submission large, with the
 * previous and next ones a link (or an arrow key) away. Judged by the same scopes as the
 * submission: a file of a submission the viewer may not see is the same not-found page.
 */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import { getSubmission } from '../admin/admin-service.js';
import { baseUrl } from '../admin/admin-http.js';
import { CONSOLE_BASE } from './console-pages.js';
import { pageHeaders, serveAsset, type ConsoleKit } from './console-kit.js';
import { isImage, renderViewer } from './console-files-pages.js';
import { CONSOLE_FILES_JS } from './console-files-script.js';

export async function consoleFilesRoutes(scope: FastifyInstance, kit: ConsoleKit): Promise<void> {
  const { ctx, services, signedIn, notFound } = kit;
  serveAsset(scope, 'console-files.js', 'text/javascript', CONSOLE_FILES_JS);

  scope.get<{ Params: { id: string; fileId: string } }>(`${CONSOLE_BASE}/submissions/:id/files/:fileId`, async (request, reply) => {
    const current = await signedIn(request);
    if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    const { principal, viewer } = current;
    try {
      const detail = await getSubmission(services, principal, request.params.id, baseUrl(ctx, request));
      const form = services.forms.get(detail.form.handle);
      // Field order, then upload order: the order the submission page shows the thumbnails in.
      const order = new Map((form?.fields ?? []).map((f, i) => [f.handle as string, i]));
      const images = detail.files.filter(isImage).sort((a, b) => (order.get(a.field) ?? 0) - (order.get(b.field) ?? 0));
      const index = images.findIndex((f) => f.id === request.params.fileId);
      if (index < 0) return notFound(reply, 'This image is not part of the submission (it may have been deleted), or you may not see it.', viewer);
      return pageHeaders(reply).send(renderViewer({ submissionId: detail.id, title: detail.title || `Submission #${detail.id}`, images, index }, viewer));
    } catch (error) {
      if (error instanceof SvcError && error.code === 'SUBMISSION_NOT_FOUND') return notFound(reply, 'This submission does not exist any more, or you may not see it.', viewer);
      throw error;
    }
  });
}
