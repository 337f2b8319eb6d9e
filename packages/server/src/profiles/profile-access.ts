/**
 * Who may use a profile, for what (contract §9, issue #13): the bearer token of a `requiresAuth`
 * profile, the signed link of a `requiresSignedToken` one (its bound properties win over, and must
 * agree with, those of the request), a link already spent, and the context that follows.
 */
import { SvcError, type Form } from '@svc/core';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database-schema.js';
import type { BearerVerifier, VerifiedUser } from './profile-auth.js';
import { authRequired } from './profile-auth.js';
import { buildProfileContext, type ProfileContext } from './profile-context.js';
import type { LinkClaims, LinkTokens } from './profile-link-tokens.js';
import { checkProperties, type PropertyValues } from './profile-properties.js';
import type { ResolvedProfile } from './profile-registry.js';

export interface ProfileServices {
  readonly db: Kysely<Database>;
  /** The form as a site in `language` reads it (issue #34); absent: the form's own words. */
  readonly localize?: (form: Form, language: string) => Form;
  readonly bearer: BearerVerifier;
  readonly links: LinkTokens;
  readonly log: (error: unknown) => void;
  readonly now: () => Date;
}

export interface ProfileAccess {
  readonly properties: PropertyValues;
  readonly user: VerifiedUser | null;
  readonly link: LinkClaims | null;
  readonly context: ProfileContext;
}

/** Properties as the request gave them (raw, unchecked), the Authorization header, the link token. */
export interface ProfileRequest {
  readonly properties: readonly (readonly [string, unknown])[];
  readonly authorization: string | undefined;
  readonly token: unknown;
  readonly purpose: 'manifest' | 'submit';
}

async function isSpent(db: Kysely<Database>, jti: string): Promise<boolean> {
  return (await db.selectFrom('svc_spent_links').select('jti').where('jti', '=', jti).executeTakeFirst()) !== undefined;
}

/** A link's bound properties fill what the request left out; a different value is a forged request. */
function withLinkProperties(given: readonly (readonly [string, unknown])[], link: LinkClaims | null): (readonly [string, unknown])[] {
  if (!link) return [...given];
  const out = new Map<string, unknown>(given);
  for (const [name, bound] of Object.entries(link.properties)) {
    if (out.has(name) && String(out.get(name)) !== String(bound)) throw authRequired(`Property "${name}" differs from the one the link was signed for.`);
    out.set(name, bound);
  }
  return [...out];
}

export async function authorizeProfile(services: ProfileServices, profile: ResolvedProfile, request: ProfileRequest): Promise<ProfileAccess> {
  const user = profile.config.requiresAuth ? await services.bearer.verify(request.authorization) : null;
  const link = profile.config.requiresSignedToken ? await services.links.verify(request.token, profile.name) : null;
  if (link?.jti && (await isSpent(services.db, link.jti))) throw new SvcError('TOKEN_SPENT');
  const properties = checkProperties(profile.config, withLinkProperties(request.properties, link));
  const context = await buildProfileContext(profile, { properties, user, link, purpose: request.purpose }, services.log);
  return { properties, user, link, context };
}

/**
 * Spends a single-use link in the submission's transaction: the primary key on `jti` fails the
 * second of two racing submissions, which then stores nothing and answers TOKEN_SPENT.
 */
export function spendLink(profile: string, link: LinkClaims, now: () => Date) {
  const jti = link.jti as string;
  return async (trx: Transaction<Database>, submissionId: number | null): Promise<void> => {
    const result = await trx
      .insertInto('svc_spent_links')
      .values({ jti, profile, submission_id: submissionId, spent_at: now().toISOString(), expires_at: link.expiresAt.toISOString() })
      .onConflict((oc) => oc.column('jti').doNothing())
      .executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0n) !== 1) throw new SvcError('TOKEN_SPENT');
  };
}
