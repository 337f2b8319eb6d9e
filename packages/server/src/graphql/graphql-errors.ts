/**
 * GraphQL errors of contract §11: refusals carry the REST catalogue code in `extensions.code`,
 * validation failures `VALIDATION_FAILED` with the field messages, and anything unexpected becomes
 * INTERNAL with the request id. No stack, SQL or provider text ever reaches the client.
 */
import { GraphQLError } from 'graphql';
import mercurius from 'mercurius';
import { ERROR_CATALOGUE, SvcError } from '@svc/core';
import { readCookie } from '../http/cookie-reader.js';
import { clientErrorToSvcError } from '../http/error-boundary.js';
import type { SvcGraphqlContext } from './graphql-context.js';

export function graphqlErrorFor(code: string, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra } });
}

export function csrfFromToken(ctx: SvcGraphqlContext, token: string | undefined) {
  const { request } = ctx.svc;
  return { binding: request ? readCookie(request, ctx.svc.app.config.csrf.cookieName) : undefined, token };
}

/** The client-safe form of one error. */
function present(error: GraphQLError, requestId: string, log: (err: unknown) => void): GraphQLError {
  const original = error.originalError;
  if (!original || original instanceof GraphQLError) {
    // Syntax and validation errors (and ours, already shaped) are safe as they are.
    const shaped = original instanceof GraphQLError ? original : error;
    return new GraphQLError(shaped.message, { nodes: error.nodes, positions: error.positions, path: error.path, extensions: shaped.extensions });
  }
  // SvcErrors and fastify's own 4xx errors (bad body, wrong method) speak the catalogue.
  const known = clientErrorToSvcError(original) ?? (original instanceof SvcError ? original : null);
  if (known) {
    const extensions: Record<string, unknown> = { code: known.code };
    if (known.details !== undefined) extensions.errors = known.details;
    return new GraphQLError(known.message, { nodes: error.nodes, positions: error.positions, path: error.path, extensions });
  }
  if (original instanceof mercurius.ErrorWithProps) {
    return new GraphQLError(original.message, { nodes: error.nodes, positions: error.positions, path: error.path, extensions: original.extensions as Record<string, unknown> | undefined });
  }
  log(original);
  return new GraphQLError(`${ERROR_CATALOGUE.INTERNAL.message} (request ${requestId})`, {
    nodes: error.nodes,
    positions: error.positions,
    path: error.path,
    extensions: { code: 'INTERNAL' },
  });
}

interface Execution {
  readonly data?: unknown;
  readonly errors?: readonly GraphQLError[];
  readonly statusCode?: number;
}

/**
 * mercurius's errorFormatter contract, following its default: validation and syntax failures
 * arrive wrapped (originalError.errors) and keep their own status (400, 405); resolver errors are
 * shaped by `present`; with data present the status is 200 (GraphQL-over-HTTP).
 */
export function formatExecution(execution: Execution, requestId: string, log: (err: unknown) => void, graphqlResponse: boolean) {
  const errors: GraphQLError[] = [];
  let requestError = false;
  for (const error of execution.errors ?? []) {
    const wrapped = (error.originalError as { errors?: unknown } | undefined)?.errors;
    if (Array.isArray(wrapped)) {
      requestError = true;
      // A mutation over GET arrives wrapped like a validation failure; give it its catalogue code.
      const methodRefused = (error.originalError as { statusCode?: unknown }).statusCode === 405;
      for (const inner of wrapped as GraphQLError[]) {
        const extensions = methodRefused ? { ...inner.extensions, code: 'METHOD_NOT_ALLOWED' } : inner.extensions;
        errors.push(new GraphQLError(inner.message, { nodes: inner.nodes, positions: inner.positions, path: inner.path, extensions }));
      }
    } else {
      errors.push(present(error, requestId, log));
    }
  }
  let statusCode = execution.data ? 200 : (execution.statusCode ?? 200);
  const only = execution.errors?.length === 1 ? execution.errors[0] : undefined;
  const original = only?.originalError as { statusCode?: unknown; status?: unknown } | undefined;
  const originalStatus = original instanceof SvcError ? original.status : original?.statusCode;
  if (!execution.data && execution.statusCode === undefined && typeof originalStatus === 'number') statusCode = originalStatus;
  if (requestError && !graphqlResponse && statusCode === 400) {
    // GraphQL-over-HTTP: legacy application/json clients get 200 for documents that fail to parse
    // or validate; application/graphql-response+json clients get the 4xx and no `data` entry.
    statusCode = 200;
  }
  const data = (execution.data ?? null) as Record<string, unknown> | null;
  return { statusCode, response: requestError && graphqlResponse ? { errors } : { data, errors } };
}

export const GRAPHQL_RESPONSE_TYPE = 'application/graphql-response+json';

/** Whether the client asked for the GraphQL-over-HTTP media type. */
export function wantsGraphqlResponse(accept: string | undefined): boolean {
  return typeof accept === 'string' && accept.includes(GRAPHQL_RESPONSE_TYPE);
}
