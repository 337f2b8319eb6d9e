/** The admin API's notes on a submission (issue #35): list them, add one. Thin over admin-notes-service.ts. */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { SvcError } from '@svc/core';
import type { AdminKeys } from './admin-keys.js';
import type { AdminServices } from './admin-service.js';
import { sendData } from './admin-http.js';
import { addNote, listNotes } from './admin-notes-service.js';
import { adminAddNoteSchema, adminListNotesSchema } from './admin-notes-schemas.js';

type Id = { Params: { id: string } };

/** The API's body is `{"text"}` and nothing else, as its OpenAPI schema says (the fuzzer sent `extra`). */
function noteText(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new SvcError('PAYLOAD_INVALID', 'The body must be a JSON object.');
  const { text, ...rest } = body as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw new SvcError('PAYLOAD_INVALID', `Unknown key(s): ${Object.keys(rest).map((k) => k.slice(0, 40)).join(', ')}.`);
  return text;
}

export interface AdminNotesDeps {
  readonly keys: AdminKeys;
  readonly services: AdminServices;
  readonly onRequest: onRequestHookHandler;
}

export async function adminNotesRoutes(app: FastifyInstance, deps: AdminNotesDeps): Promise<void> {
  const { keys, services, onRequest } = deps;

  app.get<Id>('/svc/api/admin/submissions/:id/notes', { onRequest, schema: adminListNotesSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    return sendData(reply, await listNotes(services, key, request.params.id));
  });

  app.post<Id>('/svc/api/admin/submissions/:id/notes', { onRequest, schema: adminAddNoteSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    const note = await addNote(services, key, request.params.id, noteText(request.body), { ip: request.ip });
    return sendData(reply.code(201), note);
  });
}
