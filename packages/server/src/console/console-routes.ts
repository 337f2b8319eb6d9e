/**
 * The console's door (issue #15): sign-in with a console user or an admin API key, sign-out, the
 * forms overview, and the list of route modules that draw the rest. Every module takes the kit
 * (console-kit.ts): the session check, the guarded writer, page headers and the admin services.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SvcError } from '@svc/core';
import type { AppContext } from '../http/app-context.js';
import { readCookie } from '../http/cookie-reader.js';
import { formActivity, listForms } from '../admin/admin-service.js';
import { recordSignIn } from '../admin/admin-writes.js';
import type { RateLimitStore } from '../security/rate-limit-store.js';
import { CONSOLE_EXPORT_JS } from './console-export-script.js';
import { hmac, deriveKey, randomToken, safeEqual } from '../security/token-crypto.js';
import { attemptAccount, createLockout } from './console-lockout.js';
import { CONSOLE_BASE, CONSOLE_CSS, renderForms, renderSignIn } from './console-pages.js';
import { verifyPassword } from './console-passwords.js';
import { credentialFingerprint, type ConsoleAccount } from './console-sessions.js';
import { createConsoleKit, pageHeaders, serveAsset, SESSION_COOKIE, type ConsoleKit, type Entries } from './console-kit.js';
import { consoleSubmissionRoutes } from './console-submission-routes.js';
import { consoleLogRoutes } from './console-log-routes.js';
import { consoleInsightsRoutes } from './console-insights-routes.js';
import { consoleEditRoutes } from './console-edit-routes.js';
import { consoleNotesRoutes } from './console-notes-routes.js';
import { consoleFilesRoutes } from './console-files-routes.js';
import { consoleBulkRoutes } from './console-bulk-routes.js';
import { consoleSpamRoutes } from './console-spam-routes.js';
import { consolePrivacyRoutes } from './console-privacy-routes.js';
import { consoleFlashRoutes } from './console-flash.js';
import { consoleReportsRoutes } from './console-reports-routes.js';
import { consoleFiltersRoutes } from './console-filters-routes.js';
import { consoleHelpRoutes } from './console-help-routes.js';
import { consoleShareRoutes } from './console-share-routes.js';

const PRE_COOKIE = 'svc_console_pre';
const WRONG = 'The username and password (or the API key) did not match.';

/** The console's route modules, registered in this order inside the console's scope. */
const MODULES: readonly ((scope: FastifyInstance, kit: ConsoleKit) => Promise<void>)[] = [
  consoleFlashRoutes,
  consoleSubmissionRoutes,
  consoleLogRoutes,
  consoleInsightsRoutes,
  consoleEditRoutes,
  consoleNotesRoutes,
  consoleFilesRoutes,
  consoleReportsRoutes,
  consoleFiltersRoutes,
  consoleHelpRoutes,
  consoleBulkRoutes,
  consoleSpamRoutes,
  consolePrivacyRoutes,
  consoleShareRoutes,
];

function cookie(name: string, value: string, secure: boolean, maxAgeSeconds: number | null): string {
  const age = maxAgeSeconds === null ? '' : `; Max-Age=${maxAgeSeconds}`;
  return `${name}=${value}; Path=${CONSOLE_BASE}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}${age}`;
}

export interface ConsoleDeps {
  readonly secret: string;
  /** The rate limiter's store (Redis when configured): the sign-in lockout counts there. */
  readonly counters: RateLimitStore;
}

