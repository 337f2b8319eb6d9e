/**
 * Drag and drop (interface.md §4.4, contract §7): `POST /svc/api/forms/{h}/files/{field}` stores
 * one file for a file field under the client's upload token; `…/delete` removes one again. A
 * submit later names the uploads by id together with the same token.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SvcError, UPLOAD_ID, UPLOAD_TOKEN } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { resolveHeadlessForm } from '../http/form-access.js';
import { withLimit } from '../http/rate-limit-hooks.js';
import { createCsrfGate, drainPart, multipartParts, readMultipartFields } from '../http/multipart-support.js';
import { browserBindingHash, ensureBrowserBinding } from '../security/browser-binding.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';
import { sha256 } from '../security/token-crypto.js';
import { SERVICE_VERSION } from '../version.js';
import { uploadDeleteSchema, uploadSchema } from './upload-schemas.js';

type Params = { handle: string; field: string };

/**
 * The client's upload token, from the X-Svc-Upload-Token header (or an `uploadToken` field). A
 * UUID normally; the official client makes `ff-<ms>-<random>` where crypto.randomUUID is missing
 * (pages on plain http), so any 8-128 URL-safe characters are taken. Case-folded, as UUIDs are.
 */
function readUploadToken(request: FastifyRequest, field?: unknown): { token: string; owner: string } {
  const header = request.headers['x-svc-upload-token'];
  const token = (Array.isArray(header) ? header[0] : header) ?? (typeof field === 'string' ? field : undefined);
  if (!token || !UPLOAD_TOKEN.test(token)) {
    throw new SvcError('PAYLOAD_INVALID', 'Send an upload token (a UUID) in the X-Svc-Upload-Token header.');
  }
  const lower = token.toLowerCase();
  return { token: lower, owner: sha256(lower) };
}

export async function uploadRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const hooks = { config: { cors: 'form' as const }, onRequest: withLimit(ctx.guard, ctx.limits.upload) };

  app.post<{ Params: Params }>('/svc/api/forms/:handle/files/:field', { ...hooks, schema: uploadSchema }, async (request, reply) => {
    const form = resolveHeadlessForm(ctx, request.params.handle, 'submit');
    if (!request.isMultipart()) throw new SvcError('MEDIA_TYPE_UNSUPPORTED', 'Send the file as multipart/form-data.');
    const { token, owner } = readUploadToken(request);
    // The browser that uploads may submit the id without its upload token (contract §7).
    const binding = browserBindingHash(ensureBrowserBinding(request, reply, ctx.config.csrf));
    const target = ctx.uploads.target(form, request.params.field, null);
    if (!target) throw new SvcError('PAYLOAD_INVALID', `"${request.params.field.slice(0, 64)}" is not a file field of this form.`);
    const gate = createCsrfGate(ctx, request);
    let result = null;
    for await (const part of multipartParts(request)) {
      if (part.type === 'field') {
        if (part.fieldname === CSRF_FIELD_NAME && typeof part.value === 'string') gate.offer(part.value);
        continue;
      }
      if (part.fieldname !== target.handle || result !== null) {
        await drainPart(part);
        throw new SvcError('PAYLOAD_INVALID', `Send exactly one file, in a part named "${target.handle}".`);
      }
      gate.require();
      // A token that already holds the field's fileCount is refused when the row would be written.
      result = await ctx.uploads.receive(form, target, { stream: part.file, filename: part.filename }, { ownerHash: owner, bindingHash: binding }, { countOwned: true });
    }
    if (result === null) throw new SvcError('PAYLOAD_INVALID', `Send the file in a part named "${target.handle}".`);
    if (!result.ok) {
      if (result.refusal === 'too_large') throw new SvcError('PAYLOAD_TOO_LARGE', 'The file is larger than this field allows.', { details: [result.message] });
      throw new SvcError('FILE_REJECTED', undefined, { details: [result.message] });
    }
    const { id, name, extension, size } = result.upload;
    return reply
      .header('Cache-Control', 'no-store')
      .send({ success: true, data: { id, name, extension, size }, meta: { pluginVersion: SERVICE_VERSION, uploadToken: token } });
  });

  app.post<{ Params: Params; Body: unknown }>('/svc/api/forms/:handle/files/:field/delete', { ...hooks, schema: uploadDeleteSchema }, async (request, reply) => {
    const form = resolveHeadlessForm(ctx, request.params.handle, 'submit');
    // JSON `{id}`, form-encoded, or multipart fields `id`, `uploadToken` and the CSRF field, as the
    // official drag-and-drop extension sends it (contract §7).
    const body = request.isMultipart() ? await readMultipartFields(request) : (request.body as Record<string, unknown> | undefined);
    const { owner } = readUploadToken(request, body?.uploadToken);
    const gate = createCsrfGate(ctx, request);
    if (typeof body?.[CSRF_FIELD_NAME] === 'string') gate.offer(body[CSRF_FIELD_NAME]);
    gate.require();
    const id = body?.id;
    if (typeof id !== 'string' || !UPLOAD_ID.test(id)) throw new SvcError('PAYLOAD_INVALID', 'Send the upload id as "id".');
    if (!(await ctx.uploads.delete(form, request.params.field, id, owner))) throw new SvcError('FILE_NOT_FOUND');
    return reply.header('Cache-Control', 'no-store').send({ success: true });
  });
}
