/**
 * `/healthz` (the process is alive and answering) and `/readyz` (it can serve forms: database,
 * forms, Redis when configured, file store), for load balancers and orchestrators (issue #16).
 * `/health` stays as the older name of `/healthz`. Neither says more than which part is down.
 */
import type { FastifyInstance } from 'fastify';
import { createReadiness, type ReadinessDeps } from './health-checks.js';
import { legacyLivenessSchema, livenessSchema, readinessSchema } from './health-schemas.js';

export async function registerHealth(app: FastifyInstance, deps: ReadinessDeps): Promise<void> {
  const readiness = createReadiness(deps);
  const started = deps.now().getTime();
  const alive = async (request: { id: string }, reply: { header(name: string, value: string): unknown }) => {
    reply.header('X-Request-Id', request.id);
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok', uptimeSeconds: Math.round((deps.now().getTime() - started) / 1000) };
  };
  app.get('/healthz', { schema: livenessSchema }, alive);
  app.get('/health', { schema: legacyLivenessSchema }, alive);
  app.get('/readyz', { schema: readinessSchema }, async (request, reply) => {
    const { ready, checks } = await readiness();
    // Which part is down, never why in detail: the cause goes to the log.
    const shown = Object.fromEntries(Object.entries(checks).map(([name, check]) => [name, check.ok ? 'ok' : 'failing']));
    if (!ready) request.log.warn({ checks }, 'not ready');
    return reply.code(ready ? 200 : 503).header('X-Request-Id', request.id).header('Cache-Control', 'no-store').send({ status: ready ? 'ready' : 'not_ready', checks: shown });
  });
}
