/**
 * `/metrics` (issue #16): on the main port behind a bearer token whose SHA-256 is in config, or on
 * a port of its own without one. The request-duration hook is installed before any route, so
 * every route is timed under its pattern (never its raw URL, which would make labels unbounded).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { SvcError } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import { safeEqual, sha256 } from '../security/token-crypto.js';
import type { Metrics } from './metrics-registry.js';
import { metricsSchema } from './metrics-schemas.js';

/** Times every request; call right after the app is made. */
export function installRequestTiming(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

function bearerOf(header: string | undefined): string | null {
  const match = header ? /^Bearer\s+([\x21-\x7e]{16,512})$/i.exec(header.trim()) : null;
  return match?.[1] ?? null;
}

/** The /metrics route on the main app (token) and/or a separate listener; returns its closer. */
export async function registerMetrics(app: FastifyInstance, config: Config['metrics'], host: string, metrics: Metrics): Promise<() => Promise<void>> {
  if (!config.enabled) return async () => undefined;
  if (!config.tokenSha256 && config.port === null) {
    throw new Error('metrics.enabled needs metrics.tokenSha256 (a bearer token on the main port) or metrics.port (a port of its own).');
  }
  const answer = async () => ({ type: metrics.registry.contentType, body: await metrics.registry.metrics() });
  if (config.tokenSha256) {
    const digest = config.tokenSha256;
    app.get('/metrics', { schema: metricsSchema }, async (request, reply) => {
      const token = bearerOf(request.headers.authorization);
      if (!token || !safeEqual(sha256(token), digest)) throw new SvcError('AUTH_REQUIRED', 'Send the metrics bearer token.', { headers: { 'WWW-Authenticate': 'Bearer realm="svc-metrics"' } });
      const { type, body } = await answer();
      return reply.header('Cache-Control', 'no-store').type(type).send(body);
    });
  }
  if (config.port === null) return async () => undefined;
  const side = Fastify({ logger: false });
  side.get('/metrics', async (_request, reply) => {
    const { type, body } = await answer();
    return reply.header('Cache-Control', 'no-store').type(type).send(body);
  });
  await side.listen({ port: config.port, host });
  return () => side.close();
}
