/** The schema of the document's own route: it is a REST route like the others. */
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../http/error-schemas.js';
import { described, routeSchema } from '../http/route-schema.js';

export const openapiDocumentSchema = routeSchema({
  summary: 'This OpenAPI 3.1 document',
  description: 'Generated from the route schemas at boot; `svc openapi` prints the same document.',
  tags: ['meta'],
  response: {
    200: described('The document.', Type.Object({ openapi: Type.String(), info: Type.Object({ title: Type.String(), version: Type.String() }), paths: Type.Object({}) })),
    ...errorResponses(404, 500),
  },
});
