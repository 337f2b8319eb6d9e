/** The profile routes (contract §9) as JSON Schema, for the OpenAPI document (issue #16). */
import { Type } from '@sinclair/typebox';
import { BODY_ERRORS, errorResponses, GUARDED_ERRORS } from '../http/error-schemas.js';
import { dataEnvelope, described, emptyResponse, pathParams, routeSchema, sharedSchema } from '../http/route-schema.js';
import { ManifestData, SITE_QUERY } from '../forms/manifest-schemas.js';
import { SUBMIT_ERRORS, submitResponses, SubmitRequestRef } from '../submissions/submit-schemas.js';

const params = pathParams({ profile: 'The profile name.' });
const authorization = Type.Object({ authorization: Type.Optional(Type.String({ description: 'Bearer <login token> for a profile that requires authentication.' })) });
/** 400 PROFILE_NOT_FOUND / PROFILE_PROPERTY_INVALID, 401 AUTH_REQUIRED, 403 PROFILE_FORBIDDEN, 409 TOKEN_SPENT. */
const PROFILE_ERRORS = [400, 401, 403, 409] as const;

const ProfileManifest = Type.Composite([
  ManifestData,
  Type.Object({
    metadata: Type.Object({ profile: Type.String(), properties: Type.Record(Type.String(), Type.Unknown()) }),
    context: Type.Object({ defaultValues: Type.Record(Type.String(), Type.Unknown()), hiddenFields: Type.Array(Type.String()), lockedFields: Type.Record(Type.String(), Type.Unknown()) }),
  }),
]);

export const profileManifestSchema = routeSchema({
  summary: "A profile's contextual manifest",
  description: "Properties as query parameters (`?eventId=42`) or inside a signed link token (`?token=`); `?site=` reads it on a site, in that site's language (issue #34). Strong ETag; a matching If-None-Match answers 304.",
  tags: ['profiles'],
  params,
  headers: Type.Composite([authorization, Type.Object({ 'if-none-match': Type.Optional(Type.String()) })]),
  querystring: Type.Object(
    { token: Type.Optional(Type.String({ description: 'A signed link token.' })), site: SITE_QUERY.properties.site },
    { additionalProperties: Type.String({ description: 'A profile property.' }) },
  ),
  response: {
    200: described('The contextual manifest.', dataEnvelope(sharedSchema('ProfileManifest', ProfileManifest))),
    304: emptyResponse('Not modified: the ETag still matches.'),
    ...errorResponses(...PROFILE_ERRORS, ...GUARDED_ERRORS),
  },
});

export const profileSubmitSchema = routeSchema({
  summary: 'Submit through a profile',
  description: "The normal submit with the profile's rules on top: locked and hidden values forced from its context.",
  tags: ['profiles'],
  params,
  headers: Type.Composite([authorization, Type.Object({ 'x-csrf-token': Type.Optional(Type.String()), 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) })]),
  querystring: Type.Object({ token: Type.Optional(Type.String()), site: SITE_QUERY.properties.site }),
  body: {
    content: {
      'application/json': { schema: SubmitRequestRef },
      'multipart/form-data': { schema: Type.Object({ _svc: Type.String(), SVC_CSRF_TOKEN: Type.Optional(Type.String()) }) },
    },
  },
  response: submitResponses(...SUBMIT_ERRORS, ...PROFILE_ERRORS),
});

export const profileLinkSchema = routeSchema({
  summary: 'Mint a signed link for a profile',
  description: 'As `svc profiles sign` does, with an admin key that may write and may read the profile\'s form.',
  tags: ['admin', 'profiles'],
  security: [{ adminKey: [] }],
  params,
  body: Type.Object(
    {
      properties: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      ttlSeconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 366 * 86_400 })),
      singleUse: Type.Optional(Type.Boolean()),
      prefill: Type.Optional(Type.Record(Type.String(), Type.String())),
      subject: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    },
  ),
  response: {
    201: described('The token, and the link made from linkTemplate (or null).', dataEnvelope(Type.Object({ token: Type.String(), link: Type.Union([Type.String(), Type.Null()]), expiresAt: Type.String({ format: 'date-time' }) }, { additionalProperties: false }))),
    ...errorResponses(...BODY_ERRORS, 401, 403, 404, 500),
  },
});
