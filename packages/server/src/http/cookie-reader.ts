/**
 * Cookies, read on demand and written by appending: the `cookie` package (jshttp, what
 * @fastify/cookie wraps) used directly, because the plugin adds an onSend hook to every reply of
 * the app, and with any onSend hook fastify runs its hook runner on every answer, the manifest's
 * included (issue #31 item 14). Two routes set a cookie; every route paid for it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookie, stringifySetCookie, type SetCookie } from 'cookie';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return parseCookie(header)[name];
}

/** Adds a Set-Cookie line to the reply, keeping any set before it. */
export function appendSetCookie(reply: FastifyReply, cookie: SetCookie): void {
  const line = stringifySetCookie(cookie);
  const present = reply.getHeader('set-cookie');
  const list = present === undefined ? [] : Array.isArray(present) ? present.map(String) : [String(present)];
  reply.header('set-cookie', list.length === 0 ? line : [...list, line]);
}
