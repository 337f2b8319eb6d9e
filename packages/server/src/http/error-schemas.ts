/**
 * The refusal body of contract §1 as JSON Schema, built from the one error catalogue: the codes a
 * status may carry are read from ERROR_CATALOGUE, so a new code appears in the OpenAPI document
 * under its status without anyone editing a schema (issue #16).
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { ERROR_CATALOGUE, type ErrorCode } from '@svc/core';
import { sharedSchema } from './route-schema.js';

/** Every catalogue code whose HTTP status is `status`. */
export function codesForStatus(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).filter((code) => ERROR_CATALOGUE[code].status === status);
}

/** `{success: false, code, message, errors?}` for the codes of one status (a shared component, `Error<status>`). */
export function errorEnvelope(status: number): TSchema {
  const codes = codesForStatus(status);
  if (codes.length === 0) throw new Error(`No catalogue code answers ${status}`);
  return sharedSchema(`Error${status}`, Type.Object(
    {
      success: Type.Literal(false),
      code: Type.Unsafe<ErrorCode>({ type: 'string', enum: codes }),
      message: Type.String({ description: 'For people; never carries internals.' }),
      errors: Type.Optional(Type.Unknown({ description: 'Details of the refusal, when there are any (for example the messages of a rejected file).' })),
    },
    { additionalProperties: false, description: `Refused: ${codes.join(', ')}.` },
  ));
}

// Every status of the catalogue is a component from the start, whichever routes use it.
for (const status of new Set(Object.values(ERROR_CATALOGUE).map((entry) => entry.status))) errorEnvelope(status);

/** Error responses by status, for a route's `response` map. */
export function errorResponses(...statuses: readonly number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorEnvelope(status)]));
}

/**
 * What any route can answer whatever it does: 500 INTERNAL for a bug (with the request id).
 * Routes list their other statuses themselves.
 */
export const BASE_ERRORS = [500] as const;

/** A route behind the headless guard (contract §1, §6): switched off, or an origin it refuses. */
export const GUARDED_ERRORS = [403, 404, 500] as const;

/** A route under a rate-limit budget: over it (429) or its shared store unreachable (503). */
export const LIMITED_ERRORS = [429, 503] as const;

/** A route that reads a body: malformed (400), too large (413) or of a type it does not take (415). */
export const BODY_ERRORS = [400, 413, 415] as const;
