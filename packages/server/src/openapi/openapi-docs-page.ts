/**
 * The readable reference at /svc/api/docs (issue #16), drawn by @scalar/fastify-api-reference from
 * /svc/api/openapi.json. It works offline: the plugin serves its bundled script itself
 * (`/svc/api/docs/js/scalar.js`, loaded through a relative `cdn` path, never a CDN URL), fonts are
 * not fetched, and the page's Content-Security-Policy lets it load nothing from anywhere else.
 * The one inline script (the plugin's start-up call) is allowed by its hash, computed from the page
 * as sent, so the policy follows the plugin's output instead of trusting every inline script.
 *
 * The plugin is loaded on the first request for the page, into a small fastify instance of its
 * own that these routes ask: its module carries the whole browser bundle as a string, 17 MB of
 * heap (28% of a started server's) that every instance held for a page people rarely open. A
 * smaller resting heap is also a smaller allowance V8 lets garbage grow to (issue #17's export
 * memory).
 */
import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
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
    const headless = async () => {
      if (!headlessEnabled) throw new SvcError('HEADLESS_DISABLED');
    };
    let reference: Promise<FastifyInstance> | null = null;
    const forward = async (request: FastifyRequest, reply: FastifyReply) => {
      reference ??= referenceApp().catch((error: unknown) => {
        reference = null;
        throw error;
      });
      const res = await (await reference).inject({ method: 'GET', url: request.url, headers: { host: request.headers.host ?? 'localhost' } });
      for (const name of ['content-type', 'location'] as const) {
        const value = res.headers[name];
        if (value !== undefined) reply.header(name, value);
      }
      return reply.code(res.statusCode).send(res.body);
    };
    for (const url of [DOCS_PATH, `${DOCS_PATH}/`, `${DOCS_PATH}/js/scalar.js`]) {
      scope.get(url, { onRequest: headless, logLevel: 'warn' }, forward);
    }
    scope.addHook('onClose', async () => {
      await (await reference?.catch(() => null))?.close();
    });
  });
}

/** The reference plugin in an instance of its own, answering the routes above through inject. */
async function referenceApp(): Promise<FastifyInstance> {
  const { default: scalar } = await import('@scalar/fastify-api-reference');
  const reference = Fastify({ logger: false });
  await reference.register(scalar, {
    routePrefix: DOCS_PATH,
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
  await reference.ready();
  return reference;
}
