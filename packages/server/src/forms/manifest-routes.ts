/** GET /svc/api/forms/{handle}/manifest (interface.md §4.1, contract §2). */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { resolveHeadlessForm } from '../http/form-access.js';
import { MANIFEST_MAX_AGE, manifestBytes } from './manifest-builder.js';
import { manifestSchema } from './manifest-schemas.js';
import { siteOfQuery } from '../sites/site-registry.js';

/** Whether an If-None-Match header names `etag` (also used by the profile manifest). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

export async function manifestRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { handle: string } }>(
    '/svc/api/forms/:handle/manifest',
    { config: { cors: 'form' }, schema: manifestSchema },
    async (request, reply) => {
      ctx.guard.check(request, reply);
      const found = resolveHeadlessForm(ctx, request.params.handle, 'manifest');
      const site = ctx.sites.resolve(siteOfQuery(request.query));
      const form = ctx.localize(found, site.language);
      const manifest = ctx.manifests.get(form, site);
      reply.header('Cache-Control', `public, max-age=${MANIFEST_MAX_AGE}`).header('ETag', manifest.etag);
      // A client that sends the ETag already holds this manifest (a reload): not a view again.
      if (matchesEtag(request.headers['if-none-match'], manifest.etag)) return reply.code(304).send();
      // One clock reading for the view and the fill timestamp: this is svc's hottest route.
      const at = ctx.submit.now();
      ctx.manifests.view(form, site, at);
      return reply.type('application/json; charset=utf-8').send(manifestBytes(manifest, () => ctx.submit.fillTimestamps.issue(form, at.getTime())));
    },
  );
}
