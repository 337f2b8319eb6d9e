/**
 * Streaming routes of the admin API: the export of a form's submissions (CSV or JSON Lines,
 * constant memory) and the signed file download, which needs no API key because the signed link
 * is the credential. Any failure of a link (bad signature, expired, file gone) is the same 404,
 * so a caller cannot tell which.
 */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { SvcError } from '@svc/core';
import type { AdminKeys } from './admin-keys.js';
import { parseExportQuery } from './admin-query.js';
import type { AdminServices } from './admin-service.js';
import { attachmentDisposition, fileResponseHeaders } from './download-links.js';
import { EXPORT_CONTENT_TYPES } from '../exports/export-stream.js';
import { startExport } from './admin-writes.js';
import { findAttachedFile } from '../submissions/submission-admin-repository.js';
import { adminDownloadSchema, adminExportSchema } from './admin-schemas.js';

export interface AdminExportDeps {
  readonly keys: AdminKeys;
  readonly services: AdminServices;
  readonly onRequest: onRequestHookHandler;
}

export async function adminExportRoutes(app: FastifyInstance, deps: AdminExportDeps): Promise<void> {
  const { keys, services, onRequest } = deps;

  app.get<{ Params: { handle: string } }>('/svc/api/admin/forms/:handle/export', { onRequest, schema: adminExportSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    const query = parseExportQuery(request.query as Record<string, unknown>, services.statuses);
    // Audited (issue #15): an export is a read that takes data away.
    const { stream, filename } = await startExport(services, key, request.params.handle, query, { ip: request.ip });
    // Once the first bytes are out the status is sent; a later failure can only cut the body short.
    stream.once('error', (error) => request.log.error({ err: error }, 'export failed while streaming'));
    return reply
      .header('Content-Type', EXPORT_CONTENT_TYPES[query.format])
      .header('Content-Disposition', attachmentDisposition(filename))
      .header('X-Content-Type-Options', 'nosniff')
      .send(stream);
  });

  app.get<{ Params: { id: string }; Querystring: { expires?: string; signature?: string; inline?: string } }>(
    '/svc/api/admin/files/:id/download',
    { onRequest, schema: adminDownloadSchema },
    async (request, reply) => {
      const { id } = request.params;
      const { expires, signature } = request.query;
      const valid = services.links.verify(id, typeof expires === 'string' ? expires : undefined, typeof signature === 'string' ? signature : undefined);
      const file = valid ? await findAttachedFile(services.db, id) : undefined;
      // Opened under the upload's data key (issue #37); Content-Length is the plain size.
      const body = file ? await services.uploads.read({ storageKey: file.storage_key, dataKey: file.data_key }) : null;
      if (!file || !body) throw new SvcError('FILE_NOT_FOUND');
      const shown = fileResponseHeaders(file.mime, file.name, request.query.inline === '1');
      return reply
        .header('Content-Type', file.mime)
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', shown.disposition)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', shown.csp)
        .send(body);
    },
  );
}
