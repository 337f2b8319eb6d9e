/**
 * Answers for the hosted pages' files (theme stylesheets, element bundles): an ETag from the
 * content, and 304 when the browser already has it.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A strong ETag of `body`. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

export function sendCached(request: FastifyRequest, reply: FastifyReply, type: string, body: string, cacheControl: string, etag = etagOf(body)): FastifyReply {
  reply.header('ETag', etag).header('Cache-Control', cacheControl).header('X-Content-Type-Options', 'nosniff');
  const asked = request.headers['if-none-match'];
  if (typeof asked === 'string' && asked.split(',').some((tag) => tag.trim() === etag)) return reply.code(304).send();
  return reply.type(type).send(body);
}
