/**
 * What every console route module shares (issue #35): the session check, the guarded writer, the
 * page headers and the admin services. Each module (submissions, logs, bulk, notes, reports, …)
 * takes the kit and registers its own routes, so console-routes.ts stays the sign-in door and the
 * list of modules rather than one file every feature edits.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { readCookie } from '../http/cookie-reader.js';
import { escapeHtml } from '../http/html-page.js';
import { createAdminKeys, type AdminKey } from '../admin/admin-keys.js';
import { createAdminServices } from '../admin/admin-http.js';
import { safeEqual } from '../security/token-crypto.js';
import { CONSOLE_BASE, consolePage, type Viewer } from './console-pages.js';
import { createConsoleSessions, credentialFingerprint, type ConsoleSession } from './console-sessions.js';
import { consoleZone } from './console-time.js';

export const SESSION_COOKIE = 'svc_console';
// Scripts only as files from here; fetch only to here; images from here (signed file links, thumbnails).
const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** A form-encoded console post, parsed to strings (the console's only body type). */
export type Entries = Readonly<Record<string, string>>;

export type { Viewer };

/** Who changed something, as the audit log records it. */
export interface Actor {
  readonly actor: string;
  readonly ip: string;
}

export interface SignedIn {
  readonly session: ConsoleSession;
  readonly principal: AdminKey;
  readonly viewer: Viewer;
}

export type ConsoleKit = ReturnType<typeof createConsoleKit>;

/** The headers of every console page: nothing inline runs, nothing is cached, nothing is sniffed. */
export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CSP)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'same-origin')
    .type('text/html; charset=utf-8');
}

/** A script or stylesheet the console serves from a string: cached briefly, never sniffed. */
export function serveAsset(scope: FastifyInstance, name: string, type: 'text/css' | 'text/javascript', body: string): void {
  scope.get(`${CONSOLE_BASE}/${name}`, async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff').type(`${type}; charset=utf-8`).send(body));
}

export function createConsoleKit(ctx: AppContext, secret: string) {
  const { config } = ctx;
  const keys = createAdminKeys(config);
  const services = createAdminServices(ctx);
  const sessions = createConsoleSessions(ctx.database.db, secret, { idleMs: config.console.sessionIdleMinutes * 60_000, maxMs: config.console.sessionMaxHours * 3_600_000 });
  const now = () => ctx.submit.now().getTime();

  /**
   * The principal a session stands for now: its user or key must still exist with the same
   * credential. Scopes come from admin-keys.ts, the same rule the API's keys are judged by.
   */
  const principalOf = (session: ConsoleSession): AdminKey | null => {
    const account = keys.account(session.kind, session.name);
    return account && credentialFingerprint(account.credential) === session.credential ? account.principal : null;
  };

  /** The signed-in principal, with the session's idle clock moved on; null when there is none. */
  const signedIn = async (request: FastifyRequest): Promise<SignedIn | null> => {
    const session = await sessions.open(readCookie(request, SESSION_COOKIE), now());
    if (!session) return null;
    const principal = principalOf(session);
    // A changed password or a removed key: the session ends here, for every instance.
    if (!principal) {
      await sessions.end(session);
      return null;
    }
    return { session, principal, viewer: { name: principal.name, csrf: sessions.csrf(session), canWrite: principal.canWrite, canPrivacy: principal.canPrivacy, zone: consoleZone(ctx) } };
  };

  /** A browser's POST comes from this console's own pages: SameSite=Strict cookies, and the Origin if sent. */
  const assertSameOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin && origin !== 'null' && !ctx.cors.isSameOrigin(request, origin)) throw new SvcError('ORIGIN_NOT_ALLOWED');
  };

  /** A state-changing console request: signed in, same origin, the session's CSRF token, write scope. */
  const writer = async (request: FastifyRequest): Promise<SignedIn & { by: Actor }> => {
    assertSameOrigin(request);
    const current = await signedIn(request);
    if (!current) throw new SvcError('AUTH_REQUIRED', 'Sign in to the console again.');
    const token = ((request.body ?? {}) as Entries)['csrf'];
    if (typeof token !== 'string' || !safeEqual(token, current.viewer.csrf)) throw new SvcError('CSRF_INVALID');
    if (!current.principal.canWrite) throw new SvcError('ADMIN_FORBIDDEN', 'You may only read.');
    return { ...current, by: { actor: `${current.session.kind}:${current.session.name}`, ip: request.ip } };
  };

  const notFound = (reply: FastifyReply, message: string, viewer: Viewer) =>
    pageHeaders(reply.code(404)).send(consolePage('Not found · svc console', `<h1>Not found</h1><p>${escapeHtml(message)}</p><p><a href="${CONSOLE_BASE}/">All forms</a></p>`, viewer));

  return { ctx, config, keys, services, sessions, now, signedIn, writer, assertSameOrigin, notFound };
}
