/**
 * The console's routes (issue #15): sign-in with a console user or an admin API key, sign-out,
 * and the forms overview; thin over the admin services, with the scopes API keys have. Pages are
 * server-drawn with one stylesheet and a Content-Security-Policy that allows nothing inline.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { readCookie } from '../http/cookie-reader.js';
import { createAdminKeys, type AdminKey } from '../admin/admin-keys.js';
import { createAdminServices } from '../admin/admin-http.js';
import { formActivity, listForms } from '../admin/admin-service.js';
import { hmac, deriveKey, randomToken, safeEqual } from '../security/token-crypto.js';
import { createLockout } from './console-lockout.js';
import { CONSOLE_BASE, CONSOLE_CSS, renderForms, renderSignIn } from './console-pages.js';
import { verifyPassword } from './console-passwords.js';
import { createConsoleSessions, credentialFingerprint, type ConsoleSession } from './console-sessions.js';

const SESSION_COOKIE = 'svc_console';
const PRE_COOKIE = 'svc_console_pre';
const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const WRONG = 'The username and password (or the API key) did not match.';

type Entries = Readonly<Record<string, string>>;

function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CSP)
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'same-origin')
    .type('text/html; charset=utf-8');
}

function cookie(name: string, value: string, secure: boolean, maxAgeSeconds: number | null): string {
  const age = maxAgeSeconds === null ? '' : `; Max-Age=${maxAgeSeconds}`;
  return `${name}=${value}; Path=${CONSOLE_BASE}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}${age}`;
}

export async function consoleRoutes(app: FastifyInstance, ctx: AppContext, secret: string): Promise<void> {
  const { config } = ctx;
  const keys = createAdminKeys(config);
  const services = createAdminServices(ctx);
  const sessions = createConsoleSessions(secret, { idleMs: config.console.sessionIdleMinutes * 60_000, maxMs: config.console.sessionMaxHours * 3_600_000 });
  const lockout = createLockout();
  const preKey = deriveKey(secret, 'console-pre-session');
  const now = () => ctx.submit.now().getTime();
  const secure = (request: FastifyRequest) => request.protocol === 'https' || (config.server.publicUrl ?? '').startsWith('https:');

  /** The principal a session stands for now: its user or key must still exist with the same credential. */
  const principalOf = (session: ConsoleSession): AdminKey | null => {
    if (session.kind === 'user') {
      const user = config.admin.users.find((u) => u.username === session.name);
      if (!user || credentialFingerprint(user.passwordHash) !== session.credential) return null;
      const all = user.forms.includes('*');
      return { name: user.username, canRead: (handle) => all || user.forms.includes(handle), canWrite: user.scopes.includes('write'), allForms: all };
    }
    const key = config.admin.keys.find((k) => k.name === session.name);
    if (!key || credentialFingerprint(key.sha256) !== session.credential) return null;
    const all = key.forms.includes('*');
    return { name: key.name, canRead: (handle) => all || key.forms.includes(handle), canWrite: key.scopes.includes('write'), allForms: all };
  };

  /** The signed-in principal, with the session's idle clock moved on; null when there is none. */
  const signedIn = (request: FastifyRequest, reply: FastifyReply) => {
    const session = sessions.open(readCookie(request, SESSION_COOKIE), now());
    const principal = session && principalOf(session);
    if (!session || !principal) return null;
    const renewed = { ...session, seenAt: now() };
    reply.header('Set-Cookie', cookie(SESSION_COOKIE, sessions.seal(renewed), secure(request), null));
    return { session: renewed, principal };
  };

  /** A browser's POST comes from this console's own pages: SameSite=Strict cookies, and the Origin if sent. */
  const assertSameOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin && origin !== 'null' && !ctx.cors.isSameOrigin(request, origin)) throw new SvcError('ORIGIN_NOT_ALLOWED');
  };

  const signInPage = (request: FastifyRequest, reply: FastifyReply, status: number, error: string | null, username = '') => {
    const pre = readCookie(request, PRE_COOKIE);
    const value = pre && /^[A-Za-z0-9_-]{22}$/.test(pre) ? pre : randomToken(16);
    reply.header('Set-Cookie', cookie(PRE_COOKIE, value, secure(request), 3600));
    return pageHeaders(reply.code(status)).send(renderSignIn({ error, csrf: hmac(preKey, value), username }));
  };

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });

    scope.get(`${CONSOLE_BASE}/console.css`, async (_request, reply) => reply.header('Cache-Control', 'public, max-age=300').type('text/css; charset=utf-8').send(CONSOLE_CSS));
    scope.get(CONSOLE_BASE, async (_request, reply) => reply.redirect(`${CONSOLE_BASE}/`, 303));

    scope.get(`${CONSOLE_BASE}/`, async (request, reply) => {
      const current = signedIn(request, reply);
      if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
      const [summaries, activity] = await Promise.all([listForms(services, current.principal), formActivity(services, current.principal)]);
      const byHandle = new Map(activity.map((a) => [a.handle, a]));
      const rows = summaries.map((form) => ({
        handle: form.handle,
        name: form.name,
        total: form.submissions.total,
        spam: form.submissions.spam,
        last: byHandle.get(form.handle)?.last ?? null,
        days: byHandle.get(form.handle)?.days ?? [],
      }));
      return pageHeaders(reply).send(renderForms(rows, { name: current.principal.name, csrf: sessions.csrf(current.session) }));
    });

    scope.get(`${CONSOLE_BASE}/sign-in`, async (request, reply) => signInPage(request, reply, 200, null));

    scope.post<{ Body: Entries }>(`${CONSOLE_BASE}/sign-in`, async (request, reply) => {
      assertSameOrigin(request);
      const body = (request.body ?? {}) as Entries;
      const pre = readCookie(request, PRE_COOKIE);
      if (!pre || typeof body['csrf'] !== 'string' || !safeEqual(body['csrf'], hmac(preKey, pre))) return signInPage(request, reply, 400, 'The sign-in form expired; please try again.');
      const username = typeof body['username'] === 'string' ? body['username'].slice(0, 64) : '';
      const apiKey = typeof body['apiKey'] === 'string' ? body['apiKey'] : '';
      const account = apiKey ? 'api-key' : `user:${username}`;
      const delay = lockout.check(account, request.ip, now());
      if (delay === null) return signInPage(request, reply.header('Retry-After', '900'), 429, 'Too many failed sign-ins; try again in 15 minutes.', username);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      let session: ConsoleSession | null = null;
      if (apiKey) {
        try {
          const key = keys.authenticate(`Bearer ${apiKey}`);
          const configured = config.admin.keys.find((k) => k.name === key.name);
          if (configured) session = { kind: 'key', name: key.name, credential: credentialFingerprint(configured.sha256), issuedAt: now(), seenAt: now() };
        } catch {
          session = null;
        }
      } else {
        const user = config.admin.users.find((u) => u.username === username);
        // A missing user costs the same scrypt as a wrong password: timing says nothing of who exists.
        const ok = await verifyPassword(typeof body['password'] === 'string' ? body['password'] : '', user?.passwordHash ?? DUMMY_HASH);
        if (user && ok) session = { kind: 'user', name: user.username, credential: credentialFingerprint(user.passwordHash), issuedAt: now(), seenAt: now() };
      }
      if (!session) {
        lockout.failed(account, request.ip, now());
        request.log.info({ account: apiKey ? 'api-key' : username }, 'console sign-in failed');
        return signInPage(request, reply, 401, WRONG, username);
      }
      lockout.succeeded(account);
      reply.header('Set-Cookie', [cookie(SESSION_COOKIE, sessions.seal(session), secure(request), null), cookie(PRE_COOKIE, '', secure(request), 0)]);
      return reply.redirect(`${CONSOLE_BASE}/`, 303);
    });

    scope.post<{ Body: Entries }>(`${CONSOLE_BASE}/sign-out`, async (request, reply) => {
      assertSameOrigin(request);
      const session = sessions.open(readCookie(request, SESSION_COOKIE), now());
      const body = (request.body ?? {}) as Entries;
      if (session && (typeof body['csrf'] !== 'string' || !safeEqual(body['csrf'], sessions.csrf(session)))) throw new SvcError('CSRF_INVALID');
      reply.header('Set-Cookie', cookie(SESSION_COOKIE, '', secure(request), 0));
      return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    });
  });
}

/** A valid hash of a random password, checked against when the username does not exist. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
