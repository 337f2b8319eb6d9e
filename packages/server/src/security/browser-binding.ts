/**
 * The browser binding: a random value (128 bits) in an HttpOnly cookie. CSRF tokens are HMACs
 * over it (contract §3), and drag-and-drop uploads remember a hash of it, so the browser that
 * uploaded a file may submit it without naming its upload token, as the official client does
 * (contract §7). Whoever sets it, `/svc/tokens`, GraphQL or an upload, sets it the same way.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config/config-schema.js';
import { appendSetCookie, readCookie } from '../http/cookie-reader.js';
import { randomToken, sha256 } from './token-crypto.js';
import { memoized } from './bounded-memo.js';

const BINDING = /^[A-Za-z0-9_-]{22}$/;

export function isBrowserBinding(value: string | undefined): value is string {
  return typeof value === 'string' && BINDING.test(value);
}

export function newBrowserBinding(): string {
  return randomToken(16);
}

/** The request's well-formed binding cookie, or undefined. */
export function readBrowserBinding(request: FastifyRequest, settings: Config['csrf']): string | undefined {
  const value = readCookie(request, settings.cookieName);
  return isBrowserBinding(value) ? value : undefined;
}

/** The request's binding, or a new one set on the reply. */
export function ensureBrowserBinding(request: FastifyRequest, reply: FastifyReply, settings: Config['csrf']): string {
  const existing = readBrowserBinding(request, settings);
  if (existing) return existing;
  const binding = newBrowserBinding();
  appendSetCookie(reply, {
    name: settings.cookieName,
    value: binding,
    path: '/',
    httpOnly: true,
    sameSite: settings.sameSite,
    // SameSite=None is only honoured on Secure cookies.
    secure: request.protocol === 'https' || settings.sameSite === 'none',
    maxAge: settings.ttlMinutes * 60,
  });
  return binding;
}

/** What an upload row keeps of the binding: never the cookie value itself. */
export function browserBindingHash(binding: string | undefined): string | null {
  return binding ? bindingHash(binding) : null;
}

// A browser sends its cookie with every upload and submit: hashed once while the memo holds it.
const bindingHash = memoized(4096, (binding) => sha256(`browser:${binding}`));
