/**
 * The GraphQL endpoint (contract §11): mercurius with JIT at /graphql (alias /actions/graphql/api),
 * the caller's principal from the Authorization header, query cost limits, introspection by
 * config, and errors shaped by graphql-errors.ts. The schema is rebuilt when forms change.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import mercurius from 'mercurius';
import { NoSchemaIntrospectionCustomRule, type ValidationRule } from 'graphql';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { createHeadlessGuard, preflightHandler } from '../http/cors-hooks.js';
import { ensureBrowserBinding } from '../security/browser-binding.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';
import { createAccessControl, type Principal } from './graphql-access.js';
import { assertGraphqlRequest } from './graphql-request-checks.js';
import { buildSvcSchema } from './graphql-schema.js';
import { formatExecution, GRAPHQL_RESPONSE_TYPE, wantsGraphqlResponse } from './graphql-errors.js';
import { createQueryCostRule } from './query-cost-rule.js';
import { formListBounds } from './graphql-list-bounds.js';
import type { GraphqlApp, SvcGraphqlContext, SvcRequestContext } from './graphql-context.js';

export const GRAPHQL_PATH = '/graphql';
export const GRAPHQL_ALIAS = '/actions/graphql/api';

declare module 'fastify' {
  interface FastifyRequest {
    svcPrincipal?: Principal;
  }
}

function csrfIssuer(ctx: AppContext, request: FastifyRequest, reply: FastifyReply) {
  let binding: string | undefined;
  return () => {
    const tokens = ctx.csrf;
    if (!tokens) return null;
    binding ??= ensureBrowserBinding(request, reply, ctx.config.csrf);
    return { name: CSRF_FIELD_NAME, value: tokens.issue(binding, ctx.submit.now().getTime()) };
  };
}

export async function graphqlRoutes(app: FastifyInstance, ctx: GraphqlApp): Promise<void> {
  // Its own scope: mercurius sets an error handler on the instance it is registered on, which
  // must not replace the REST error boundary.
  await app.register(async (scope) => registerGraphql(scope, ctx));
}

async function registerGraphql(app: FastifyInstance, ctx: GraphqlApp): Promise<void> {
  const { config } = ctx;
  const access = createAccessControl(config);
  const corsGuard = createHeadlessGuard(ctx.cors, true);
  let listBounds = formListBounds(ctx.forms.list());
  const rules: ValidationRule[] = [
    createQueryCostRule({ maxComplexity: config.graphql.maxComplexity, maxDepth: config.graphql.maxDepth, listSizes: () => listBounds }),
  ];
  if (!config.graphql.introspection) rules.push(NoSchemaIntrospectionCustomRule);

  await app.register(mercurius, {
    schema: buildSvcSchema(ctx.forms.list()),
    path: GRAPHQL_PATH,
    jit: 1,
    graphiql: false,
    allowBatchedQueries: false,
    validationRules: rules,
    additionalRouteOptions: {
      config: { cors: 'all' },
      // mercurius always sets the route's onRequest itself, so the guard runs at preParsing,
      // which is still before the body is read. Callback hooks, not async ones: the guard and the
      // checks never wait, and an async hook costs each query a promise and a microtask turn
      // (issue #17); only a rate limit, when configured, is awaited.
      preParsing: (request: FastifyRequest, reply: FastifyReply, payload: RequestPayload, done: (error: Error | null, payload?: RequestPayload) => void) => {
        const admit = () => {
          try {
            request.svcPrincipal = access.principalFor(request.headers.authorization);
          } catch (error) {
            // An unknown bearer token is refused outright, not downgraded to the public.
            reply.header('WWW-Authenticate', 'Bearer');
            done(error as Error);
            return;
          }
          done(null, payload);
        };
        try {
          corsGuard.check(request, reply);
        } catch (error) {
          done(error as Error);
          return;
        }
        const limit = ctx.limits.graphql;
        if (limit) limit(request, reply).then(admit, done);
        else admit();
      },
      // GraphQL-over-HTTP allows `"extensions": null`; mercurius's body schema does not.
      preValidation: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
        try {
          assertGraphqlRequest(request, config.graphql.maxDepth);
        } catch (error) {
          done(error as Error);
          return;
        }
        const body = request.body as { extensions?: unknown } | undefined;
        if (body && body.extensions === null) delete body.extensions;
        done();
      },
      onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
        if (wantsGraphqlResponse(request.headers.accept) && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
          reply.header('content-type', `${GRAPHQL_RESPONSE_TYPE}; charset=utf-8`);
        }
        if (reply.statusCode === 405) reply.header('Allow', 'POST');
        done(null, payload);
      },
    },
    context: (request: FastifyRequest, reply: FastifyReply): SvcGraphqlContext => {
      const svc: SvcRequestContext = {
        app: ctx,
        principal: request.svcPrincipal ?? access.publicPrincipal,
        request,
        reply,
        csrfToken: csrfIssuer(ctx, request, reply),
      };
      return { svc };
    },
    errorFormatter: (execution, context) => {
      const request = (context as { reply?: FastifyReply }).reply?.request;
      return formatExecution(
        execution,
        request?.id ?? 'unknown',
        (err) => request?.log.error({ err }, 'graphql resolver error'),
        wantsGraphqlResponse(request?.headers.accept),
      );
    },
  });
  app.options(GRAPHQL_PATH, { config: { cors: 'all' }, onRequest: corsGuard }, preflightHandler(ctx.cors));

  ctx.forms.onChange(() => {
    listBounds = formListBounds(ctx.forms.list());
    app.graphql.replaceSchema(buildSvcSchema(ctx.forms.list()));
  });
}

/** Fastify's rewriteUrl: the alias of interface.md §4.8 serves the same endpoint. */
export function rewriteGraphqlAlias(url: string | undefined): string {
  if (!url) return '/';
  if (url === GRAPHQL_ALIAS || url.startsWith(`${GRAPHQL_ALIAS}?`)) return GRAPHQL_PATH + url.slice(GRAPHQL_ALIAS.length);
  return url;
}

