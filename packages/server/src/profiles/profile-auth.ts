/**
 * `requiresAuth` (contract §9, issue #13): `Authorization: Bearer <JWT>` verified with jose against
 * the configured issuers: signature with the issuer's key (a JWKS fetched and cached, refetched on
 * an unknown `kid`, or a PEM key), an explicit algorithm list, `iss`, `aud`, `exp`, `nbf` and `sub`.
 * A token is never decoded without being verified; the unverified `iss` only picks whose key to try.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { SvcError } from '@svc/core';
import type { Config } from '../config/config-schema.js';

export interface VerifiedUser {
  readonly subject: string;
  readonly issuer: string;
  /** Every verified claim, for context templates (`{{ user.email }}`). */
  readonly claims: Readonly<JWTPayload>;
}

export interface BearerVerifier {
  verify(authorization: string | undefined): Promise<VerifiedUser>;
}

const CHALLENGE = 'Bearer realm="svc", error="invalid_token"';

export function authRequired(message = 'A valid bearer token is required for this profile.'): SvcError {
  return new SvcError('AUTH_REQUIRED', message, { headers: { 'WWW-Authenticate': CHALLENGE } });
}

type KeySource = ReturnType<typeof createRemoteJWKSet> | KeyObject;

export function createBearerVerifier(auth: Config['auth']): BearerVerifier {
  const issuers = new Map(
    auth.issuers.map((issuer) => {
      const key: KeySource = issuer.jwksUrl
        ? createRemoteJWKSet(new URL(issuer.jwksUrl), { timeoutDuration: 5000, cooldownDuration: auth.jwksCooldownSeconds * 1000, cacheMaxAge: 600_000 })
        : createPublicKey(issuer.publicKey as string);
      return [issuer.issuer, { ...issuer, key }] as const;
    }),
  );
  return {
    async verify(authorization) {
      const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/.exec(authorization?.trim() ?? '');
      if (!match) throw authRequired();
      const token = match[1] as string;
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch {
        throw authRequired();
      }
      const issuer = typeof iss === 'string' ? issuers.get(iss) : undefined;
      if (!issuer) throw authRequired();
      try {
        const options = {
          issuer: issuer.issuer,
          audience: issuer.audience,
          algorithms: [...issuer.algorithms],
          clockTolerance: auth.clockToleranceSeconds,
          requiredClaims: ['exp', 'sub'],
        };
        // Two calls rather than a union: jose types a key set and a key differently.
        const { payload } =
          issuer.key instanceof Function ? await jwtVerify(token, issuer.key, options) : await jwtVerify(token, issuer.key, options);
        return { subject: payload.sub as string, issuer: issuer.issuer, claims: payload };
      } catch {
        // Expired, wrong audience, bad signature, unknown kid, alg confusion: all the same to a caller.
        throw authRequired();
      }
    },
  };
}