export async function consoleRoutes(app: FastifyInstance, ctx: AppContext, deps: ConsoleDeps): Promise<void> {
  const { config } = ctx;
  const kit = createConsoleKit(ctx, deps.secret);
  const { keys, services, sessions, now, signedIn, assertSameOrigin } = kit;
  const lockout = createLockout(deps.counters);
  const preKey = deriveKey(deps.secret, 'console-pre-session');
  const secure = (request: FastifyRequest) => request.protocol === 'https' || (config.server.publicUrl ?? '').startsWith('https:');

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

    serveAsset(scope, 'console.css', 'text/css', CONSOLE_CSS);
    serveAsset(scope, 'console-export.js', 'text/javascript', CONSOLE_EXPORT_JS);
    scope.get(CONSOLE_BASE, async (_request, reply) => reply.redirect(`${CONSOLE_BASE}/`, 303));

    scope.get(`${CONSOLE_BASE}/`, async (request, reply) => {
      const current = await signedIn(request);
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
      return pageHeaders(reply).send(renderForms(rows, current.viewer));
    });

    scope.get(`${CONSOLE_BASE}/sign-in`, async (request, reply) => signInPage(request, reply, 200, null));

    for (const register of MODULES) await register(scope, kit);

    scope.post<{ Body: Entries }>(`${CONSOLE_BASE}/sign-in`, async (request, reply) => {
      assertSameOrigin(request);
      const body = (request.body ?? {}) as Entries;
      const pre = readCookie(request, PRE_COOKIE);
      if (!pre || typeof body['csrf'] !== 'string' || !safeEqual(body['csrf'], hmac(preKey, pre))) return signInPage(request, reply, 400, 'The sign-in form expired; please try again.');
      const username = typeof body['username'] === 'string' ? body['username'].slice(0, 64) : '';
      const apiKey = typeof body['apiKey'] === 'string' ? body['apiKey'] : '';
      const attempt = { ip: request.ip, account: attemptAccount({ username, apiKey }) };
      // Fail closed, as the rate limits do: a store outage must not lift (or forget) the lockout.
      const counted = <T>(work: Promise<T>) => work.catch((error: unknown): never => {
        request.log.error({ err: error }, 'sign-in lockout store unavailable');
        throw new SvcError('SERVICE_UNAVAILABLE', 'Sign-in cannot be checked right now; please retry shortly.', { headers: { 'Retry-After': '5' } });
      });
      // The attempt is counted before the credential is checked (issue #32), so requests sent at
      // once cannot all be checked against a count none of them has added to yet.
      const delay = await counted(lockout.reserve(attempt));
      if (delay === null) return signInPage(request, reply.header('Retry-After', '900'), 429, 'Too many failed sign-ins; try again in 15 minutes.', username);
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      let account: ConsoleAccount | null = null;
      if (apiKey) {
        try {
          const key = keys.account('key', keys.authenticate(`Bearer ${apiKey}`).name);
          if (key) account = { kind: 'key', name: key.principal.name, credential: credentialFingerprint(key.credential) };
        } catch {
          account = null;
        }
      } else {
        const user = keys.account('user', username);
        // A missing user costs the same scrypt as a wrong password: timing says nothing of who exists.
        const ok = await verifyPassword(typeof body['password'] === 'string' ? body['password'] : '', user?.credential ?? DUMMY_HASH);
        if (user && ok) account = { kind: 'user', name: user.principal.name, credential: credentialFingerprint(user.credential) };
      }
      if (!account) {
        request.log.info({ account: apiKey ? 'api-key' : username }, 'console sign-in failed');
        return signInPage(request, reply, 401, WRONG, username);
      }
      await counted(lockout.succeeded(attempt));
      const principal = keys.account(account.kind, account.name)?.principal;
      // Audited before the session exists: a sign-in that cannot be recorded leaves no session.
      if (principal) await recordSignIn(services, principal, { actor: `${account.kind}:${account.name}`, ip: request.ip });
      const { cookie: sessionId } = await sessions.start(account, now());
      reply.header('Set-Cookie', [cookie(SESSION_COOKIE, sessionId, secure(request), null), cookie(PRE_COOKIE, '', secure(request), 0)]);
      return reply.redirect(`${CONSOLE_BASE}/`, 303);
    });

    scope.post<{ Body: Entries }>(`${CONSOLE_BASE}/sign-out`, async (request, reply) => {
      assertSameOrigin(request);
      const session = await sessions.open(readCookie(request, SESSION_COOKIE), now());
      const body = (request.body ?? {}) as Entries;
      if (session && (typeof body['csrf'] !== 'string' || !safeEqual(body['csrf'], sessions.csrf(session)))) throw new SvcError('CSRF_INVALID');
      // The row goes, so a copy of the cookie taken before is refused from now on (issue #32).
      if (session) await sessions.end(session);
      reply.header('Set-Cookie', cookie(SESSION_COOKIE, '', secure(request), 0));
      return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
    });
  });
}

/** A valid hash of a random password, checked against when the username does not exist. */
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
