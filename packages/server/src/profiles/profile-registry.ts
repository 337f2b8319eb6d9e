/**
 * The profiles of `headless.profiles` (contract §9, issue #13), checked once at boot against the
 * loaded forms and their context providers, every mistake reported together.
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { SvcError, type Form } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { ContextProvider, ProfileConfig } from './profile-types.js';
import { profileCacheProblem } from './profile-cache.js';

export interface ResolvedProfile {
  readonly name: string;
  readonly config: ProfileConfig;
  readonly form: Form;
  readonly provider: ContextProvider | null;
}

export interface ProfileRegistry {
  /** The profile and its current form; PROFILE_NOT_FOUND for a name config does not declare. */
  resolve(name: string): ResolvedProfile;
  names(): readonly string[];
}

const PROVIDER_FUNCTIONS = ['canAccessManifest', 'canSubmit', 'defaultValues', 'hiddenFields', 'lockedFields'] as const;

export class ProfileConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid profiles:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ProfileConfigError';
  }
}

async function loadProvider(path: string, baseDir: string, problems: string[], at: string): Promise<ContextProvider | null> {
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(pathToFileURL(resolve(baseDir, path)).href)) as Record<string, unknown>;
  } catch (error) {
    problems.push(`${at}.contextProvider: "${path}" does not load (${(error as Error).message.split('\n')[0]})`);
    return null;
  }
  // A provider may export only what it decides; a name it exports must be a function.
  const missing = PROVIDER_FUNCTIONS.filter((name) => loaded[name] !== undefined && typeof loaded[name] !== 'function');
  const none = PROVIDER_FUNCTIONS.every((name) => loaded[name] === undefined);
  if (missing.length > 0) problems.push(`${at}.contextProvider: ${missing.join(', ')} must be functions`);
  if (none) problems.push(`${at}.contextProvider: "${path}" exports none of ${PROVIDER_FUNCTIONS.join(', ')}`);
  return missing.length > 0 || none ? null : (loaded as ContextProvider);
}

export async function createProfileRegistry(config: Config, forms: FormRegistry, baseDir: string): Promise<ProfileRegistry> {
  const problems: string[] = [];
  const providers = new Map<string, ContextProvider | null>();
  for (const [name, profile] of Object.entries(config.headless.profiles)) {
    const at = `headless.profiles.${name}`;
    const form = forms.get(profile.form);
    if (!form) problems.push(`${at}.form: no form "${profile.form}"`);
    for (const kind of ['defaultValues', 'lockedFields', 'hiddenFields'] as const) {
      for (const handle of Object.keys(profile.context[kind])) {
        if (form && !form.fieldsByHandle.has(handle)) problems.push(`${at}.context.${kind}.${handle}: no field "${handle}" in form "${form.handle}"`);
      }
    }
    if (profile.requiresAuth && config.auth.issuers.length === 0) problems.push(`${at}.requiresAuth: no auth.issuers are configured`);
    if (profile.singleUse && !profile.requiresSignedToken) problems.push(`${at}.singleUse: needs requiresSignedToken`);
    if (profile.linkTemplate !== null && !profile.linkTemplate.includes('{token}')) problems.push(`${at}.linkTemplate: must contain {token}`);
    const cache = profileCacheProblem(profile.cache);
    if (cache) problems.push(`${at}.cache: ${cache}`);
    providers.set(name, profile.contextProvider ? await loadProvider(profile.contextProvider, baseDir, problems, at) : null);
  }
  config.auth.issuers.forEach((issuer, index) => {
    if ((issuer.jwksUrl === null) === (issuer.publicKey === null)) problems.push(`auth.issuers.${index}: give exactly one of jwksUrl and publicKey`);
  });
  if (problems.length > 0) throw new ProfileConfigError(problems);
  return {
    resolve(name) {
      const profile = Object.hasOwn(config.headless.profiles, name) ? config.headless.profiles[name] : undefined;
      const form = profile ? forms.get(profile.form) : undefined;
      if (!profile || !form) throw new SvcError('PROFILE_NOT_FOUND', `Profile "${name.slice(0, 64)}" not found.`);
      return { name, config: profile, form, provider: providers.get(name) ?? null };
    },
    names: () => Object.keys(config.headless.profiles),
  };
}
