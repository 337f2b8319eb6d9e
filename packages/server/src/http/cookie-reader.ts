/** Reads one cookie on demand (cookie parsing is off globally; see app.ts). */
import type { FastifyRequest } from 'fastify';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return request.server.parseCookie(header)[name];
}
