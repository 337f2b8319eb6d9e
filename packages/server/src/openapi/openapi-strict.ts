/**
 * The drift check (issue #16): with SVC_OPENAPI_STRICT=1 (every vitest run sets it) each answer is
 * held against the documented schema of its route and status, and each request that got a 2xx
 * against the documented params, query and JSON body. A mismatch replaces the answer with a 500
 * naming the route, the status and ajv's complaint, so any HTTP suite that passes proves the
 * document describes what the code did. Never on in production: it costs a validation per answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { createAjv2020 } from '../http/ajv-factory.js';
import { isRouteSchema, sharedSchemas, type ResponseSchema, type RouteSchema } from '../http/route-schema.js';
import { isExcludedRoute } from './openapi-exclusions.js';

export const STRICT_ENV = 'SVC_OPENAPI_STRICT';

export function isStrictOpenapi(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env[STRICT_ENV] === '1';
}

/** One ajv for the process: schemas are compiled once each (keyed by the schema object). */
const ajv = createAjv2020();
const compiled = new WeakMap<object, ValidateFunction>();

function addSharedSchemas(): void {
  for (const schema of sharedSchemas()) if (!ajv.getSchema(schema.$id as string)) ajv.addSchema(schema);
}

function validatorOf(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    addSharedSchemas();
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

function problemsOf(schema: TSchema, value: unknown): string | null {
  const validate = validatorOf(schema);
  if (validate(value)) return null;
  return ajv.errorsText(validate.errors, { separator: '; ' });
}

const mediaTypeOf = (header: unknown): string => String(header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

function documentedResponse(schema: RouteSchema, status: number): ResponseSchema | undefined {
  const responses = schema.response as Readonly<Record<string, ResponseSchema>>;
  return responses[String(status)] ?? responses[`${String(status)[0]}xx`];
}

function bodyText(payload: unknown): string | null {
  if (payload === null || payload === undefined) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return null; // a stream: its bytes are not held back to be checked
}

/** What is wrong with this answer, or null. */
function checkResponse(schema: RouteSchema, status: number, mediaType: string, payload: unknown): string | null {
  const documented = documentedResponse(schema, status);
  if (!documented) return `status ${status} is not documented`;
  const text = bodyText(payload);
  if ('type' in documented && documented.type === 'null') {
    return text === '' ? null : `status ${status} is documented without a body but has one (${mediaType || 'no content type'})`;
  }
  let bodySchema: TSchema | undefined;
  if ('content' in documented && documented.content && !('properties' in documented)) {
    // `*/*` (a downloaded file) takes any type and says nothing of the bytes.
    const documentedType = documented.content[mediaType] ? mediaType : '*/*';
    bodySchema = documented.content[documentedType]?.schema;
    if (!bodySchema) return `status ${status} is not documented as ${mediaType || 'a response without a content type'}`;
    if (!isJson(documentedType)) return null;
  } else {
    if (!isJson(mediaType)) return `status ${status} is documented as JSON but answered ${mediaType || 'no content type'}`;
    bodySchema = documented as TSchema;
  }
  if (!isJson(mediaType) || text === null) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} answered ${mediaType} that is not JSON`;
  }
  const problems = problemsOf(bodySchema, body);
  return problems ? `the ${status} body does not match: ${problems}` : null;
}

/** What is wrong with a request that was answered 2xx, or null. */
function checkRequest(schema: RouteSchema, request: FastifyRequest): string | null {
  const parts: [string, TSchema | undefined, unknown][] = [
    ['params', schema.params, request.params],
    ['querystring', schema.querystring, request.query],
  ];
  const mediaType = mediaTypeOf(request.headers['content-type']);
  if (isJson(mediaType) && request.body !== undefined && schema.body) {
    const body = 'content' in schema.body && !('properties' in schema.body) ? (schema.body.content as Record<string, { schema: TSchema }>)['application/json']?.schema : (schema.body as TSchema);
    if (!body) return 'a JSON body is not documented';
    parts.push(['body', body, request.body]);
  }
  for (const [part, partSchema, value] of parts) {
    if (!partSchema) continue;
    const problems = problemsOf(partSchema, value ?? {});
    if (problems) return `the request ${part} does not match: ${problems}`;
  }
  return null;
}

function replaceWithDrift(request: FastifyRequest, reply: FastifyReply, payload: unknown, problem: string): string {
  const route = `${request.method} ${request.routeOptions.url}`;
  const status = reply.statusCode;
  request.log.error({ route, status, problem }, 'OpenAPI drift');
  // Most suites run with the logger off; a failing assertion then still says why.
  process.stderr.write(`OpenAPI drift: ${route} answered ${status}: ${problem}\n`);
  if (payload && typeof (payload as { destroy?: unknown }).destroy === 'function') (payload as { destroy(): void }).destroy();
  reply.code(500).removeHeader('content-length').header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify({ success: false, code: 'INTERNAL', message: `OpenAPI drift: ${route} answered ${status}: ${problem}` });
}

/** Installs the check on every route registered after it (call before the routes). */
export function installStrictCheck(app: FastifyInstance, pagePrefixes: readonly string[] = []): void {
  addSharedSchemas();
  app.addHook('onSend', async (request, reply, payload) => {
    const url = request.routeOptions.url;
    // No route matched (404/405 from the not-found handler): nothing is documented for it.
    if (!url || isExcludedRoute(request.method, url, pagePrefixes)) return payload;
    const schema = request.routeOptions.schema;
    if (!isRouteSchema(schema)) return replaceWithDrift(request, reply, payload, 'the route has no documented schema');
    const status = reply.statusCode;
    const problem =
      checkResponse(schema, status, mediaTypeOf(reply.getHeader('content-type')), payload) ??
      (status >= 200 && status < 300 ? checkRequest(schema, request) : null);
    return problem ? replaceWithDrift(request, reply, payload, problem) : payload;
  });
}
