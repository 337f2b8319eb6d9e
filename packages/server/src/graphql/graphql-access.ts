/**
 * Who may read and submit which form over GraphQL (contract §11): a public principal configured by
 * `graphql.public` (or, when unset, the headless.forms switches), and bearer tokens with scopes,
 * stored as SHA-256 hashes. Forbidden forms behave exactly like unknown ones.
 */
import { SvcError } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import { safeEqual, sha256 } from '../security/token-crypto.js';

export interface Principal {
  /** Name of the bearer token, or null for the public. */
  readonly token: string | null;
  canRead(handle: string): boolean;
  canSubmit(handle: string): boolean;
  /** May read the form's insights (issue #38): a token with `insights:read` or `insights:<handle>:read`; never the public. */
  canReadInsights(handle: string): boolean;
}

function listPolicy(list: readonly string[]): (handle: string) => boolean {
  if (list.includes('*')) return () => true;
  const set = new Set(list);
  return (handle) => set.has(handle);
}

function scopePolicy(scopes: readonly string[], kind: 'forms' | 'submissions' | 'insights', action: 'read' | 'create') {
  if (scopes.includes(`${kind}:${action}`)) return () => true;
  const handles = new Set(scopes.filter((s) => s.startsWith(`${kind}:`) && s.endsWith(`:${action}`)).map((s) => s.split(':')[1]));
  return (handle: string) => handles.has(handle);
}

export interface AccessControl {
  readonly publicPrincipal: Principal;
  /** The principal for an Authorization header; throws AUTH_REQUIRED for a bearer token we don't know. */
  principalFor(authorization: string | undefined): Principal;
}

export function createAccessControl(config: Config): AccessControl {
  const publicConfig = config.graphql.public;
  const headlessForms = Object.entries(config.headless.forms);
  const publicPrincipal: Principal = publicConfig
    ? { token: null, canRead: listPolicy(publicConfig.read ?? []), canSubmit: listPolicy(publicConfig.submit ?? []), canReadInsights: () => false }
    : {
        token: null,
        canRead: listPolicy(headlessForms.filter(([, f]) => f.exposeManifest).map(([h]) => h)),
        canSubmit: listPolicy(headlessForms.filter(([, f]) => f.allowSubmit).map(([h]) => h)),
        canReadInsights: () => false,
      };
  const tokens = config.graphql.tokens.map((t) => ({
    name: t.name,
    sha256: t.sha256,
    principal: {
      token: t.name,
      canRead: scopePolicy(t.scopes, 'forms', 'read'),
      canSubmit: scopePolicy(t.scopes, 'submissions', 'create'),
      canReadInsights: scopePolicy(t.scopes, 'insights', 'read'),
    } satisfies Principal,
  }));
  return {
    publicPrincipal,
    principalFor(authorization) {
      if (!authorization) return publicPrincipal;
      const match = /^Bearer\s+([\x21-\x7e]{16,512})$/i.exec(authorization.trim());
      const digest = match ? sha256(match[1] as string) : null;
      // Compare against every token so the time taken does not say which one nearly matched.
      let found: Principal | null = null;
      for (const token of tokens) if (digest && safeEqual(digest, token.sha256)) found = token.principal;
      if (!found) throw new SvcError('AUTH_REQUIRED', 'The bearer token is not valid.');
      return found;
    },
  };
}
