/**
 * Who may use the admin API and the console (issues #5, #15): API keys from `admin.keys`, stored
 * as SHA-256 hashes like the GraphQL tokens (graphql-access.ts), and console users from
 * `admin.users`, both scoped `read` or `read`+`write` (and `privacy`, issue #37), for listed forms or `*`. One rule turns
 * either into a principal, so a key and a user with the same scopes may do exactly the same.
 * A form the principal may not read behaves like one that does not exist; a missing scope is a
 * 403 ADMIN_FORBIDDEN.
 */
import { SvcError } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import { safeEqual, sha256 } from '../security/token-crypto.js';

export interface AdminKey {
  readonly name: string;
  canRead(handle: string): boolean;
  readonly canWrite: boolean;
  /** Whether the key sees every form (`forms: ['*']`): only then does it read entries of no form. */
  readonly allForms: boolean;
  /** The `privacy` scope (issue #37): find, export and (with `write`) erase a person's data. */
  readonly canPrivacy?: boolean;
}

/** A configured key or console user, with what it proves itself by (a SHA-256 or a password hash). */
export interface AdminAccount {
  readonly kind: 'key' | 'user';
  readonly principal: AdminKey;
  /** The stored credential: the key's SHA-256 or the user's password hash, never a secret itself. */
  readonly credential: string;
}

export interface AdminKeys {
  /** The key an Authorization header carries; throws 401 AUTH_REQUIRED when there is none or it is unknown. */
  authenticate(authorization: string | undefined): AdminKey;
  /** A configured key or console user by name (the console's sessions name one), or null. */
  account(kind: AdminAccount['kind'], name: string): AdminAccount | null;
}

const REALM = 'Bearer realm="svc-admin"';

/** The one scope rule for keys and users: `read` always, `write` when listed, the forms listed or `*`. */
export function scopedPrincipal(name: string, scopes: readonly string[], forms: readonly string[]): AdminKey {
  const all = forms.includes('*');
  const listed = new Set(forms);
  return { name, canRead: (handle) => all || listed.has(handle), canWrite: scopes.includes('write'), allForms: all, canPrivacy: scopes.includes('privacy') };
}

export function createAdminKeys(config: Pick<Config, 'admin'>): AdminKeys {
  const keys: AdminAccount[] = config.admin.keys.map((key) => ({ kind: 'key', principal: scopedPrincipal(key.name, key.scopes, key.forms), credential: key.sha256 }));
  const users: AdminAccount[] = config.admin.users.map((user) => ({ kind: 'user', principal: scopedPrincipal(user.username, user.scopes, user.forms), credential: user.passwordHash }));
  return {
    authenticate(authorization) {
      if (!authorization) throw new SvcError('AUTH_REQUIRED', 'An admin API key is required.', { headers: { 'WWW-Authenticate': REALM } });
      const match = /^Bearer\s+([\x21-\x7e]{16,512})$/i.exec(authorization.trim());
      const digest = match ? sha256(match[1] as string) : null;
      // Every key is compared, so the time taken does not say which one nearly matched.
      let found: AdminKey | null = null;
      for (const key of keys) if (digest && safeEqual(digest, key.credential)) found = key.principal;
      if (!found) {
        throw new SvcError('AUTH_REQUIRED', 'The admin API key is not valid.', {
          headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
        });
      }
      return found;
    },
    account(kind, name) {
      return (kind === 'key' ? keys : users).find((a) => a.principal.name === name) ?? null;
    },
  };
}

export function assertCanWrite(key: AdminKey): void {
  if (!key.canWrite) throw new SvcError('ADMIN_FORBIDDEN', 'This API key may only read.');
}
