/** The insights route as JSON Schema, for validation and the OpenAPI document (issue #38). */
import { Type, type TSchema } from '@sinclair/typebox';
import { errorResponses } from '../http/error-schemas.js';
import { dataEnvelope, described, pathParams, routeSchema } from '../http/route-schema.js';
import { FORM_HANDLE } from '../forms/manifest-schemas.js';

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

export const InsightsReportSchema = Type.Object(
  {
    form: Type.String(),
    from: Type.String({ description: 'Start of the period (inclusive), ISO 8601.' }),
    to: Type.String({ description: 'End of the period (exclusive), ISO 8601.' }),
    site: Nullable(Type.String({ description: 'The site counted; null for all sites.' })),
    views: Type.Integer({ description: 'Manifests served (REST, GraphQL, classic and profile pages).' }),
    starts: Type.Integer({ description: 'Journeys started: the first successful next or the first validate.' }),
    completions: Type.Integer({ description: 'Journeys that ended in a stored submission (not spam).' }),
    completionRate: Type.Number({ description: 'completions / starts, to 4 places; 0 when none started.' }),
    pages: Type.Array(
      Type.Object(
        {
          index: Type.Integer(),
          reached: Type.Integer({ description: 'Journeys that came to this page.' }),
          left: Type.Integer({ description: 'Journeys whose last page this is, without a submission.' }),
          medianSeconds: Nullable(Type.Integer({ description: 'Median time on the page of journeys that went on (a histogram bucket floor).' })),
        },
        { additionalProperties: false },
      ),
    ),
    fields: Type.Array(
      Type.Object(
        {
          handle: Type.String(),
          errors: Type.Integer(),
          messages: Type.Array(Type.Object({ key: Type.String({ description: 'The message catalogue key, `custom` or `other`.' }), count: Type.Integer() }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
    drafts: Type.Object({ saves: Type.Integer(), resumes: Type.Integer() }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const adminInsightsSchema = routeSchema({
  summary: "A form's drop-off and field friction over a period",
  description: 'Aggregates only (docs/insights.md): counts per hour, no values, addresses or identifiers. Exact figures.',
  tags: ['admin'],
  security: [{ adminKey: [] }],
  params: pathParams(FORM_HANDLE),
  querystring: Type.Object(
    {
      from: Type.Optional(Type.String({ description: 'ISO date or date-time; default 30 days before `to`.' })),
      to: Type.Optional(Type.String({ description: 'ISO date (its whole day) or date-time, exclusive; default now.' })),
      site: Type.Optional(Type.String({ description: 'A site handle; all sites when absent.' })),
    },
    { additionalProperties: false },
  ),
  response: { 200: described('The figures.', dataEnvelope(InsightsReportSchema)), ...errorResponses(400, 401, 403, 404, 500) },
});
