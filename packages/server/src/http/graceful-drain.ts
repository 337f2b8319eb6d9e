/**
 * Stopping without dropping requests (issue #16). Node's `server.close()` also closes idle
 * keep-alive sockets, and a client may be writing its next request onto one at that instant: it
 * sees a reset for a request it cannot know was not taken. Draining stops accepting connections
 * but leaves open sockets to their clients: every answer from then on says `Connection: close`,
 * so each client closes its socket after its last answer; sockets still open at the deadline are
 * left to the close that follows.
 */
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Returns `drain(maxMs)`. Nothing runs per request until it is called: the `Connection: close`
 * listener is put in front of fastify's only then (a hook would cost every request, always).
 *
 * @example
 * const drain = installDrain(app);
 * process.once('SIGTERM', async () => { await drain(5000); await app.close(); });
 */
export function installDrain(app: FastifyInstance): (maxMs: number) => Promise<void> {
  return async (maxMs) => {
    const server = app.server;
    if (!server.listening) return;
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      response.setHeader('Connection', 'close');
    });
    const closeIdle = server.closeIdleConnections.bind(server);
    server.closeIdleConnections = () => undefined;
    try {
      // close()'s callback runs once every connection has ended.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, maxMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    } finally {
      server.closeIdleConnections = closeIdle;
    }
  };
}
