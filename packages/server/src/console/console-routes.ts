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
import { countSubmissions, formActivity, getSubmission, listDeadDeliveries, listForms, listSubmissions } from '../admin/admin-service.js';
import { deleteSubmission, parseChange, recordSignIn, resendDelivery, startExport, updateSubmission } from '../admin/admin-writes.js';
import { parseExportQuery } from '../admin/admin-query.js';
import { attachmentDisposition } from '../admin/download-links.js';
import { listAudit } from '../admin/audit-log.js';
import { EXPORT_CONTENT_TYPES } from '../exports/export-stream.js';
import type { RateLimitStore } from '../security/rate-limit-store.js';
import { renderAudit, renderDeadLetters } from './console-log-pages.js';
import { baseUrl } from '../admin/admin-http.js';
import { parseListQuery } from '../admin/admin-query.js';
import { CONSOLE_EXPORT_JS } from './console-export-script.js';
import { escapeHtml } from '../http/html-page.js';
import { consolePage } from './console-pages.js';
import { renderSubmission, renderSubmissions } from './console-submission-pages.js';
import { hmac, deriveKey, randomToken, safeEqual } from '../security/token-crypto.js';
import { attemptAccount, createLockout } from './console-lockout.js';
import { CONSOLE_BASE, CONSOLE_CSS, renderForms, renderSignIn } from './console-pages.js';
import { verifyPassword } from './console-passwords.js';
import { createConsoleSessions, credentialFingerprint, type ConsoleAccount, type ConsoleSession } from './console-sessions.js';

const SESSION_COOKIE = 'svc_console';
const PRE_COOKIE = 'svc_console_pre';
// Scripts only as files from here (the export progress); fetch only to here.
const CSP = "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
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

export interface ConsoleDeps {
  readonly secret: string;
  /** The rate limiter's store (Redis when configured): the sign-in lockout counts there. */
  readonly counters: RateLimitStore;
}

