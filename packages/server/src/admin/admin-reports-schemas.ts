/** The report route of the admin API (issue #35 item 6) as JSON Schema, for validation and the OpenAPI document. */
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../http/error-schemas.js';
import { dataEnvelope, described, pathParams, routeSchema } from '../http/route-schema.js';
import { FORM_HANDLE } from '../forms/manifest-schemas.js';

const Counts = { clean: Type.Integer({ description: 'Not spam.' }), spam: Type.Integer() };

export const FormReportSchema = Type.Object(
  {
    form: Type.String(),
    from: Type.String({ description: 'Start of the period (inclusive), ISO 8601: the hour `from` falls in (counts are kept per UTC hour).' }),
    to: Type.String({ description: 'End of the period (exclusive), ISO 8601: `to` rounded up to a whole UTC hour.' }),
    interval: Type.Union([Type.Literal('day'), Type.Literal('week'), Type.Literal('month')]),
    timezone: Type.String({ description: "The IANA zone whose days, weeks (from Monday) and months the series counts: the default site's, else UTC." }),
    total: Type.Integer({ description: 'Submissions of the period that are not spam; the answers are counted over these.' }),
    spam: Type.Integer({ description: 'Spam submissions of the period.' }),
    series: Type.Array(Type.Object({ bucket: Type.String({ description: '`YYYY-MM-DD` (a week by its Monday) or `YYYY-MM`.' }), ...Counts }, { additionalProperties: false }), { description: 'Every bucket of the period, oldest first, empty ones included.' }),
    statuses: Type.Array(Type.Object({ status: Type.String(), ...Counts }, { additionalProperties: false })),
    fields: Type.Array(
      Type.Object(
        {
          handle: Type.String(),
          label: Type.String(),
          type: Type.String({ description: 'select, radioGroup, multipleSelect, checkboxGroup, opinionScale or rating.' }),
          answers: Type.Array(
            Type.Object({ value: Type.String(), label: Type.String(), count: Type.Integer({ description: 'Clean submissions of the period with this answer (a list answer counts each of its elements).' }) }, { additionalProperties: false }),
            { description: "Every option in the form's order, zero counts included, then stored answers no option has any more." },
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const adminReportsSchema = routeSchema({
  summary: "A form's report: submissions over time, by status and spam, and each choice field's answers",
  description: 'Summed from the counts kept at write time, in whole UTC hours (docs/console.md#reports). Exact figures.',
  tags: ['admin'],
  security: [{ adminKey: [] }],
  params: pathParams(FORM_HANDLE),
  querystring: Type.Object(
    {
      from: Type.Optional(Type.String({ description: 'ISO date or date-time (UTC); default 30 days before `to`.' })),
      to: Type.Optional(Type.String({ description: 'ISO date (its whole day) or date-time, exclusive; default now.' })),
      interval: Type.Optional(Type.String({ description: 'day (default), week or month; at most 400 buckets.' })),
    },
    { additionalProperties: false },
  ),
  response: { 200: described('The report.', dataEnvelope(FormReportSchema)), ...errorResponses(400, 401, 403, 404, 500) },
});
