/** GET /metrics (on the main port, behind the bearer token) for the OpenAPI document (issue #16). */
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../http/error-schemas.js';
import { routeSchema } from '../http/route-schema.js';

export const metricsSchema = routeSchema({
  summary: 'Prometheus metrics',
  tags: ['operations'],
  security: [{ metricsToken: [] }],
  response: {
    200: { description: 'The Prometheus text exposition format.', content: { 'text/plain': { schema: Type.String() } } },
    ...errorResponses(401, 500),
  },
});
