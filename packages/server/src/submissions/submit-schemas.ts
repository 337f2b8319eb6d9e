/**
 * The submit request and the submit object of contract §4 as JSON Schema (issue #16). The same
 * object answers REST, profiles and the payment checkpoint's refusals, so those rooms use these.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { BODY_ERRORS, errorEnvelope, errorResponses, GUARDED_ERRORS, LIMITED_ERRORS } from '../http/error-schemas.js';
import { described, pathParams, routeSchema, sharedSchema } from '../http/route-schema.js';
import { FORM_HANDLE, SITE_QUERY } from '../forms/manifest-schemas.js';
import { INTENTS } from './submit-request.js';

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const NameValue = Type.Object({ name: Type.String(), value: Type.String() });

export const SubmitRequestBody = Type.Object(
  {
    intent: Type.Unsafe<string>({ type: 'string', enum: [...INTENTS] }),
    values: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Field handle to value.' })),
    meta: Type.Optional(
      Nullable(
        Type.Object({
          honeypot: Type.Optional(Type.Object({ name: Type.String(), value: Type.String(), timestamp: Type.Optional(Type.String()) })),
          javascriptTest: Type.Optional(NameValue),
          captchas: Type.Optional(Type.Array(NameValue)),
          captcha: Type.Optional(NameValue),
          idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
          client: Type.Optional(Type.Unknown()),
          clientVersion: Type.Optional(Type.Unknown()),
        }),
      ),
    ),
    context: Type.Optional(
      Nullable(
        Type.Object({
          stateToken: Type.Optional(Nullable(Type.String())),
          draftToken: Type.Optional(Nullable(Type.String())),
          draftKey: Type.Optional(Nullable(Type.String())),
          uploadToken: Type.Optional(Nullable(Type.String())),
          token: Type.Optional(Nullable(Type.String())),
          sourceUrl: Type.Optional(Type.Unknown()),
          site: Type.Optional(Nullable(Type.String({ description: 'The site submitted on (issue #34), as `?site=`; absent: the query, else the default site.' }))),
        }),
      ),
    ),
    // Taken on every submit route, read only by a profile's (which refuses a non-object itself).
    properties: Type.Optional(Type.Unknown({ description: "A profile's properties (contract §9): an object on a profile submit, ignored elsewhere." })),
  },
  { additionalProperties: false, description: 'JSON, or the same as the multipart field `_svc` with files in parts named by field handle.' },
);

export const SubmitObject = sharedSchema('SubmitObject', Type.Object(
  {
    success: Type.Boolean(),
    status: Type.Unsafe<string>({
      type: 'string',
      enum: ['submitted', 'page_valid', 'validated', 'validation_failed', 'draft_saved', 'context_invalid', 'context_required', 'spam_rejected', 'captcha_failed', 'limit_reached'],
    }),
    complete: Type.Boolean(),
    submission: Nullable(Type.Object({ id: Type.Integer(), uid: Type.String(), token: Type.String() }, { additionalProperties: false })),
    message: Nullable(Type.String()),
    redirect: Nullable(Type.Object({ url: Type.String(), delay: Type.Number() }, { additionalProperties: false })),
    page: Type.Object({ currentIndex: Type.Integer(), total: Type.Integer() }, { additionalProperties: false }),
    state: Type.Object(
      {
        values: Type.Record(Type.String(), Type.Unknown()),
        pageIndex: Type.Integer(),
        token: Nullable(Type.String()),
        files: Type.Optional(
          Type.Record(Type.String(), Type.Array(Type.Object({ id: Type.String(), name: Type.String(), extension: Type.String(), size: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })), {
            description: 'Only when a draft was loaded: the uploads its values name, by field handle, with the name and size (bytes) they were uploaded with.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    draft: Nullable(Type.Object({ token: Type.String(), key: Type.String(), resumeUrl: Nullable(Type.String()) }, { additionalProperties: false })),
    errors: Type.Object({ fields: Type.Record(Type.String(), Type.Array(Type.String())), form: Type.Array(Type.String()) }, { additionalProperties: false }),
    warnings: Type.Array(Type.String()),
  },
  { additionalProperties: false, description: 'The submit object (contract §4).' },
));

/** The submit request as a component of the document. */
export const SubmitRequestRef = sharedSchema('SubmitRequest', SubmitRequestBody);

/** What a submit answers: the object at 200, and at 422 and 429 either it or the catalogue's refusal of that status. */
export function submitResponses(...errorStatuses: readonly number[]): Record<number, TSchema> {
  return {
    ...errorResponses(...errorStatuses.filter((status) => status !== 429)),
    200: described('Done: submitted, page valid, validated or draft saved (see status).', SubmitObject),
    422: Type.Union([SubmitObject, errorEnvelope(422)], { description: 'Refused values (the submit object) or a payment amount that is not valid (PAYMENT_AMOUNT_INVALID).' }),
    429: Type.Union([SubmitObject, errorEnvelope(429)], { description: 'The form\'s submission limit (`limit_reached`) or the rate limit (RATE_LIMITED).' }),
  };
}

/** Refusals of the submit routes: bad bodies and tokens, guard, idempotency, limits, payments. */
export const SUBMIT_ERRORS = [...BODY_ERRORS, ...GUARDED_ERRORS, ...LIMITED_ERRORS, 409, 502] as const;

export const submitSchema = routeSchema({
  summary: 'Submit, validate, page or save a draft',
  description: 'One endpoint for every intent (contract §4). JSON carries the CSRF token in X-CSRF-Token; multipart in the SVC_CSRF_TOKEN field.',
  tags: ['forms'],
  params: pathParams(FORM_HANDLE),
  querystring: SITE_QUERY,
  headers: Type.Object({
    'x-csrf-token': Type.Optional(Type.String({ description: 'The token from GET /svc/tokens (JSON bodies).' })),
    'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  }),
  body: {
    content: {
      'application/json': { schema: SubmitRequestRef },
      'multipart/form-data': { schema: Type.Object({ _svc: Type.String({ description: 'The JSON request.' }), SVC_CSRF_TOKEN: Type.Optional(Type.String()) }) },
    },
  },
  response: submitResponses(...SUBMIT_ERRORS),
});
