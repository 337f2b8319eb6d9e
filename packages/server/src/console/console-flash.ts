/**
 * Flash messages (issue #35 item 7): one line of confirmation after a console write, shown once at
 * the top of the next page with role="status". A write handler calls `flash(reply, kit, text)`
 * before its 303; the page after it shows the text and the cookie is cleared as it is shown.
 *
 * Why a cookie and not a session row: nothing to purge, and it works on every instance. It is
 * signed with a key derived from the browser's own session cookie, so a cookie planted by a
 * neighbouring subdomain (which cannot know the session) cannot put words on a console page, and a
 * flash never outlives its session. Max-Age is short: a flash not shown within a minute is stale.
 *
 * Pages need no change to show it: consoleFlashRoutes adds an onSend hook to the console's scope
 * that puts the message first in <main> of any HTML page sent while the cookie is present.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../http/cookie-reader.js';
import { escapeHtml } from '../http/html-page.js';
import { deriveKey, hmac, safeEqual } from '../security/token-crypto.js';
import { CONSOLE_BASE } from './console-pages.js';
import { SESSION_COOKIE, type ConsoleKit } from './console-kit.js';

export const FLASH_COOKIE = 'svc_console_flash';
const MAX_CHARS = 300;
const MAX_AGE_SECONDS = 60;

function keyOf(request: FastifyRequest): Buffer | null {
  const session = readCookie(request, SESSION_COOKIE);
  return session ? deriveKey(session, 'console-flash') : null;
}

function flashCookie(request: FastifyRequest, value: string, maxAge: number, publicUrl: string | null = null): string {
  // Secure as the session cookie is: on https, or when the public address is https (behind a proxy).
  const secure = request.protocol === 'https' || (publicUrl ?? '').startsWith('https:') ? '; Secure' : '';
  return `${FLASH_COOKIE}=${value}; Path=${CONSOLE_BASE}; HttpOnly; SameSite=Strict${secure}; Max-Age=${maxAge}`;
}

/** Adds a Set-Cookie without dropping the ones a handler set already (sign-in sets two). */
function appendCookie(reply: FastifyReply, cookie: string): void {
  const present = reply.getHeader('set-cookie');
  const list = present === undefined ? [] : Array.isArray(present) ? present.map(String) : [String(present)];
  reply.header('set-cookie', [...list.filter((c) => !c.startsWith(`${FLASH_COOKIE}=`)), cookie]);
}

/**
 * Leaves `text` for the next console page this browser opens.
 * @example
 * flash(reply, kit, `Submission #${id} marked as spam.`);
 * return reply.redirect(`${CONSOLE_BASE}/submissions/${id}`, 303);
 */
export function flash(reply: FastifyReply, kit: ConsoleKit | null, text: string): FastifyReply {
  const key = keyOf(reply.request);
  // Without a session no page will show it (the writer refuses such requests before this).
  if (!key) return reply;
  const data = Buffer.from(text.slice(0, MAX_CHARS), 'utf8').toString('base64url');
  appendCookie(reply, flashCookie(reply.request, `${data}.${hmac(key, data)}`, MAX_AGE_SECONDS, kit?.config.server.publicUrl ?? null));
  return reply;
}

/** The flash this request carries (verified), clearing it on the reply; null when there is none. */
export function takeFlash(request: FastifyRequest, reply: FastifyReply): string | null {
  const raw = readCookie(request, FLASH_COOKIE);
  if (!raw) return null;
  appendCookie(reply, flashCookie(request, '', 0));
  const [data = '', mac = ''] = raw.split('.');
  const key = keyOf(request);
  if (!key || !/^[A-Za-z0-9_-]+$/.test(data) || !safeEqual(mac, hmac(key, data))) return null;
  return Buffer.from(data, 'base64url').toString('utf8');
}

/** The message as the page shows it: first in <main>, announced politely. */
export function flashHtml(text: string): string {
  return `<p class="flash" role="status">${escapeHtml(text)}</p>`;
}

/** Shows a waiting flash on whichever console page comes next (GET, HTML, 200). */
export async function consoleFlashRoutes(scope: FastifyInstance, _kit: ConsoleKit): Promise<void> {
  scope.addHook('onSend', async (request, reply, payload) => {
    if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    const text = takeFlash(request, reply);
    // consolePage draws exactly one <main>; every value inside it is escaped, so this is the page's own.
    return text === null ? payload : payload.replace('<main>', `<main>${flashHtml(text)}`);
  });
}
