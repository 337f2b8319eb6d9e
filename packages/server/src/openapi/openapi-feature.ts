/**
 * The openapi room (issue #16): an OpenAPI 3.1 document generated from the route schemas by
 * @fastify/swagger, served at /svc/api/openapi.json with a reference page at /svc/api/docs, and
 * the strict drift check the test suites run with. Registered before every other route, since the
 * document and the check both learn the routes as they are added.
 */
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import swagger from '@fastify/swagger';
import { SvcError } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import { isRouteSchema, sharedSchemas } from '../http/route-schema.js';
import { registerDocsPage } from './openapi-docs-page.js';
import { swaggerOptions } from './openapi-document.js';
import { isExcludedRoute, OPENAPI_PATH } from './openapi-exclusions.js';
import { openapiDocumentSchema } from './openapi-schemas.js';
import { installStrictCheck, isStrictOpenapi } from './openapi-strict.js';

/**
 * Neither validates nor reshapes: svc's parsers give the catalogue's codes, and clients read every
 * key. No validator at all rather than one that accepts anything: fastify skips its validation
 * step for a route whose request parts have none, where a validator answering true still cost
 * every request a pass through that step and a call per part (issue #31 item 14).
 */
const acceptAnything = (() => undefined) as unknown as FastifySchemaCompiler<unknown>;
const serializeAsIs = () => (data: unknown) => JSON.stringify(data);

/** A route as registered, for the test that holds the document against fastify's own list. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
  /** Its schema was made by routeSchema. */
  readonly documented: boolean;
  /** Left out of the document on purpose (openapi-exclusions.ts). */
  readonly excluded: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after the openapi room, which app.ts registers before all others. */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

export async function registerOpenapi(app: FastifyInstance, config: Config): Promise<void> {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, documented: isRouteSchema(route.schema), excluded: isExcludedRoute(method, route.url, [config.hosted.prefix]) });
    }
    // Only schemas made by routeSchema: mercurius's own routes rely on fastify validating theirs.
    if (!isRouteSchema(route.schema)) return;
    route.validatorCompiler = acceptAnything;
    route.serializerCompiler = serializeAsIs;
  });
  // Shared schemas become the document's components; routes refer to them by $ref.
  for (const schema of sharedSchemas()) app.addSchema(schema);
  await app.register(swagger, swaggerOptions(config));
  if (isStrictOpenapi()) installStrictCheck(app, [config.hosted.prefix]);
  // Public and the same for everyone (no secrets, no per-request servers): a cache may keep it.
  app.get(OPENAPI_PATH, { schema: openapiDocumentSchema }, async (_request, reply) => {
    if (!config.headless.enabled) throw new SvcError('HEADLESS_DISABLED');
    return reply.header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8').send(app.swagger());
  });
  await registerDocsPage(app, config.headless.enabled);
}
