/** The bulk route (issue #35 item 1) as JSON Schema, for the OpenAPI document (issue #16). */
import { Type } from '@sinclair/typebox';
import { BODY_ERRORS, errorResponses } from '../http/error-schemas.js';
import { dataEnvelope, described, pathParams, routeSchema } from '../http/route-schema.js';
import { FORM_HANDLE } from '../forms/manifest-schemas.js';
import { BULK_MAX } from './admin-bulk-writes.js';

const filter = Type.Object(
  {
    status: Type.Optional(Type.String({ description: 'A configured status handle.' })),
    spam: Type.Optional(Type.Union([Type.Boolean(), Type.Unsafe<string>({ type: 'string', enum: ['true', 'false', 'all'] })], { description: 'Spam only, no spam (the default) or all.' })),
    from: Type.Optional(Type.String({ description: 'An ISO date or date-time.' })),
    to: Type.Optional(Type.String({ description: 'An ISO date (the whole day) or date-time.' })),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Text to search the title and values for.' })),
  },
  { additionalProperties: false, description: "The list route's filters; everything they match is acted on." },
);

export const adminBulkSchema = routeSchema({
  summary: "Change, mark or delete many of a form's submissions at once (audited)",
  description: `Send \`ids\` or \`filter\`, and an \`action\`: \`setStatus\` (with \`status\`), \`markSpam\`, \`markNotSpam\` (queues the deliveries a clean submission would have had) or \`delete\` (with files). Only submissions the action changes are counted and audited, one entry each, in the transaction of the change. At most ${BULK_MAX} per call: more ids, or a filter matching more, is 422 BULK_TOO_LARGE.`,
  tags: ['admin'],
  security: [{ adminKey: [] }],
  params: pathParams(FORM_HANDLE),
  body: Type.Object(
    {
      ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: BULK_MAX })),
      filter: Type.Optional(filter),
      action: Type.Unsafe<string>({ type: 'string', enum: ['setStatus', 'markSpam', 'markNotSpam', 'delete'] }),
      status: Type.Optional(Type.String({ description: 'The new status (setStatus only).' })),
    },
    { additionalProperties: false },
  ),
  response: {
    200: described('How many submissions changed.', dataEnvelope(Type.Object({ changed: Type.Integer() }, { additionalProperties: false }))),
    ...errorResponses(400, 401, 403, 404, 422, 500, ...BODY_ERRORS),
  },
});
