/**
 * The context of a profile request (contract §9): default, locked and hidden values, written in
 * config as small sandboxed templates over `user` (verified JWT claims), `properties` and `token`
 * (a signed link's claims), or computed by a context-provider module. Locked and hidden values are
 * forced on submit whatever was posted; a signed link's prefilled values are locked too.
 */
import { Liquid } from 'liquidjs';
import { SvcError } from '@svc/core';
import type { ResolvedProfile } from './profile-registry.js';
import type { PropertyValues } from './profile-properties.js';
import type { VerifiedUser } from './profile-auth.js';
import type { LinkClaims } from './profile-link-tokens.js';
import type { ProfileRequestContext } from './profile-types.js';

export interface ProfileContext {
  readonly request: ProfileRequestContext;
  readonly defaultValues: Readonly<Record<string, unknown>>;
  readonly lockedFields: Readonly<Record<string, unknown>>;
  readonly hiddenFields: Readonly<Record<string, unknown>>;
}

// Templates are config, not user input, but they render user data: no filesystem, bounded work.
const liquid = new Liquid({ ownPropertyOnly: true, strictFilters: true, relativeReference: false, dynamicPartials: false, renderLimit: 100, parseLimit: 10_000, memoryLimit: 1_000_000 });

function renderAll(templates: Readonly<Record<string, string>>, scope: object): Record<string, string> {
  return Object.fromEntries(Object.entries(templates).map(([handle, template]) => [handle, liquid.parseAndRenderSync(template, scope)]));
}

/** A provider's answer, kept to fields the form has. */
function ownFields(profile: ResolvedProfile, values: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  if (!values || typeof values !== 'object') return {};
  return Object.fromEntries(Object.entries(values).filter(([handle]) => profile.form.fieldsByHandle.has(handle)));
}

/** A provider that throws is the site's fault, not the caller's: 503, the cause in the log. */
async function call<T>(run: () => T | Promise<T>, log: (error: unknown) => void): Promise<T> {
  try {
    return await run();
  } catch (error) {
    log(error);
    throw new SvcError('SERVICE_UNAVAILABLE', 'The profile could not be prepared right now; please try again.');
  }
}

export async function buildProfileContext(
  profile: ResolvedProfile,
  input: { properties: PropertyValues; user: VerifiedUser | null; link: LinkClaims | null; purpose: 'manifest' | 'submit' },
  log: (error: unknown) => void,
): Promise<ProfileContext> {
  const request: ProfileRequestContext = {
    profile: profile.name,
    form: profile.form.handle,
    properties: input.properties,
    user: input.user ? { ...input.user.claims } : null,
    token: input.link ? { subject: input.link.subject, prefill: input.link.prefill } : null,
  };
  const provider = profile.provider;
  const gate = input.purpose === 'manifest' ? provider?.canAccessManifest : provider?.canSubmit;
  if (gate && !(await call(() => gate.call(provider, request), log))) throw new SvcError('PROFILE_FORBIDDEN');
  const scope = { user: request.user ?? {}, properties: request.properties, token: request.token ?? {} };
  const templates = await call(() => ({
    defaultValues: renderAll(profile.config.context.defaultValues, scope),
    lockedFields: renderAll(profile.config.context.lockedFields, scope),
    hiddenFields: renderAll(profile.config.context.hiddenFields, scope),
  }), log);
  const computed = async (name: 'defaultValues' | 'lockedFields' | 'hiddenFields') => {
    const fn = provider?.[name];
    return fn ? ownFields(profile, await call(() => fn.call(provider, request), log)) : {};
  };
  return {
    request,
    defaultValues: { ...templates.defaultValues, ...(await computed('defaultValues')) },
    lockedFields: { ...templates.lockedFields, ...ownFields(profile, input.link?.prefill), ...(await computed('lockedFields')) },
    hiddenFields: { ...templates.hiddenFields, ...(await computed('hiddenFields')) },
  };
}
