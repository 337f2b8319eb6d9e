/**
 * `POST /svc/api/admin/profiles/{profile}/links` (issue #13): site software mints signed links the
 * way `svc profiles sign` does, with an admin key that may write and may read the profile's form.
 * Body `{properties, ttlSeconds?, singleUse?, prefill?, subject?}`; answers `{token, link, expiresAt}`.
 */
import { appendAudit } from '../admin/audit-log.js';
import type { FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { assertCanWrite, createAdminKeys } from '../admin/admin-keys.js';
import { createAdminGuard, sendData } from '../admin/admin-http.js';
import { checkProperties } from './profile-properties.js';
import { linkSingleUse, type LinkTokens } from './profile-link-tokens.js';
import type { ProfileRegistry } from './profile-registry.js';
import type { ServiceAddress } from '../http/service-address.js';
import { profileLinkSchema } from './profile-schemas.js';

const MAX_TTL_SECONDS = 366 * 86_400;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown, name: string): Record<string, string> {
  if (value === undefined) return {};
  if (!isRecord(value) || !Object.values(value).every((v) => typeof v === 'string')) throw new SvcError('PAYLOAD_INVALID', `\`${name}\` must map field handles to text.`);
  return value as Record<string, string>;
}

/**
 * What minting a link takes of the profiles feature, which hands it in (profiles-feature.ts); named
 * here so this module does not import the feature that registers it (issue #31 item 15).
 */
export interface ProfileLinkServices {
  readonly registry: ProfileRegistry;
  readonly links: LinkTokens;
  /** svc's own address: a `linkTemplate` written as a path is on svc itself. */
  readonly address: ServiceAddress;
}

export async function profileAdminRoutes(app: FastifyInstance, ctx: AppContext, feature: ProfileLinkServices): Promise<void> {
  const keys = createAdminKeys(ctx.config);
  const onRequest = createAdminGuard(ctx.config.headless.enabled);
  app.post<{ Params: { profile: string } }>('/svc/api/admin/profiles/:profile/links', { onRequest, schema: profileLinkSchema }, async (request, reply) => {
    const key = keys.authenticate(request.headers.authorization);
    assertCanWrite(key);
    const profile = feature.registry.resolve(request.params.profile);
    // A key that may not see the form may not hand out links to it either.
    if (!key.canRead(profile.form.handle)) throw new SvcError('PROFILE_NOT_FOUND', `Profile "${profile.name}" not found.`);
    if (!profile.config.requiresSignedToken) throw new SvcError('PAYLOAD_INVALID', `Profile "${profile.name}" does not take signed links.`);
    const body = request.body ?? {};
    if (!isRecord(body)) throw new SvcError('PAYLOAD_INVALID', 'The body must be a JSON object.');
    const properties = checkProperties(profile.config, Object.entries(isRecord(body['properties']) ? body['properties'] : {}));
    const ttl = body['ttlSeconds'] ?? ctx.config.profileLinks.defaultTtlHours * 3600;
    if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 60 || ttl > MAX_TTL_SECONDS) throw new SvcError('PAYLOAD_INVALID', '`ttlSeconds` must be an integer from 60 to a year.');
    const subject = body['subject'];
    if (subject !== undefined && (typeof subject !== 'string' || subject.length === 0 || subject.length > 200)) throw new SvcError('PAYLOAD_INVALID', '`subject` must be 1-200 characters.');
    const singleUse = linkSingleUse(profile, typeof body['singleUse'] === 'boolean' ? body['singleUse'] : undefined);
    const token = await feature.links.sign({
      profile: profile.name,
      properties,
      ttlSeconds: ttl,
      singleUse,
      prefill: stringMap(body['prefill'], 'prefill'),
      ...(typeof subject === 'string' ? { subject } : {}),
    });
    const link = profile.config.linkTemplate ? feature.address.resolve(profile.config.linkTemplate.replaceAll('{token}', encodeURIComponent(token))) : null;
    // issue #15: who handed out a link, for what, never the token itself.
    await appendAudit(
      ctx.database.db,
      { key, action: 'profile.link', form: profile.form.handle, target: `profile:${profile.name}`, detail: { properties, ttlSeconds: ttl, singleUse }, ip: request.ip },
      ctx.submit.now(),
    );
    return sendData(reply.code(201), { token, link, expiresAt: new Date(ctx.submit.now().getTime() + ttl * 1000).toISOString() });
  });
}
