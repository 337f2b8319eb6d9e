/**
 * The admin API (issue #5, #15) as JSON Schema, for the OpenAPI document (issue #16). Every route
 * takes an admin key as a bearer token except the signed file download, whose link is the
 * credential.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { BODY_ERRORS, errorResponses } from '../http/error-schemas.js';
import { dataEnvelope, described, metaOf, pathParams, routeSchema } from '../http/route-schema.js';
import { FORM_HANDLE } from '../forms/manifest-schemas.js';
import { SubmissionNote } from './admin-notes-schemas.js';

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const security = [{ adminKey: [] }];
/** 400 a bad query or body, 401 no or a wrong key, 403 a read-only key writing, 404 not found or headless off. */
const ADMIN_ERRORS = [400, 401, 403, 404, 500] as const;
const Page = (item: TSchema) => dataEnvelope(Type.Array(item), metaOf({ limit: Type.Integer(), nextCursor: Nullable(Type.String()) }));
const submissionId = pathParams({ id: 'The submission id.' });

const FormSummary = Type.Object({
  id: Type.Integer(),
  uid: Type.String(),
  handle: Type.String(),
  name: Type.String(),
  submissions: Type.Object({ total: Type.Integer(), spam: Type.Integer(), byStatus: Type.Record(Type.String(), Type.Integer()) }),
});

const Client = Nullable(Type.Object({ name: Nullable(Type.String()), version: Nullable(Type.String()), sourceUrl: Nullable(Type.String()) }));

const submissionKeys = {
  id: Type.Integer(),
  uid: Type.String(),
  title: Type.String(),
  status: Type.String(),
  isSpam: Type.Boolean(),
  spamReasons: Type.Array(Type.String()),
  createdAt: Type.String(),
  values: Type.Record(Type.String(), Type.Unknown()),
  client: Client,
  site: Nullable(Type.String({ description: 'The handle of the site it was made on (issue #34); null before sites existed.' })),
};

const SubmissionItem = Type.Object({ ...submissionKeys, fileCount: Type.Integer() }, { additionalProperties: false });

const Delivery = Type.Object({
  id: Type.Integer(),
  uid: Type.String(),
  kind: Type.String(),
  destination: Type.String(),
  status: Type.String(),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Type.String()),
  lastError: Nullable(Type.String()),
  createdAt: Type.String(),
  deliveredAt: Nullable(Type.String()),
  log: Type.Array(Type.Object({ attempt: Type.Integer(), at: Type.String(), ok: Type.Boolean(), detail: Nullable(Type.String()), durationMs: Type.Number() })),
});

const SubmissionDetail = Type.Object(
  {
    ...submissionKeys,
    form: Type.Object({ id: Type.Integer(), handle: Type.String() }),
    updatedAt: Type.String(),
    files: Type.Array(
      Type.Object({ id: Type.String(), name: Type.String(), kind: Type.String(), size: Type.Integer(), extension: Type.String(), field: Type.String(), downloadUrl: Type.String() }),
    ),
    deliveries: Type.Array(Delivery),
    payment: Nullable(
      Type.Object({
        gateway: Type.String(),
        intentId: Type.String(),
        amount: Type.Integer(),
        amountFormatted: Type.String(),
        amountRefunded: Type.Integer(),
        currency: Type.String(),
        status: Type.String(),
        createdAt: Type.String(),
        updatedAt: Type.String(),
      }),
    ),
    profile: Nullable(Type.Object({ name: Type.String(), properties: Type.Record(Type.String(), Type.Unknown()), subject: Nullable(Type.String()), issuer: Nullable(Type.String()) })),
    revision: Type.Integer({ minimum: 0, description: 'How many times an owner has edited its values (issue #35); 0 as submitted.' }),
    notes: Type.Array(SubmissionNote, { description: "Owners' notes, oldest first (issue #35)." }),
  },
  { additionalProperties: false },
);

const DeadDelivery = Type.Object(
  {
    id: Type.Integer(),
    form: Type.String(),
    submissionId: Nullable(Type.Integer()),
    kind: Type.String(),
    destination: Type.String(),
    attempts: Type.Integer(),
    lastError: Nullable(Type.String()),
    deadAt: Type.String(),
  },
  { additionalProperties: false },
);

const AuditEntry = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String(),
    actor: Type.String(),
    action: Type.String(),
    form: Nullable(Type.String()),
    target: Nullable(Type.String()),
    detail: Type.Record(Type.String(), Type.Unknown()),
    ip: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const filterQuery = {
  status: Type.Optional(Type.String({ description: 'A configured status handle.' })),
  spam: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['true', 'false', 'all'], default: 'false' })),
  from: Type.Optional(Type.String({ description: 'An ISO date or date-time.' })),
  to: Type.Optional(Type.String({ description: 'An ISO date (the whole day) or date-time.' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Text to search the title and values for.' })),
  sort: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['createdAt', 'id'] })),
  order: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['asc', 'desc'] })),
};

