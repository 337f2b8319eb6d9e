/**
 * The readable reference at /svc/api/docs (issue #16), drawn by @scalar/fastify-api-reference from
 * /svc/api/openapi.json. It works offline: the plugin serves its bundled script itself
 * (`/svc/api/docs/js/scalar.js`, loaded through a relative `cdn` path, never a CDN URL), fonts are
 * not fetched, and the page's Content-Security-Policy lets it load nothing from anywhere else.
 * The one inline script (the plugin's start-up call) is allowed by its hash, computed from the page
 * as sent, so the policy follows the plugin's output instead of trusting every inline script.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import scalar from '@scalar/fastify-api-reference';
import { SvcError } from '@svc/core';
import { DOCS_PATH, OPENAPI_PATH } from './openapi-exclusions.js';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** CSP for the page: its own origin only; the inline start-up script by hash; styles inline (the bundle injects them). */
export function docsPagePolicy(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(([, code]) => `'sha256-${createHash('sha256').update(code ?? '').digest('base64')}'`);
  return [
    "default-src 'none'",
    `script-src 'self' ${hashes.join(' ')}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** `headlessEnabled`: the page lives under /svc/api/ and goes with the headless master switch (contract §1). */
export async function registerDocsPage(app: FastifyInstance, headlessEnabled: boolean): Promise<void> {
  // A scope of its own: the policy and caching below apply to the reference routes only.
  await app.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      const type = String(reply.getHeader('content-type') ?? '');
      if (type.startsWith('text/html') && typeof payload === 'string') {
        reply.header('Content-Security-Policy', docsPagePolicy(payload)).header('Cache-Control', 'public, max-age=300');
      } else if (type.includes('javascript')) {
        reply.header('Cache-Control', 'public, max-age=86400').header('X-Content-Type-Options', 'nosniff');
      }
      return payload;
    });
    await scope.register(scalar, {
      routePrefix: DOCS_PATH,
      logLevel: 'warn',
      hooks: {
        onRequest: async () => {
          if (!headlessEnabled) throw new SvcError('HEADLESS_DISABLED');
        },
      },
      configuration: {
        url: OPENAPI_PATH,
        pageTitle: 'svc API reference',
        // Offline and self-contained: no web fonts, and none of the controls that reach Scalar's
        // online services (its API client, AI agent, MCP generator, developer toolbar).
        withDefaultFonts: false,
        hideClientButton: true,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
      },
    });
  });
}
