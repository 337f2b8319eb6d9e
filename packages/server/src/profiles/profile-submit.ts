/**
 * A submit through a named profile (contract §9, issue #13), shared by the REST route and the
 * GraphQL mutations: who may submit (bearer token, signed link, properties), the normal pipeline
 * with locked and hidden values forced from the context, the profile recorded, and a single-use
 * link spent in the submission's own transaction.
 */
import { SvcError } from '@svc/core';
import { submitForm, type SubmitInput, type SubmitServices } from '../submissions/submit-pipeline.js';
import type { SubmitResult } from '../submissions/submit-response.js';
import { authorizeProfile, spendLink, type ProfileServices } from './profile-access.js';
import type { ResolvedProfile } from './profile-registry.js';
import { withKeys } from '../submissions/object-shapes.js';

export interface ProfileSubmitInput extends Omit<SubmitInput, 'csrf' | 'profile'> {
  /** Properties as the caller gave them (checked here). */
  readonly properties: readonly (readonly [string, unknown])[];
  /** `Bearer <JWT>` for a `requiresAuth` profile. */
  readonly authorization: string | undefined;
  /** The signed link's token for a `requiresSignedToken` profile. */
  readonly token: unknown;
  /** The caller's CSRF proof; a bearer token or a signed link stands in for it. */
  readonly csrf: SubmitInput['csrf'];
}

export interface ProfileSubmitResult extends SubmitResult {
  /** The authenticated person (the token's `sub`), or null. */
  readonly subject: string | null;
}

export async function submitThroughProfile(
  pipeline: SubmitServices,
  services: ProfileServices,
  profile: ResolvedProfile,
  input: ProfileSubmitInput,
): Promise<ProfileSubmitResult> {
  if (!profile.config.allowSubmit) throw new SvcError('PROFILE_FORBIDDEN', 'This profile does not accept submissions.');
  const access = await authorizeProfile(services, profile, { properties: input.properties, authorization: input.authorization, token: input.token, purpose: 'submit' });
  const { lockedFields, hiddenFields } = access.context;
  const subject = access.user?.subject ?? access.link?.subject ?? null;
  const { properties: _given, authorization: _auth, token: _token, ...rest } = input;
  // issue #34: on a site, the form as that site's language reads it, as the plain submit does.
  const form = input.site && services.localize ? services.localize(profile.form, input.site.language) : profile.form;
  const result = await submitForm(pipeline, form, {
    ...rest,
    request: { ...input.request, values: { ...input.request.values, ...lockedFields, ...hiddenFields } },
    // A bearer token or a signed link is not ambient like a cookie, so it stands in for CSRF.
    csrf: access.user || access.link ? 'trusted' : input.csrf,
    profile: {
      record: { name: profile.name, properties: access.properties, subject, issuer: access.user?.issuer ?? (access.link ? 'svc' : null) },
      ...(access.link?.jti && profile.config.singleUse ? { claim: spendLink(profile.name, access.link, services.now) } : {}),
    },
  });
  return withKeys(result, { subject });
}
