/** What every svc resolver receives under `context.svc`: the app, the caller and request helpers. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Form } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import type { ProfileFeature } from '../profiles/profiles-feature.js';
import type { InsightsFeature } from '../insights/insights-feature.js';
import type { Principal } from './graphql-access.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';

/** What svc's resolvers use: the shared services and the profiles feature (profile submits, contract §9). */
export interface GraphqlApp extends AppContext {
  readonly profiles: Pick<ProfileFeature, 'registry' | 'services'>;
  /** The insights room (issue #38), for `svcInsights`; absent in a host that embeds svc without it. */
  readonly insights?: Pick<InsightsFeature, 'enabled' | 'report'>;
}

export interface SvcRequestContext {
  readonly app: GraphqlApp;
  readonly principal: Principal;
  /** Absent when a host schema executes svc resolvers outside an HTTP request. */
  readonly request?: FastifyRequest;
  readonly reply?: FastifyReply;
  /** A fresh CSRF token bound to this client's cookie (set when missing); null when CSRF is off. */
  csrfToken(): { name: string; value: string } | null;
}

export interface SvcGraphqlContext {
  readonly svc: SvcRequestContext;
}

/** GraphQL names allow [_A-Za-z0-9]; form handles are kebab-case. */
export function graphqlHandle(form: Pick<Form, 'handle'>): string {
  return form.handle.replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * The CSRF token object a resolver returns: `value` is a getter, so a token is minted (and its
 * cookie set) only when the query selects it. The getter is the class's, shared by every
 * instance. An object literal with a getter made a new getter closure per request, and V8 kept
 * those objects (and the request context each closure holds) alive through young collections
 * until the next full one, apparently through the per-object shapes such literals get: 2 MB
 * promoted per scavenge under the bench's GraphQL query, none with the class (issue #17).
 */
class LazyCsrfToken {
  readonly name = CSRF_FIELD_NAME;
  #token: { name: string; value: string } | null | undefined;

  constructor(private readonly ctx: SvcGraphqlContext) {}

  get value(): string | null {
    this.#token ??= this.ctx.svc.csrfToken();
    return this.#token?.value ?? null;
  }
}

export function lazyCsrfToken(ctx: SvcGraphqlContext): { readonly name: string; readonly value: string | null } | null {
  return ctx.svc.app.csrf ? new LazyCsrfToken(ctx) : null;
}

export function mutationName(form: Pick<Form, 'handle'>): string {
  return `save_${graphqlHandle(form)}_Submission`;
}
