/**
 * Who may use the admin API (issue #5, "Access for site owners"): API keys from `admin.keys`,
 * stored as SHA-256 hashes like the GraphQL tokens (graphql-access.ts), scoped `read` or
 * `read`+`write`, for listed forms or `*`. A form the key may not read behaves like one that does
 * not exist; a missing scope is a 403 ADMIN_FORBIDDEN.
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
}

export interface AdminKeys {
  /** The key an Authorization header carries; throws 401 AUTH_REQUIRED when there is none or it is unknown. */
  authenticate(authorization: string | undefined): AdminKey;
}

const REALM = 'Bearer realm="svc-admin"';

export function createAdminKeys(config: Config): AdminKeys {
  const keys = config.admin.keys.map((key) => {
    const all = key.forms.includes('*');
    const forms = new Set(key.forms);
    const principal: AdminKey = {
      name: key.name,
      canRead: (handle) => all || forms.has(handle),
      canWrite: key.scopes.includes('write'),
      allForms: all,
    };
    return { sha256: key.sha256, principal };
  });
  return {
    authenticate(authorization) {
      if (!authorization) throw new SvcError('AUTH_REQUIRED', 'An admin API key is required.', { headers: { 'WWW-Authenticate': REALM } });
      const match = /^Bearer\s+([\x21-\x7e]{16,512})$/i.exec(authorization.trim());
      const digest = match ? sha256(match[1] as string) : null;
      // Every key is compared, so the time taken does not say which one nearly matched.
      let found: AdminKey | null = null;
      for (const key of keys) if (digest && safeEqual(digest, key.sha256)) found = key.principal;
      if (!found) {
        throw new SvcError('AUTH_REQUIRED', 'The admin API key is not valid.', {
          headers: { 'WWW-Authenticate': `${REALM}, error="invalid_token"` },
        });
      }
      return found;
    },
  };
}

export function assertCanWrite(key: AdminKey): void {
  if (!key.canWrite) throw new SvcError('ADMIN_FORBIDDEN', 'This API key may only read.');
}
