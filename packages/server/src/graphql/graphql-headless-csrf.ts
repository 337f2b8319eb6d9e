/**
 * Where `svcHeadlessSubmit` finds its CSRF token (contract §11). The official React demo's GraphQL
 * fetch adapter reads the `X-CSRF-Token` header the core client set and sends its value as
 * `variables.csrfToken`, although its document declares no such variable, and it sends no header.
 * GraphQL executes only declared variables, so the resolver never sees that one: it is read from
 * the request itself. Whatever is found is checked like any other token, cookie binding included.
 */
import type { FastifyRequest } from 'fastify';
import type { SvcGraphqlContext } from './graphql-context.js';

const CSRF_HEADER = 'x-csrf-token';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string, else nothing: an empty token is as absent as a missing one. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The demo sends the header's value, a bare string; `{name, value}` (the shape of the per-form
 * mutation's `csrfToken` and of `GET /svc/tokens`) is taken too.
 */
function tokenOf(value: unknown): string | undefined {
  return isRecord(value) ? text(value.value) : text(value);
}

/** The request's `variables`: the POST body's object, or GET's `variables` query parameter (JSON). */
function requestVariables(request: FastifyRequest): unknown {
  if (request.method !== 'GET') return isRecord(request.body) ? request.body.variables : undefined;
  const raw = isRecord(request.query) ? request.query.variables : undefined;
  if (typeof raw !== 'string') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    // mercurius answers the malformed parameter itself; here it simply carries no token.
    return undefined;
  }
}

/** The `csrfToken` argument, else the `X-CSRF-Token` header, else `variables.csrfToken`. */
export function headlessCsrfToken(ctx: SvcGraphqlContext, argument: string | null | undefined): string | undefined {
  const given = text(argument);
  if (given !== undefined) return given;
  const { request } = ctx.svc;
  if (!request) return undefined;
  const header = text(request.headers[CSRF_HEADER]);
  if (header !== undefined) return header;
  const variables = requestVariables(request);
  return isRecord(variables) ? tokenOf(variables.csrfToken) : undefined;
}
