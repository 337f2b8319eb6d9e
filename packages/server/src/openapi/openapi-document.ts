/**
 * How @fastify/swagger turns the route schemas into the OpenAPI 3.1 document: the info block,
 * `servers` from `server.publicUrl` (nothing guessed from a request, so the document is the same
 * for every caller and can be cached and committed), the admin and metrics bearer schemes, and
 * the exclusions of openapi-exclusions.ts.
 */
import type { SwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config/config-schema.js';
import { SERVICE_VERSION } from '../version.js';
import { isExcludedRoute } from './openapi-exclusions.js';

const DESCRIPTION = [
  'The REST interface of svc, a self-hosted headless form service. Every refusal is the JSON body',
  '`{success: false, code, message, errors?}` with a code of the error catalogue; the codes each',
  'status may carry are listed with it. GraphQL (`/graphql`) is described by its own SDL',
  '(`svc graphql schema`), not here.',
].join(' ');

export function swaggerOptions(config: Config): SwaggerOptions {
  const publicUrl = config.server.publicUrl?.replace(/\/$/, '') ?? null;
  return {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'svc', version: SERVICE_VERSION, description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
      ...(publicUrl ? { servers: [{ url: publicUrl }] } : {}),
      components: {
        securitySchemes: {
          adminKey: { type: 'http', scheme: 'bearer', description: 'An admin API key (admin.keys), sent as `Authorization: Bearer svc_…`.' },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'The metrics bearer token whose SHA-256 is metrics.tokenSha256.' },
        },
      },
      tags: [
        { name: 'forms', description: 'Manifests, submits and drafts (contract §2, §4, §5)' },
        { name: 'security', description: 'CSRF tokens (contract §3)' },
        { name: 'files', description: 'Drag-and-drop uploads (contract §7)' },
        { name: 'payments', description: 'Stripe payments (contract §8)' },
        { name: 'profiles', description: 'Contextual manifests and submits (contract §9)' },
        { name: 'classic', description: 'Form-properties JSON and the classic form post (contract §10)' },
        { name: 'admin', description: 'The admin API for servers and scripts' },
        { name: 'privacy', description: 'The public key of erasure receipts (docs/privacy.md)' },
        { name: 'operations', description: 'Health and metrics' },
        { name: 'meta', description: 'This document' },
      ],
    },
    // Components are named by their $id (Error400, Manifest, SubmitObject), not def-0, def-1.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // HEAD mirrors every GET; documenting it twice says nothing new.
    exposeHeadRoutes: false,
    transform: ({ schema, url, route }) => {
      if (isExcludedRoute(route.method, url, [config.hosted.prefix])) return { schema: { ...(schema ?? {}), hide: true }, url };
      return { schema, url };
    },
  };
}
