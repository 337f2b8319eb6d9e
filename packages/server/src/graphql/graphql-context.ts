/** What every svc resolver receives under `context.svc`: the app, the caller and request helpers. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Form } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import type { Principal } from './graphql-access.js';
import { CSRF_FIELD_NAME } from '../security/csrf-tokens.js';

export interface SvcRequestContext {
  readonly app: AppContext;
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
 * cookie set) only when the query selects it.
 */
export function lazyCsrfToken(ctx: SvcGraphqlContext): { readonly name: string; readonly value: string | null } | null {
  if (!ctx.svc.app.csrf) return null;
  let token: { name: string; value: string } | null | undefined;
  return {
    name: CSRF_FIELD_NAME,
    get value() {
      token ??= ctx.svc.csrfToken();
      return token?.value ?? null;
    },
  };
}

export function mutationName(form: Pick<Form, 'handle'>): string {
  return `save_${graphqlHandle(form)}_Submission`;
}
