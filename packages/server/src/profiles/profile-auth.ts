/**
 * `requiresAuth` (contract §9, issue #13): `Authorization: Bearer <JWT>` verified with jose against
 * the configured issuers: signature with the issuer's key (a JWKS fetched and cached, refetched on
 * an unknown `kid`, or a PEM key), an explicit algorithm list, `iss`, `aud`, `exp`, `nbf` and `sub`.
 * A token is never decoded without being verified; the unverified `iss` only picks whose key to try.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import { SvcError } from '@svc/core';
import type { FastifyBaseLogger } from 'fastify';
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

export interface BearerVerifierOptions {
  /** Resolves a `jwksUrl` written as a path (`/demo/jwks.json`) against svc's own address, when used. */
  readonly resolveUrl?: (url: string) => string;
  /** Why a token was refused, at debug level: the jose error's code and message, never the token. */
  readonly log?: FastifyBaseLogger;
}

/** What a refusal is logged with: jose's code (ERR_JWT_EXPIRED, ERR_JWKS_NO_MATCHING_KEY…) or the socket's. */
function reasonOf(error: unknown): { code: string; reason: string } {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return { code: typeof code === 'string' ? code : 'ERR_UNKNOWN', reason: typeof message === 'string' ? message.slice(0, 300) : String(error) };
}

export function createBearerVerifier(auth: Config['auth'], options: BearerVerifierOptions = {}): BearerVerifier {
  const resolveUrl = options.resolveUrl ?? ((url: string) => url);
  // A key set is made at its first use: a JWKS on svc itself has no port to name before it listens.
  const keySets = new Map<string, KeySource>();
  const keyOf = (issuer: Config['auth']['issuers'][number]): KeySource => {
    let key = keySets.get(issuer.issuer);
    if (!key) {
      key = issuer.jwksUrl
        ? createRemoteJWKSet(new URL(resolveUrl(issuer.jwksUrl)), { timeoutDuration: 5000, cooldownDuration: auth.jwksCooldownSeconds * 1000, cacheMaxAge: 600_000 })
        : createPublicKey(issuer.publicKey as string);
      keySets.set(issuer.issuer, key);
    }
    return key;
  };
  const issuers = new Map(auth.issuers.map((issuer) => [issuer.issuer, issuer] as const));
  const refuse = (why: Record<string, unknown>): SvcError => {
    options.log?.debug(why, 'bearer token refused');
    return authRequired();
  };
  return {
    async verify(authorization) {
      const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/.exec(authorization?.trim() ?? '');
      if (!match) throw refuse({ code: authorization ? 'ERR_NOT_A_BEARER_JWT' : 'ERR_NO_BEARER_TOKEN' });
      const token = match[1] as string;
      let iss: unknown;
      try {
        iss = decodeJwt(token).iss;
      } catch (error) {
        throw refuse(reasonOf(error));
      }
      const issuer = typeof iss === 'string' ? issuers.get(iss) : undefined;
      // The issuer is what the token claims, unverified; logged short, as a name and nothing more.
      if (!issuer) throw refuse({ code: 'ERR_UNKNOWN_ISSUER', issuer: typeof iss === 'string' ? iss.slice(0, 100) : null });
      try {
        const verifyOptions = {
          issuer: issuer.issuer,
          audience: issuer.audience,
          algorithms: [...issuer.algorithms],
          clockTolerance: auth.clockToleranceSeconds,
          requiredClaims: ['exp', 'sub'],
        };
        const key = keyOf(issuer);
        // Two calls rather than a union: jose types a key set and a key differently.
        const { payload } = key instanceof Function ? await jwtVerify(token, key, verifyOptions) : await jwtVerify(token, key, verifyOptions);
        return { subject: payload.sub as string, issuer: issuer.issuer, claims: payload };
      } catch (error) {
        // Expired, wrong audience, bad signature, unknown kid, alg confusion, an unreachable JWKS:
        // all the same to a caller; the log says which.
        throw refuse({ issuer: issuer.issuer, ...reasonOf(error) });
      }
    },
  };
}
