/** /healthz, /health and /readyz as JSON Schema, for the OpenAPI document (issue #16). */
import { Type } from '@sinclair/typebox';
import { BASE_ERRORS, errorResponses } from '../http/error-schemas.js';
import { described, routeSchema } from '../http/route-schema.js';

const Alive = Type.Object({ status: Type.Literal('ok'), uptimeSeconds: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

export const livenessSchema = routeSchema({
  summary: 'The process is alive and answering',
  tags: ['operations'],
  response: { 200: described('Alive.', Alive), ...errorResponses(...BASE_ERRORS) },
});

export const legacyLivenessSchema = routeSchema({ ...livenessSchema, summary: 'The older name of /healthz' });

const Readiness = Type.Object(
  {
    status: Type.Unsafe<string>({ type: 'string', enum: ['ready', 'not_ready'] }),
    checks: Type.Record(Type.String(), Type.Unsafe<string>({ type: 'string', enum: ['ok', 'failing'] }), { description: 'database, forms, redis (when configured), fileStore.' }),
  },
  { additionalProperties: false },
);

export const readinessSchema = routeSchema({
  summary: 'It can serve forms: database, forms, Redis when configured, file store',
  tags: ['operations'],
  response: { 200: described('Ready.', Readiness), 503: described('Not ready: the failing part is named.', Readiness), ...errorResponses(...BASE_ERRORS) },
});