export async function consoleRoutes(app: FastifyInstance, ctx: AppContext, deps: ConsoleDeps): Promise<void> {
  const { config } = ctx;
  const { secret } = deps;
  const keys = createAdminKeys(config);
  const services = createAdminServices(ctx);
  const sessions = createConsoleSessions(ctx.database.db, secret, { idleMs: config.console.sessionIdleMinutes * 60_000, maxMs: config.console.sessionMaxHours * 3_600_000 });
  const lockout = createLockout(deps.counters);
  const preKey = deriveKey(secret, 'console-pre-session');
  const now = () => ctx.submit.now().getTime();
  const secure = (request: FastifyRequest) => request.protocol === 'https' || (config.server.publicUrl ?? '').startsWith('https:');

  /**
   * The principal a session stands for now: its user or key must still exist with the same
   * credential. Scopes come from admin-keys.ts, the same rule the API's keys are judged by.
   */
  const principalOf = (session: ConsoleSession): AdminKey | null => {
    const account = keys.account(session.kind, session.name);
    return account && credentialFingerprint(account.credential) === session.credential ? account.principal : null;
  };

  /** The signed-in principal, with the session's idle clock moved on; null when there is none. */
  const signedIn = async (request: FastifyRequest) => {
    const session = await sessions.open(readCookie(request, SESSION_COOKIE), now());
    if (!session) return null;
    const principal = principalOf(session);
    // A changed password or a removed key: the session ends here, for every instance.
    if (!principal) await sessions.end(session);
    return principal ? { session, principal } : null;
  };

  const notFound = (reply: FastifyReply, message: string, name: string, csrf: string) =>
    pageHeaders(reply.code(404)).send(consolePage('Not found · svc console', `<h1>Not found</h1><p>${escapeHtml(message)}</p><p><a href="${CONSOLE_BASE}/">All forms</a></p>`, { name, csrf }));

  /** A state-changing console request: signed in, same origin, the session's CSRF token, write scope. */
  const writer = async (request: FastifyRequest) => {
    assertSameOrigin(request);
    const current = await signedIn(request);
    if (!current) throw new SvcError('AUTH_REQUIRED', 'Sign in to the console again.');
    const token = ((request.body ?? {}) as Entries)['csrf'];
    if (typeof token !== 'string' || !safeEqual(token, sessions.csrf(current.session))) throw new SvcError('CSRF_INVALID');
    if (!current.principal.canWrite) throw new SvcError('ADMIN_FORBIDDEN', 'You may only read.');
    return { principal: current.principal, by: { actor: `${current.session.kind}:${current.session.name}`, ip: request.ip } };
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
    scope.get(`${CONSOLE_BASE}/console-export.js`, async (_request, reply) => reply.header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff').type('text/javascript; charset=utf-8').send(CONSOLE_EXPORT_JS));
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
      return pageHeaders(reply).send(renderForms(rows, { name: current.principal.name, csrf: sessions.csrf(current.session) }));
    });

    scope.get(`${CONSOLE_BASE}/sign-in`, async (request, reply) => signInPage(request, reply, 200, null));

    scope.get<{ Params: { handle: string }; Querystring: Record<string, string | string[]> }>(`${CONSOLE_BASE}/forms/:handle`, async (request, reply) => {
      const current = await signedIn(request);
      if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
      const { principal, session } = current;
      const form = principal.canRead(request.params.handle) ? services.forms.get(request.params.handle) : undefined;
      if (!form) return notFound(reply, 'This form does not exist, or you may not see it.', principal.name, sessions.csrf(session));
      const raw = request.query ?? {};
      const first = (name: string) => (Array.isArray(raw[name]) ? (raw[name] as string[])[0] : (raw[name] as string | undefined)) ?? '';
      const shown: Record<string, string> = {};
      for (const name of ['status', 'spam', 'from', 'to', 'q', 'order']) if (first(name) !== '') shown[name] = first(name);
      const cursor = first('cursor');
      const query = parseListQuery({ ...shown, ...(shown['spam'] ? {} : { spam: 'false' }), ...(cursor ? { cursor } : {}), limit: '50' }, services.statuses);
      const wanted = new Set([raw['columns'] ?? []].flat());
      const inputs = form.fields.filter((f) => f.handle !== null && f.type !== 'submit');
      const columns = wanted.size > 0 ? inputs.filter((f) => wanted.has(f.handle as string)) : inputs.slice(0, 3);
      const [page, count] = await Promise.all([listSubmissions(services, principal, form.handle, query), countSubmissions(services, principal, form.handle, query.filter)]);
      const viewer = { name: principal.name, csrf: sessions.csrf(session), canWrite: principal.canWrite };
      return pageHeaders(reply).send(renderSubmissions({ form, items: page.items, count, columns, query: shown, nextCursor: page.nextCursor, statuses: services.statuses }, viewer));
    });

    scope.get<{ Params: { id: string } }>(`${CONSOLE_BASE}/submissions/:id`, async (request, reply) => {
      const current = await signedIn(request);
      if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
      const { principal, session } = current;
      const viewer = { name: principal.name, csrf: sessions.csrf(session), canWrite: principal.canWrite };
      try {
        const detail = await getSubmission(services, principal, request.params.id, baseUrl(ctx, request));
        const form = services.forms.get(detail.form.handle);
        if (!form) throw new SvcError('SUBMISSION_NOT_FOUND');
        return pageHeaders(reply).send(renderSubmission(detail, form, services.statuses, viewer));
      } catch (error) {
        if (error instanceof SvcError && error.code === 'SUBMISSION_NOT_FOUND') return notFound(reply, 'This submission does not exist any more (it may have been deleted), or you may not see it.', viewer.name, viewer.csrf);
        throw error;
      }
    });

    scope.get<{ Params: { handle: string }; Querystring: Record<string, string> }>(`${CONSOLE_BASE}/forms/:handle/export`, async (request, reply) => {
      const current = await signedIn(request);
      if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
      const { principal, session } = current;
      const raw = Object.fromEntries(Object.entries(request.query ?? {}).filter(([name, value]) => ['format', 'bom', 'status', 'spam', 'from', 'to', 'q', 'order'].includes(name) && value !== ''));
      const query = parseExportQuery({ spam: 'false', ...raw }, services.statuses);
      const { stream, filename } = await startExport(services, principal, request.params.handle, query, { actor: `${session.kind}:${session.name}`, ip: request.ip });
      stream.once('error', (error) => request.log.error({ err: error }, 'console export failed while streaming'));
      return reply
        .header('Content-Type', EXPORT_CONTENT_TYPES[query.format])
        .header('Content-Disposition', attachmentDisposition(filename))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .send(stream);
    });

    scope.get(`${CONSOLE_BASE}/deliveries`, async (request, reply) => {
      const current = await signedIn(request);
      if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
      const viewer = { name: current.principal.name, csrf: sessions.csrf(current.session), canWrite: current.principal.canWrite };
      return pageHeaders(reply).send(renderDeadLetters(await listDeadDeliveries(services, current.principal), viewer));
    });

    scope.post<{ Params: { id: string }; Body: Entries }>(`${CONSOLE_BASE}/deliveries/:id/resend`, async (request, reply) => {
      const { principal, by } = await writer(request);
      await resendDelivery(services, principal, request.params.id, by);
      // Back to the submission it was resent from, when that is where the button was; never elsewhere.
      const back = ((request.body ?? {}) as Entries)['back'];
      return reply.redirect(typeof back === 'string' && /^\/svc\/console\/submissions\/\d{1,15}$/.test(back) ? back : `${CONSOLE_BASE}/deliveries`, 303);
    });

    scope.get<{ Querystring: Record<string, string> }>(`${CONSOLE_BASE}/audit`, async (request, reply) => {
      const current = await signedIn(request);
      if (!current) return reply.redirect(`${CONSOLE_BASE}/sign-in`, 303);
      const before = request.query?.['before'] ? Number(request.query['before']) : null;
      if (before !== null && (!Number.isSafeInteger(before) || before < 1)) throw new SvcError('PAYLOAD_INVALID', '`before` must be an entry id.');
      const page = await listAudit(services.db, current.principal, { limit: 100, before });
      const viewer = { name: current.principal.name, csrf: sessions.csrf(current.session), canWrite: current.principal.canWrite };
      return pageHeaders(reply).send(renderAudit(page.items, page.nextCursor, viewer));
    });

    scope.post<{ Params: { id: string }; Body: Entries }>(`${CONSOLE_BASE}/submissions/:id`, async (request, reply) => {
      const { principal, by } = await writer(request);
      const body = (request.body ?? {}) as Entries;
      const change = parseChange({ status: body['status'], isSpam: body['isSpam'] === 'true' }, services.statuses);
      const result = await updateSubmission(services, principal, request.params.id, change, by);
      return reply.redirect(`${CONSOLE_BASE}/submissions/${result.id}`, 303);
    });

    scope.post<{ Params: { id: string }; Body: Entries }>(`${CONSOLE_BASE}/submissions/:id/delete`, async (request, reply) => {
      const { principal, by } = await writer(request);
      if (((request.body ?? {}) as Entries)['confirm'] !== 'yes') throw new SvcError('PAYLOAD_INVALID', 'Tick the box to confirm the delete.');
      const deleted = await deleteSubmission(services, principal, request.params.id, by);
      return reply.redirect(`${CONSOLE_BASE}/forms/${encodeURIComponent(deleted.formHandle)}`, 303);
    });

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
