/** GET /svc/tokens (contract §3) as JSON Schema, for the OpenAPI document (issue #16). */
import { Type } from '@sinclair/typebox';
import { errorResponses, GUARDED_ERRORS, LIMITED_ERRORS } from '../http/error-schemas.js';
import { described, routeSchema } from '../http/route-schema.js';

export const csrfTokenSchema = routeSchema({
  summary: 'A CSRF token and the cookie that binds it',
  description: 'Empty object when CSRF is off (csrf.enabled: false). Never cached.',
  tags: ['security'],
  response: {
    200: described('The token to send as X-CSRF-Token (JSON) or the SVC_CSRF_TOKEN field (multipart).', Type.Object(
      { csrf: Type.Optional(Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false })) },
      { additionalProperties: false },
    )),
    ...errorResponses(...GUARDED_ERRORS, ...LIMITED_ERRORS),
  },
});
