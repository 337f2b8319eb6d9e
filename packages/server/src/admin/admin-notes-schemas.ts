/** The notes routes of the admin API (issue #35) as JSON Schema, for validation and the OpenAPI document. */
import { Type } from '@sinclair/typebox';
import { BODY_ERRORS, errorResponses } from '../http/error-schemas.js';
import { dataEnvelope, described, pathParams, routeSchema } from '../http/route-schema.js';

const security = [{ adminKey: [] }];
const ADMIN_ERRORS = [400, 401, 403, 404, 500] as const;
const submissionId = pathParams({ id: 'The submission id.' });

export const SubmissionNote = Type.Object(
  {
    id: Type.Integer(),
    author: Type.String({ description: '`user:<name>` (a console user) or `key:<name>` (an API key), as the audit log names who acted.' }),
    createdAt: Type.String(),
    text: Type.String({ description: 'Plain text; line breaks are kept.' }),
  },
  { additionalProperties: false },
);

export const adminListNotesSchema = routeSchema({
  summary: 'The notes on a submission, oldest first',
  tags: ['admin'],
  security,
  params: submissionId,
  response: { 200: described('The notes, oldest first.', dataEnvelope(Type.Array(SubmissionNote))), ...errorResponses(...ADMIN_ERRORS) },
});

export const adminAddNoteSchema = routeSchema({
  summary: 'Add a note to a submission (audited)',
  description: 'Plain text of 1 to 5,000 characters (NOTE_TOO_LONG beyond); the audit entry names the note, not its text. Notes are deleted with their submission.',
  tags: ['admin'],
  security,
  params: submissionId,
  body: Type.Object({ text: Type.String() }, { additionalProperties: false }),
  response: { 201: described('The note as stored.', dataEnvelope(SubmissionNote)), ...errorResponses(...ADMIN_ERRORS, ...BODY_ERRORS) },
});
