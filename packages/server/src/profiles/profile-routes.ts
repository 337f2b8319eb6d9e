/**
 * The profile routes of interface.md §4.6 and contract §9: the contextual manifest and the submit
 * against a profile. The submit runs the normal pipeline with the profile's rules on top: locked
 * and hidden values forced from the context, the profile recorded, a single-use link spent.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { readCookie } from '../http/cookie-reader.js';
import { preflightHandler } from '../http/cors-hooks.js';
import { createCsrfGate } from '../http/multipart-support.js';
import { withLimit } from '../http/rate-limit-hooks.js';
import { readMultipartSubmit } from '../files/multipart-submit.js';
import { readBrowserBinding } from '../security/browser-binding.js';
import { parseSubmitRequest } from '../submissions/submit-request.js';
import type { SubmitInput } from '../submissions/submit-pipeline.js';
import { readIdempotencyKey } from '../submissions/idempotency-header.js';
import { SERVICE_VERSION } from '../version.js';
import { authorizeProfile, type ProfileServices } from './profile-access.js';
import { submitThroughProfile } from './profile-submit.js';
import { buildProfileManifest, profileManifestEtag } from './profile-manifest.js';
import { siteOfQuery } from '../sites/site-registry.js';
import { matchesEtag } from '../forms/manifest-routes.js';
import { profileCachePolicy } from './profile-cache.js';
import { queryPropertyEntries } from './profile-properties.js';
import type { ProfileRegistry } from './profile-registry.js';
import { profileManifestSchema, profileSubmitSchema } from './profile-schemas.js';

const MANIFEST = '/svc/api/manifests/:profile/manifest';
const SUBMIT = '/svc/api/manifests/:profile/submit';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function profileRoutes(app: FastifyInstance, ctx: AppContext, profiles: ProfileRegistry, services: ProfileServices): Promise<void> {
  for (const url of [MANIFEST, SUBMIT]) app.options(url, { config: { cors: 'profile' }, onRequest: ctx.guard }, preflightHandler(ctx.cors));

  app.get<{ Params: { profile: string }; Querystring: Record<string, unknown> }>(MANIFEST, { config: { cors: 'profile' }, schema: profileManifestSchema }, async (request, reply) => {
    ctx.guard.check(request, reply);
    const profile = profiles.resolve(request.params.profile);
    const query = request.query ?? {};
    // issue #34: `?site=` as on the plain manifest; an unknown one answers 404 SITE_NOT_FOUND.
    const site = ctx.sites.resolve(siteOfQuery(query));
    const access = await authorizeProfile(services, profile, {
      properties: queryPropertyEntries(query),
      authorization: header(request, 'authorization'),
      token: query['token'],
      purpose: 'manifest',
    });
    const { fillTimestamps, now } = ctx.submit;
    const personal = profile.config.requiresAuth || profile.config.requiresSignedToken;
    // contract §9: the header and the body's `cache` block say the same thing (profile-cache.ts).
    const cache = profileCachePolicy(profile.config.cache, personal);
    // The site's translated form and its manifest, cached per site as the plain manifest's are.
    const form = ctx.localize(profile.form, site.language);
    const manifest = ctx.manifests.get(form, site);
    const input = { profile: profile.name, properties: access.properties, context: access.context, cache: cache.block };
    const etag = profileManifestEtag(manifest.etag, input);
    reply.header('Cache-Control', cache.header).header('ETag', etag);
    if (personal) reply.header('Vary', 'Authorization');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    // A view (issue #38) is a manifest a client does not hold yet; a 304 is a reload.
    ctx.manifests.view(form, site);
    const data = buildProfileManifest(manifest, () => fillTimestamps.issue(form, now().getTime()), input);
    return reply.type('application/json; charset=utf-8').send({ success: true, data, meta: { pluginVersion: SERVICE_VERSION } });
  });

  app.post<{ Params: { profile: string }; Querystring: Record<string, unknown> }>(
    SUBMIT,
    { config: { cors: 'profile' }, onRequest: withLimit(ctx.guard, ctx.limits.submit), schema: profileSubmitSchema },
    async (request, reply) => {
      const profile = profiles.resolve(request.params.profile);
      if (!profile.config.allowSubmit) throw new SvcError('PROFILE_FORBIDDEN', 'This profile does not accept submissions.');
      let body: unknown = request.body;
      let uploads: SubmitInput['uploads'];
      const gate = createCsrfGate(ctx, request);
      if (request.isMultipart()) ({ body, uploads } = await readMultipartSubmit(ctx, profile.form, request, gate));
      if (!isRecord(body)) throw new SvcError('PAYLOAD_INVALID', 'The body must be a JSON object.');
      const context = isRecord(body['context']) ? body['context'] : {};
      const rawProperties = body['properties'] ?? {};
      if (!isRecord(rawProperties)) throw new SvcError('PROFILE_PROPERTY_INVALID', '`properties` must be an object.');
      const browser = readBrowserBinding(request, ctx.config.csrf);
      const submitRequest = parseSubmitRequest(body);
      // issue #34: `context.site` first, then `?site=`, as the plain submit reads them.
      const site = ctx.sites.resolve(submitRequest.context.site ?? siteOfQuery(request.query));
      const result = await submitThroughProfile(ctx.submit, services, profile, {
        request: submitRequest,
        site,
        properties: Object.entries(rawProperties),
        authorization: header(request, 'authorization'),
        token: context['token'] ?? request.query?.['token'],
        csrf: gate.verified ? 'trusted' : { binding: readCookie(request, ctx.config.csrf.cookieName), token: header(request, 'x-csrf-token') },
        ip: request.ip,
        // contract §4 as on the plain submit: the header, else `meta.idempotencyKey`.
        idempotencyKey: readIdempotencyKey(request),
        ...(uploads ? { uploads } : {}),
        ...(browser ? { browser } : {}),
      });
      return reply.code(result.httpStatus).header('Cache-Control', 'no-store').send(result.body);
    },
  );
}
