/**
 * The privacy admin API (issue #37 items 3-4): find, export (a signed link to a zip) and erase
 * (a signed receipt), each needing the `privacy` scope, with values in JSON bodies only; and the
 * public key receipts are verified with, at GET /svc/privacy/receipt-key.
 */
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { createAdminKeys } from '../admin/admin-keys.js';
import { baseUrl, createAdminGuard, createAdminServices, sendData } from '../admin/admin-http.js';
import { attachmentDisposition } from '../admin/download-links.js';
import { appendAudit } from '../admin/audit-log.js';
import type { BlindIndex } from './privacy-blind-index.js';
import type { ReceiptSigner } from './privacy-receipts.js';
import type { ExportLinks } from './privacy-export-links.js';
import { assertCanPrivacy, findSubject, parseSubjectRequest } from './privacy-subjects.js';
import { eraseSubject } from './privacy-erasure.js';
import { exportSubject } from './privacy-export.js';
import { EXPORT_DOWNLOAD_PATH } from './privacy-export-links.js';
import { privacyEraseSchema, privacyExportDownloadSchema, privacyExportSchema, privacyFindSchema, receiptKeySchema } from './privacy-schemas.js';

const BASE = '/svc/api/admin/privacy';

/** What the routes use of the feature (declared here, so this file does not import the feature's entry). */
export interface PrivacyRouteServices {
  readonly index: BlindIndex;
  readonly signer: ReceiptSigner;
  readonly links: ExportLinks;
}

export async function privacyRoutes(app: FastifyInstance, ctx: AppContext, privacy: PrivacyRouteServices): Promise<void> {
  const keys = createAdminKeys(ctx.config);
  const onRequest = createAdminGuard(ctx.config.headless.enabled);
  const services = createAdminServices(ctx);
  const { index } = privacy;

  app.post(`${BASE}/find`, { onRequest, schema: privacyFindSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    assertCanPrivacy(key);
    const { subject } = parseSubjectRequest(request.body, index);
    return sendData(reply, { subject, submissions: await findSubject(services.db, key, subject) });
  });

  app.post(`${BASE}/export`, { onRequest, schema: privacyExportSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    assertCanPrivacy(key);
    const { subject } = parseSubjectRequest(request.body, index);
    const found = await findSubject(services.db, key, subject);
    const link = privacy.links.create({ subject, account: { kind: 'key', name: key.name } });
    return sendData(reply, { subject, submissions: found.length, downloadUrl: `${baseUrl(ctx, request)}${link.path}`, expiresAt: link.expiresAt });
  });

  app.get(EXPORT_DOWNLOAD_PATH, { onRequest, schema: privacyExportDownloadSchema }, async (request, reply) => {
    const target = privacy.links.verify((request.query ?? {}) as Record<string, unknown>);
    const principal = target ? keys.account(target.account.kind, target.account.name)?.principal : undefined;
    // A forged, expired or no-longer-entitled link: the same 404 as a file link.
    if (!target || !principal?.canPrivacy) throw new SvcError('FILE_NOT_FOUND');
    const { count, stream } = await exportSubject(services, principal, target.subject);
    const actor = `${target.account.kind}:${target.account.name}`;
    await appendAudit(services.db, { key: principal, actor, ip: request.ip, action: 'privacy.export', form: null, target: `subject:${target.subject.kind}:${target.subject.hash}`, detail: { submissions: count } }, services.now());
    return reply
      .header('Content-Type', 'application/zip')
      .header('Content-Disposition', attachmentDisposition(`privacy-export-${services.now().toISOString().slice(0, 10)}.zip`))
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('X-Content-Type-Options', 'nosniff')
      .send(stream);
  });

  app.post(`${BASE}/erase`, { onRequest, schema: privacyEraseSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    assertCanPrivacy(key, true);
    const { subject, confirm } = parseSubjectRequest(request.body, index, true);
    if (!confirm) throw new SvcError('PAYLOAD_INVALID', 'Erasing cannot be undone: send "confirm": true.');
    return sendData(reply, await eraseSubject({ ...services, signer: privacy.signer }, key, subject, { ip: request.ip }));
  });

  app.get('/svc/privacy/receipt-key', { schema: receiptKeySchema }, async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8').send(privacy.signer.jwks()));
}
