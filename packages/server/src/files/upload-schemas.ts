/** The drag-and-drop upload routes (contract §7) as JSON Schema, for the OpenAPI document (issue #16). */
import { Type } from '@sinclair/typebox';
import { BODY_ERRORS, errorResponses, GUARDED_ERRORS, LIMITED_ERRORS } from '../http/error-schemas.js';
import { described, metaOf, pathParams, routeSchema } from '../http/route-schema.js';

const params = pathParams({ handle: 'The form handle.', field: 'The handle of a file field.' });
const uploadToken = Type.Object({
  'x-svc-upload-token': Type.Optional(Type.String({ description: "The client's upload token: 8-128 URL-safe characters (a UUID normally)." })),
});
const ERRORS = [...BODY_ERRORS, ...GUARDED_ERRORS, ...LIMITED_ERRORS, 404] as const;

export const uploadSchema = routeSchema({
  summary: 'Upload one file for a file field',
  description: 'Multipart with the file in a part named by the field handle; CSRF in the SVC_CSRF_TOKEN field before it.',
  tags: ['files'],
  params,
  headers: uploadToken,
  body: { content: { 'multipart/form-data': { schema: Type.Object({ SVC_CSRF_TOKEN: Type.Optional(Type.String()) }, { description: 'And one file part named by the field handle.' }) } } },
  response: {
    200: described('Stored: name the id in the submit, with the same upload token.', Type.Object(
      {
        success: Type.Literal(true),
        data: Type.Object({ id: Type.String(), name: Type.String(), extension: Type.String(), size: Type.Integer() }, { additionalProperties: false }),
        meta: metaOf({ uploadToken: Type.String() }),
      },
      { additionalProperties: false },
    )),
    ...errorResponses(...ERRORS),
  },
});

const DeleteBody = Type.Object({ id: Type.String(), uploadToken: Type.Optional(Type.String()), SVC_CSRF_TOKEN: Type.Optional(Type.String()) });

export const uploadDeleteSchema = routeSchema({
  summary: 'Remove an uploaded file again',
  description: 'The upload token in X-Svc-Upload-Token or `uploadToken`; JSON, form-encoded or multipart as the official extension sends it.',
  tags: ['files'],
  params,
  headers: uploadToken,
  body: { content: { 'application/json': { schema: DeleteBody }, 'multipart/form-data': { schema: DeleteBody } } },
  response: { 200: described('Removed.', Type.Object({ success: Type.Literal(true) }, { additionalProperties: false })), ...errorResponses(...ERRORS) },
});
