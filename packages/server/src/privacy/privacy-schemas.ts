/** The privacy routes (issue #37) as JSON Schema, for validation and the OpenAPI document. */
import { Type } from '@sinclair/typebox';
import { BODY_ERRORS, errorResponses } from '../http/error-schemas.js';
import { dataEnvelope, described, routeSchema } from '../http/route-schema.js';

const security = [{ adminKey: [] }];
const ERRORS = [...BODY_ERRORS, 401, 403, 404, 500] as const;

const subjectKeys = {
  email: Type.Optional(Type.String({ maxLength: 1000, description: 'An address, matched trimmed and lower-cased against fields marked `personal: email`.' })),
  identifier: Type.Optional(Type.String({ maxLength: 1000, description: 'An identifier, matched trimmed and NFC-normalised against fields marked `personal: identifier`.' })),
};

const Subject = Type.Object(
  {
    kind: Type.Unsafe<string>({ type: 'string', enum: ['email', 'identifier'] }),
    hash: Type.String({ description: 'HMAC-SHA-256 (base64url) of the kind and normalised value under a key derived from the server secret: the blind index.' }),
  },
  { additionalProperties: false },
);

const Found = Type.Object({ id: Type.Integer(), uid: Type.String(), form: Type.String(), createdAt: Type.String() }, { additionalProperties: false });

export const privacyFindSchema = routeSchema({
  summary: "Find a person's submissions across forms",
  description: 'Needs the `privacy` scope. Send exactly one of `email` and `identifier`, in the body (a query string would land in access logs). Answers every submission of that person, through the blind index of fields marked `personal`, in the forms the key may read.',
  tags: ['admin'],
  security,
  body: Type.Object(subjectKeys, { additionalProperties: false }),
  response: { 200: described('The subject and its submissions, oldest first.', dataEnvelope(Type.Object({ subject: Subject, submissions: Type.Array(Found) }, { additionalProperties: false }))), ...errorResponses(...ERRORS) },
});

export const privacyExportSchema = routeSchema({
  summary: 'Export everything held about a person, through a signed link',
  description: 'Needs the `privacy` scope. Answers a short-lived signed link (admin.downloadUrlMinutes) to a zip: submissions.json (every submission with its values, files, deliveries, payment and notes) and the files. The download is audited.',
  tags: ['admin'],
  security,
  body: Type.Object(subjectKeys, { additionalProperties: false }),
  response: {
    200: described('The link.', dataEnvelope(Type.Object({ subject: Subject, submissions: Type.Integer(), downloadUrl: Type.String(), expiresAt: Type.String() }, { additionalProperties: false }))),
    ...errorResponses(...ERRORS),
  },
});

export const privacyExportDownloadSchema = routeSchema({
  summary: 'Download a privacy export through its signed link',
  description: 'No API key: the signature is the credential; the account that asked must still hold the privacy scope. Any failure is the same 404.',
  tags: ['admin'],
  querystring: Type.Object({ subject: Type.Optional(Type.String()), account: Type.Optional(Type.String()), expires: Type.Optional(Type.String()), signature: Type.Optional(Type.String()) }),
  response: { 200: { description: 'The zip, as an attachment.', content: { 'application/zip': { schema: Type.String({ format: 'binary' }) } } }, ...errorResponses(404, 500) },
});

const Receipt = Type.Object(
  {
    id: Type.String(),
    subject: Subject,
    erased: Type.Array(Type.Object({ submission: Type.Integer(), form: Type.String(), files: Type.Integer() }, { additionalProperties: false })),
    at: Type.String(),
    by: Type.String({ description: 'Who asked: `key:<name>`, `user:<name>` or `cli`.' }),
  },
  { additionalProperties: false },
);

export const privacyEraseSchema = routeSchema({
  summary: "Erase a person's submissions, with a signed receipt",
  description: 'Needs the `privacy` and `write` scopes and `confirm: true`. Erases every submission of that person the key may read (rows, delivery jobs, index rows, files) and answers a receipt signed Ed25519 over JSON.stringify(receipt); the public key is at GET /svc/privacy/receipt-key. Audited.',
  tags: ['admin'],
  security,
  body: Type.Object({ ...subjectKeys, confirm: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  response: {
    200: described('The signed receipt.', dataEnvelope(Type.Object({ receipt: Receipt, signature: Type.String({ description: 'Ed25519, base64url.' }), keyId: Type.String() }, { additionalProperties: false }))),
    ...errorResponses(...ERRORS),
  },
});

export const receiptKeySchema = routeSchema({
  summary: 'The public key erasure receipts are signed with',
  description: 'A JWK set (Ed25519, `kid` as in receipts), for verifying receipts offline.',
  tags: ['privacy'],
  response: {
    200: Type.Object({
      keys: Type.Array(Type.Object({ kty: Type.Literal('OKP'), crv: Type.Literal('Ed25519'), x: Type.String(), kid: Type.String(), use: Type.Literal('sig'), alg: Type.Literal('EdDSA') }, { additionalProperties: false })),
    }, { additionalProperties: false }),
    ...errorResponses(500),
  },
});