export const adminFormsSchema = routeSchema({
  summary: 'The forms the key may read, with submission counts',
  tags: ['admin'],
  security,
  response: { 200: described('The forms with their counts.', dataEnvelope(Type.Array(FormSummary))), ...errorResponses(...ADMIN_ERRORS) },
});

export const adminSubmissionsSchema = routeSchema({
  summary: "A page of a form's submissions",
  tags: ['admin'],
  security,
  params: pathParams(FORM_HANDLE),
  querystring: Type.Object(
    { ...filterQuery, limit: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: '1 to 200 (default 50).' })), cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page.' })) },
    { additionalProperties: false },
  ),
  response: { 200: described('A page of submissions; meta.nextCursor names the next.', Page(SubmissionItem)), ...errorResponses(...ADMIN_ERRORS) },
});

export const adminSubmissionSchema = routeSchema({
  summary: 'One submission with its files, deliveries, payment and profile',
  tags: ['admin'],
  security,
  params: submissionId,
  response: { 200: described('The submission.', dataEnvelope(SubmissionDetail)), ...errorResponses(...ADMIN_ERRORS) },
});

export const adminUpdateSubmissionSchema = routeSchema({
  summary: 'Change the status, spam flag or values of a submission (audited)',
  description:
    'Marking one not spam queues the deliveries a clean submission would have had. `values` (issue #35) changes only the handles given, judged by the form\'s own rules as a submit is: an invalid value, or one for a field the rules hide, answers 422 VALUES_INVALID with the submit\'s field errors; files, payments and signatures are FIELD_NOT_EDITABLE. An edit adds one to `revision` and records the old and new values in the audit log.',
  tags: ['admin'],
  security,
  params: submissionId,
  body: Type.Object(
    { status: Type.Optional(Type.String()), isSpam: Type.Optional(Type.Boolean()), values: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Field handle -> new value, as a submit would send it.' })) },
    { additionalProperties: false, minProperties: 1 },
  ),
  response: { 200: described('The submission as it is now.', dataEnvelope(SubmissionDetail)), ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS, 422) },
});

export const adminDeleteSubmissionSchema = routeSchema({
  summary: 'Delete a submission, its deliveries and files (audited)',
  tags: ['admin'],
  security,
  params: submissionId,
  response: {
    200: described('Deleted, with how many files went with it.', dataEnvelope(Type.Object({ id: Type.Integer(), files: Type.Integer(), deleted: Type.Literal(true) }, { additionalProperties: false }))),
    ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS),
  },
});

export const adminResendSchema = routeSchema({
  summary: 'Queue a delivery again (audited)',
  tags: ['admin'],
  security,
  params: pathParams({ id: 'The delivery id.' }),
  response: {
    200: described('Queued again.', dataEnvelope(Type.Object({ id: Type.Integer(), queued: Type.Literal(true) }, { additionalProperties: false }))),
    ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS),
  },
});

export const adminDeadDeliveriesSchema = routeSchema({
  summary: 'Dead-lettered deliveries of the forms the key may read, newest first',
  tags: ['admin'],
  security,
  response: {
    200: described('The dead deliveries.', dataEnvelope(Type.Array(DeadDelivery))),
    ...errorResponses(...ADMIN_ERRORS),
  },
});

export const adminAuditSchema = routeSchema({
  summary: 'The audit log, newest first',
  tags: ['admin'],
  security,
  querystring: Type.Object({
    limit: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: '1 to 500 (default 50).' })),
    before: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'Entries older than this id (nextCursor).' })),
  }),
  response: {
    200: described('A page of entries; meta.nextCursor is the `before` of the next.', Page(AuditEntry)),
    ...errorResponses(...ADMIN_ERRORS),
  },
});

export const adminExportSchema = routeSchema({
  summary: "Export a form's submissions (audited), streamed",
  tags: ['admin'],
  security,
  params: pathParams(FORM_HANDLE),
  querystring: Type.Object(
    {
      ...filterQuery,
      format: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['csv', 'jsonl'], default: 'csv' })),
      bom: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['true', 'false'] })),
    },
    { additionalProperties: false },
  ),
  response: {
    200: {
      description: 'CSV or JSON Lines, as an attachment.',
      content: { 'text/csv': { schema: Type.String() }, 'application/jsonl': { schema: Type.String() } },
    },
    ...errorResponses(...ADMIN_ERRORS),
  },
});

export const adminDownloadSchema = routeSchema({
  summary: 'Download an attached file through a signed link',
  description:
    'No API key: the signature is the credential. Any failure (signature, expiry, file gone) is the same 404. With `inline=1` a raster image or a PDF is sent `Content-Disposition: inline`, for the browser to show (issue #35); anything else stays an attachment.',
  tags: ['admin'],
  params: pathParams({ id: 'The public file id.' }),
  querystring: Type.Object({ expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()), inline: Type.Optional(Type.String({ description: '`1`: show an image or PDF in the browser.' })) }),
  response: {
    200: { description: 'The file, as an attachment (inline for an image or PDF asked for with inline=1).', content: { '*/*': { schema: Type.String({ format: 'binary' }) } } },
    ...errorResponses(404, 500),
  },
});
