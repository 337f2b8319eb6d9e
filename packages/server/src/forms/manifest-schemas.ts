/**
 * The manifest of contract §2 as JSON Schema, for the OpenAPI document (issue #16): every key the
 * official clients read is named and typed; the insides of fields, rules and captchas are left
 * open, since they vary by field type and the clients read them per type.
 */
import { Type } from '@sinclair/typebox';
import { errorResponses, GUARDED_ERRORS } from '../http/error-schemas.js';
import { dataEnvelope, described, emptyResponse, pathParams, routeSchema, sharedSchema } from '../http/route-schema.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Endpoint = Type.Object({ method: Type.String(), url: Type.String() });

export const ManifestField = sharedSchema('ManifestField', Type.Object(
  {
    id: Type.Integer(),
    uid: Type.String(),
    hash: Type.String(),
    handle: Type.String(),
    type: Type.String({ description: 'Freeform 5 type name (text, dropdown, file-dnd, …).' }),
    label: Type.String(),
    instructions: Nullable(Type.String()),
    required: Type.Boolean(),
    defaultValue: Type.Unknown(),
    placeholder: Nullable(Type.String()),
    pageIndex: Type.Integer(),
    validation: Type.Object({}),
    options: Nullable(Type.Array(Type.Object({ label: Type.String(), value: Type.String(), default: Type.Boolean(), disabled: Type.Boolean() }))),
    config: Type.Object({}),
    attributes: Type.Object({}),
    frontend: Type.Object({ renderer: Type.String(), extension: Nullable(Type.String()), config: Type.Object({}) }),
    requiredMessage: Type.String(),
    readOnly: Type.Optional(Type.Boolean({ description: "A profile's locked field (contract §9)." })),
  },
  { description: 'One field (contract §2).' },
));

const Page = Type.Object({
  id: Type.Integer(),
  index: Type.Integer(),
  uid: Type.String(),
  label: Type.String(),
  buttons: Type.Object({}),
  rows: Type.Array(Type.Object({ id: Type.String(), uid: Type.String(), fields: Type.Array(Type.String()) })),
});

export const ManifestData = Type.Object(
  {
    schemaVersion: Type.String(),
    pluginVersion: Type.String(),
    minimumClientVersion: Type.String(),
    generatedAt: Type.String({ format: 'date-time' }),
    site: Type.Object({ id: Type.Integer(), handle: Type.String(), language: Type.String(), baseUrl: Type.String() }),
    form: Type.Object({ id: Type.Integer(), uid: Type.String(), handle: Type.String(), name: Type.String(), hash: Type.String(), type: Type.String(), multiPage: Type.Boolean() }),
    endpoints: Type.Object({
      manifest: Endpoint,
      submit: Type.Object({ method: Type.String(), url: Type.String(), encodings: Type.Array(Type.String()), defaultEncoding: Type.String() }),
      csrf: Type.Object({ method: Type.String(), url: Type.String(), required: Type.Boolean() }),
      payments: Type.Optional(Type.Object({})),
    }),
    settings: Type.Object({ multiPage: Type.Boolean(), mode: Type.String(), ajaxEnabled: Type.Boolean(), successBehavior: Type.String(), enctype: Type.String() }),
    layout: Type.Object({ pages: Type.Array(Page) }),
    fields: Type.Record(Type.String(), ManifestField),
    conditionals: Type.Unknown({ description: 'The rules of contract §2 (field and page conditions).' }),
    security: Type.Object({
      csrf: Type.Optional(Type.Object({ required: Type.Boolean(), tokenEndpoint: Type.String(), name: Type.String(), header: Type.String() })),
      honeypot: Type.Optional(Type.Object({ name: Type.String(), timestamp: Type.Optional(Type.String()) })),
      javascriptTest: Type.Optional(Type.Object({ name: Type.String(), value: Type.String() })),
      captchas: Type.Array(Type.Object({ provider: Type.String(), enabled: Type.Boolean(), handle: Type.String() })),
    }),
    cache: Type.Object({ visibility: Type.String(), maxAge: Type.Integer() }),
    requiredExtensions: Type.Array(
      Type.Object({
        name: Type.String(),
        package: Type.String(),
        version: Type.String(),
        severity: Type.Unsafe<string>({ type: 'string', enum: ['error', 'warning'] }),
        fallback: Nullable(Type.String()),
      }),
      { description: 'Client extensions the fields need (file-dnd, payment.stripe, …).' },
    ),
    metadata: Type.Object({}),
  },
  { description: 'The manifest (contract §2): everything a client needs to render and submit the form.' },
);

export const FORM_HANDLE = { handle: 'The form handle.' };

/** `?site=<handle>` (issue #34): the site, and so the language, a form is read or submitted on. */
export const SITE_QUERY = Type.Object({
  site: Type.Optional(Type.String({ description: 'A configured site handle (`sites`); absent: the default site. Unknown: 404 SITE_NOT_FOUND.' })),
});

export const manifestSchema = routeSchema({
  summary: "A form's manifest",
  description: 'Cacheable (ETag, `Cache-Control: public`); answers 304 to a matching If-None-Match.',
  tags: ['forms'],
  params: pathParams(FORM_HANDLE),
  querystring: SITE_QUERY,
  headers: Type.Object({ 'if-none-match': Type.Optional(Type.String()) }),
  response: {
    200: described('The manifest.', dataEnvelope(sharedSchema('Manifest', ManifestData))),
    304: emptyResponse('Not modified: the ETag still matches.'),
    ...errorResponses(...GUARDED_ERRORS),
  },
});
