/**
 * Every refusal leaves through here (contract §1): a catalogue code and a human message. Fastify's
 * own 4xx errors (bad JSON, body too large, unsupported type) are mapped onto the catalogue;
 * anything else is a 500 INTERNAL with the request id, logged in full but never sent.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOGUE, SvcError, type ErrorCode } from '@svc/core';
import { isMalformedMultipart } from './multipart-support.js';
import type { RouteMethods } from './route-methods.js';
import { closeLingering, lingerAfterRefusal } from './lingering-close.js';
import { GatewayUnavailableError } from '../payments/payment-gateway.js';

function codeForStatus(status: number): ErrorCode {
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'MEDIA_TYPE_UNSUPPORTED';
  if (status === 404) return 'ROUTE_NOT_FOUND';
  if (status === 405) return 'METHOD_NOT_ALLOWED';
  if (status === 429) return 'RATE_LIMITED';
  return 'PAYLOAD_INVALID';
}

export function sendError(reply: FastifyReply, error: SvcError): FastifyReply {
  // contract §1: a refusal always carries the request id that the log carries too.
  reply.header('X-Request-Id', reply.request.id);
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  // contract §1: a body refused before it has all arrived (over a limit, or unreadable: fastify
  // then asks to close) is read and discarded for a while, so the client can read this answer.
  if (error.status === 413 || reply.getHeader('connection') === 'close') lingerAfterRefusal(reply.server.server, reply.request.raw, reply.raw);
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}

/** The catalogue error for a client (4xx) error raised by fastify or a parser; null for anything else. */
export function clientErrorToSvcError(error: unknown): SvcError | null {
  if (error instanceof SvcError) return error;
  if (isMalformedMultipart(error)) return new SvcError('PAYLOAD_INVALID', 'The multipart body is malformed: a part ends before it is complete.');
  const status = (error as FastifyError | undefined)?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  const code = codeForStatus(status);
  // Parser details stay in the log; the client learns which rule its body broke.
  const jsonProblem = error instanceof SyntaxError || (error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY';
  return new SvcError(code, code === 'PAYLOAD_INVALID' && jsonProblem ? 'The body is not valid JSON.' : ERROR_CATALOGUE[code].message);
}

/** Turn any thrown value into the SvcError that describes it to a client. */
export function toSvcError(error: unknown, request: FastifyRequest): SvcError {
  const known = clientErrorToSvcError(error);
  if (known) {
    // The store's own words (ENOSPC, S3's refusal) stay in the log, where an operator needs them.
    if (known.code === 'STORAGE_UNAVAILABLE') request.log.warn({ err: (known as Error & { cause?: unknown }).cause }, 'file store cannot take a write');
    return known;
  }
  // issue #12: the gateway's own words stay in the log; the client may retry a 502.
  if (error instanceof GatewayUnavailableError) {
    request.log.warn({ err: error }, 'payment gateway unavailable');
    return new SvcError('PAYMENT_GATEWAY_UNAVAILABLE');
  }
  request.log.error({ err: error }, 'unhandled error');
  return new SvcError('INTERNAL', `${ERROR_CATALOGUE.INTERNAL.message} (request ${request.id})`);
}

/** Words a refusal in the language of the request's site (issue #34); absent: as it is. */
export type ErrorWording = (request: FastifyRequest, error: SvcError) => SvcError;

export function registerErrorBoundary(app: FastifyInstance, isHeadlessDisabled: () => boolean, routes: RouteMethods, word: ErrorWording = (_request, error) => error): void {
  app.setErrorHandler((error, request, reply) => sendError(reply, word(request, toSvcError(error, request))));
  // Lingering sockets have had their answer; a shutdown does not wait out their bounds.
  app.addHook('preClose', (done) => {
    closeLingering(app.server);
    done();
  });
  app.setNotFoundHandler((request, reply) => {
    const headlessPath = request.url.startsWith('/svc/api/') || request.url.startsWith('/svc/tokens');
    if (headlessPath && isHeadlessDisabled()) return sendError(reply, new SvcError('HEADLESS_DISABLED'));
    // A path that exists answers a wrong method with 405 and the methods it takes.
    const allowed = routes.allowed(request.url);
    if (allowed.length > 0) return sendError(reply, new SvcError('METHOD_NOT_ALLOWED', undefined, { headers: { Allow: allowed.join(', ') } }));
    return sendError(reply, new SvcError('ROUTE_NOT_FOUND'));
  });
}
