/**
 * The profiles room (issue #13): its services for the composition root and its one plugin entry.
 * Profiles, their forms and their context providers are checked once at boot.
 */
import type { Form } from '@svc/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config-schema.js';
import type { Database } from '../storage/database-schema.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { AppContext } from '../http/app-context.js';
import type { ServiceAddress } from '../http/service-address.js';
import { createBearerVerifier } from './profile-auth.js';
import { createLinkTokens, type LinkTokens } from './profile-link-tokens.js';
import { createProfileRegistry, type ProfileRegistry } from './profile-registry.js';
import type { ProfileServices } from './profile-access.js';
import { profileRoutes } from './profile-routes.js';
import { profileAdminRoutes } from './profile-admin-routes.js';

export interface ProfileFeature {
  readonly registry: ProfileRegistry;
  readonly services: ProfileServices;
  readonly links: LinkTokens;
  /** svc's own address: a `linkTemplate` written as a path is on svc itself. */
  readonly address: ServiceAddress;
}

export async function createProfileServices(
  config: Config,
  deps: {
    db: Kysely<Database>;
    forms: FormRegistry;
    secret: string;
    now: () => Date;
    log: FastifyBaseLogger;
    address: ServiceAddress;
    /** The app's one localizer (issue #34): a profile on a site reads and submits its translated form. */
    localize?: (form: Form, language: string) => Form;
  },
): Promise<ProfileFeature> {
  // Provider paths were resolved against the config file by the loader; others against the cwd.
  const registry = await createProfileRegistry(config, deps.forms, process.cwd());
  const links = createLinkTokens(deps.secret, config.profileLinks);
  return {
    registry,
    links,
    address: deps.address,
    services: {
      db: deps.db,
      ...(deps.localize ? { localize: deps.localize } : {}),
      bearer: createBearerVerifier(config.auth, { resolveUrl: deps.address.resolve, log: deps.log }),
      links,
      log: (error) => deps.log.error({ err: error }, 'a profile context provider failed'),
      now: deps.now,
    },
  };
}

export async function registerProfiles(app: FastifyInstance, ctx: AppContext, feature: ProfileFeature): Promise<void> {
  await profileRoutes(app, ctx, feature.registry, feature.services);
  await profileAdminRoutes(app, ctx, feature);
}
