/**
 * The classic routes (contract §10) as JSON Schema, for the OpenAPI document (issue #16): the
 * form-properties JSON, its per-visitor parts, and the form post, which answers a script in JSON
 * and a browser with a redirect or a plain page.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { errorEnvelope, errorResponses, GUARDED_ERRORS } from '../http/error-schemas.js';
import { described, emptyResponse, jsonOrHtml, pathParams, type ResponseSchema, routeSchema } from '../http/route-schema.js';
import { FORM_HANDLE, ManifestField } from '../forms/manifest-schemas.js';

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const Honeypot = Type.Object({ name: Type.String(), value: Type.String() }, { additionalProperties: false });
const Draft = Nullable(Type.Object({ token: Type.String(), key: Type.String(), resumeUrl: Nullable(Type.String()) }));

const visitorKeys = {
  hash: Type.String({ description: 'The formHash to post back.' }),
  svc_payload: Type.Optional(Type.String({ description: 'The sealed payload to post back (classic.sessionStorage: payload).' })),
  csrf: Type.Optional(Type.Object({ name: Type.String(), token: Type.String() }, { additionalProperties: false })),
  honeypot: Type.Optional(Honeypot),
};

const VisitorParts = Type.Object(visitorKeys, { additionalProperties: false, description: 'What differs per visitor: never cache it.' });

const Properties = Type.Object(
  {
    ...visitorKeys,
    handle: Type.String(),
    ajax: Type.Boolean(),
    ajaxEnabled: Type.Boolean(),
    disableSubmit: Type.Boolean(),
    disableReset: Type.Boolean(),
    showSpinner: Type.Boolean(),
    showLoadingText: Type.Boolean(),
    loadingText: Type.String(),
    class: Type.String(),
    method: Type.Literal('post'),
    enctype: Type.String(),
    successMessage: Type.String(),
    errorMessage: Type.String(),
    anchor: Type.String(),
    action: Type.String(),
    actionUrl: Type.String(),
    captcha: Type.Optional(Type.Object({ enabled: Type.Boolean(), handle: Type.String(), name: Type.String() })),
    mailingListName: Type.Optional(Type.Array(Type.String())),
    page: Type.Object({
      index: Type.Integer(),
      label: Type.String(),
      buttons: Nullable(Type.Object({})),
      rows: Type.Array(Type.Object({ fields: Type.Array(Type.String()) })),
      fields: Type.Record(Type.String(), ManifestField),
    }),
    pageCount: Type.Integer(),
    values: Type.Record(Type.String(), Type.Unknown()),
    errors: Type.Record(Type.String(), Type.Array(Type.String())),
    formErrors: Type.Array(Type.String()),
    finished: Type.Boolean(),
    message: Nullable(Type.String()),
    submissionId: Nullable(Type.Integer()),
    draft: Draft,
    formReturnUrl: Type.Optional(Type.String({ description: 'The signed return URL a page asked for with ?returnUrl=.' })),
    warnings: Type.Optional(Type.Array(Type.String(), { description: '`flash_not_found`: the ?flash= key was unknown or spent.' })),
  },
  { additionalProperties: false, description: 'The form-properties JSON (interface.md §2.10) and the page to draw now.' },
);

export const classicPropertiesSchema = routeSchema({
    summary: 'The form-properties JSON a server-side renderer draws a plain <form> from',
    tags: ['classic'],
    params: pathParams(FORM_HANDLE),
    querystring: Type.Object({
      flash: Type.Optional(Type.String({ description: 'The svc_flash key a post sent the browser back with.' })),
      returnUrl: Type.Optional(Type.String({ description: 'Where the finished form may send the browser (an origin the form allows).' })),
      site: Type.Optional(Type.String({ description: 'A configured site handle (issue #34): the properties in its language; absent: the default site.' })),
    }),
    response: { 200: described('The properties, never cached (they carry per-visitor parts).', Properties), ...errorResponses(400, ...GUARDED_ERRORS) },
  });

export const classicSessionSchema = routeSchema({
  summary: 'Only the per-visitor parts, for a page cached with the rest',
  tags: ['classic'],
  params: pathParams(FORM_HANDLE),
  response: { 200: described('The per-visitor parts.', VisitorParts), ...errorResponses(...GUARDED_ERRORS) },
});

const ClassicAnswer = Type.Object(
  {
    success: Type.Boolean(),
    finished: Type.Boolean(),
    status: Type.String(),
    submissionId: Nullable(Type.Integer()),
    submissionToken: Nullable(Type.String()),
    errors: Type.Record(Type.String(), Type.Array(Type.String())),
    formErrors: Type.Array(Type.String()),
    message: Nullable(Type.String()),
    returnUrl: Nullable(Type.String()),
    page: Type.Object({ index: Type.Integer(), total: Type.Integer() }, { additionalProperties: false }),
    hash: Type.String(),
    svc_payload: Nullable(Type.String()),
    honeypot: Nullable(Honeypot),
    draft: Draft,
  },
  { additionalProperties: false, description: 'The answer to a script (Accept: application/json or X-Requested-With): refusals too answer 200 with success false.' },
);

const PostBody = Type.Object(
  {
    action: Type.Literal('svc/submit'),
    formHash: Type.String(),
    svc_payload: Type.Optional(Type.String()),
    SVC_CSRF_TOKEN: Type.Optional(Type.String()),
    formReturnUrl: Type.Optional(Type.String()),
  },
  { description: 'And one entry per field, named by its handle (repeated for several values).' },
);

function postResponses(): Record<number, ResponseSchema> {
  const refusals = [400, 403, 404, 405, 409, 413, 415, 500, 502, 503].map((status) => [status, jsonOrHtml('A refusal: JSON to a script; to a browser a plain page (or a redirect back with the reason).', errorEnvelope(status))]);
  return {
    ...Object.fromEntries(refusals),
    200: jsonOrHtml('The outcome: JSON to a script, else a plain page when there is no page to go back to.', ClassicAnswer),
    303: emptyResponse("Back to the posting page with ?svc_flash=, or on to the form's return URL."),
    422: jsonOrHtml('Refused values as a plain page (a script gets 200), or a refused payment amount.', errorEnvelope(422)),
    429: jsonOrHtml('A limit: the submission limit (a script gets the answer with status limit_reached) or RATE_LIMITED.', Type.Union([ClassicAnswer, errorEnvelope(429)])),
  };
}

const postSchema = {
  tags: ['classic'],
  description: 'Form-encoded or multipart, as a plain HTML <form> posts it (contract §10).',
  querystring: Type.Object({
    site: Type.Optional(Type.String({ description: "A configured site handle (issue #34): the answer in its language (a site's properties JSON puts it on actionUrl); else a posted `site` entry, else the default site." })),
  }),
  body: { content: { 'application/x-www-form-urlencoded': { schema: PostBody }, 'multipart/form-data': { schema: PostBody } } },
  response: postResponses(),
} as const;

export const classicPostSchema = routeSchema({ ...postSchema, summary: 'The classic form post' });

/** Any other svc path: a site's template may post anywhere under /svc/; `action=svc/submit` decides. */
export const classicAnyPathSchema = routeSchema({ ...postSchema, summary: 'The classic form post at another svc path', hide: true });
