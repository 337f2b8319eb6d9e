/**
 * Signed profile links (contract §9, issue #13): JWTs svc signs itself (HS256 with a key derived
 * from `secret` per `kid`, so keys rotate by changing `profileLinks.kid` and keeping the old one in
 * `acceptedKids`). A link binds the profile, its property values, an expiry, optionally prefilled
 * values and, for single-use links, a `jti` that its first completed submission spends.
 */
import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { SvcError } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import { deriveKey } from '../security/token-crypto.js';
import { authRequired } from './profile-auth.js';
import type { PropertyValue, PropertyValues } from './profile-properties.js';

const TYP = 'svc-link+jwt';
const ISSUER = 'svc';

export interface LinkClaims {
  readonly profile: string;
  readonly subject: string;
  readonly properties: PropertyValues;
  readonly prefill: Readonly<Record<string, string>>;
  /** Set for single-use links. */
  readonly jti: string | null;
  readonly expiresAt: Date;
}

export interface LinkTokens {
  sign(input: { profile: string; properties: PropertyValues; ttlSeconds: number; singleUse: boolean; subject?: string; prefill?: Record<string, string> }): Promise<string>;
  verify(token: unknown, profile: string): Promise<LinkClaims>;
}

/**
 * Whether a new link is single-use. The profile's `singleUse: true` wins: the submit spends every
 * link of such a profile, so a link asked for with `singleUse: false` would be refused after its
 * first use; the mint refuses the contradiction instead of handing out a link that says otherwise.
 */
export function linkSingleUse(profile: { readonly name: string; readonly config: { readonly singleUse: boolean } }, asked: boolean | undefined): boolean {
  if (asked === false && profile.config.singleUse) {
    throw new SvcError('PAYLOAD_INVALID', `Profile "${profile.name}" makes single-use links (singleUse: true in its config): a link with singleUse: false would still be spent by its first submission. Leave singleUse out.`);
  }
  return asked === true || profile.config.singleUse;
}

export function createLinkTokens(secret: string, options: Config['profileLinks']): LinkTokens {
  const keyOf = (kid: string) => new Uint8Array(deriveKey(secret, `profile-link:${kid}`));
  const accepted = new Set([options.kid, ...options.acceptedKids]);
  return {
    async sign(input) {
      const jwt = new SignJWT({ prp: input.properties, ...(input.prefill && Object.keys(input.prefill).length > 0 ? { pfl: input.prefill } : {}) })
        .setProtectedHeader({ alg: 'HS256', typ: TYP, kid: options.kid })
        .setIssuer(ISSUER)
        .setAudience(`profile:${input.profile}`)
        .setSubject(input.subject ?? 'link')
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + input.ttlSeconds);
      if (input.singleUse) jwt.setJti(randomUUID());
      return jwt.sign(keyOf(options.kid));
    },
    async verify(token, profile) {
      if (typeof token !== 'string' || token.length > 4096) throw authRequired('A valid signed link is required for this profile.');
      try {
        const { payload } = await jwtVerify(
          token,
          (header) => {
            if (!header.kid || !accepted.has(header.kid)) throw new Error('unknown kid');
            return keyOf(header.kid);
          },
          { algorithms: ['HS256'], issuer: ISSUER, audience: `profile:${profile}`, typ: TYP, requiredClaims: ['exp', 'sub', 'iat'] },
        );
        const properties = (payload['prp'] ?? {}) as Record<string, PropertyValue>;
        const prefill = (payload['pfl'] ?? {}) as Record<string, string>;
        if (typeof properties !== 'object' || typeof prefill !== 'object') throw new Error('bad claims');
        return { profile, subject: payload.sub as string, properties, prefill, jti: payload.jti ?? null, expiresAt: new Date((payload.exp as number) * 1000) };
      } catch {
        throw authRequired('A valid signed link is required for this profile.');
      }
    },
  };
}
