/**
 * A signed-in console session for app.inject() tests (issue #35): signs in with an admin API key
 * through the real sign-in form, then GETs and POSTs as that browser would, carrying its cookies
 * (the session and any flash the last write left).
 */
import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './test-app.js';

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

export interface ConsoleBrowser {
  readonly csrf: string;
  /** `extraCookie` is sent after the jar's cookies (a test's planted cookie). */
  get(url: string, extraCookie?: string): Promise<LightMyRequestResponse>;
  post(url: string, fields: Record<string, string | readonly string[]>): Promise<LightMyRequestResponse>;
}

function setCookies(res: LightMyRequestResponse): string[] {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : raw ? [raw] : [];
}

/** Signs in with `apiKey` (configured under admin.keys) and returns a cookie-keeping browser. */
export async function consoleBrowser(svc: TestApp, apiKey: string): Promise<ConsoleBrowser> {
  const jar = new Map<string, string>();
  const keep = (res: LightMyRequestResponse) => {
    for (const c of setCookies(res)) {
      const [pair = ''] = c.split(';');
      const [name = '', ...rest] = pair.split('=');
      const value = rest.join('=');
      if (value === '' || /Max-Age=0/.test(c)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };
  const cookie = () => [...jar].map(([n, v]) => `${n}=${v}`).join('; ');
  const page = keep(await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' }));
  const preCsrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const signIn = keep(await svc.app.inject({ method: 'POST', url: '/svc/console/sign-in', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() }, payload: new URLSearchParams({ csrf: preCsrf, apiKey }).toString() }));
  if (signIn.statusCode !== 303) throw new Error(`console sign-in failed: ${signIn.statusCode}`);
  const home = keep(await svc.app.inject({ method: 'GET', url: '/svc/console/', headers: { cookie: cookie() } }));
  const csrf = /name="csrf" value="([^"]+)"/.exec(home.body)?.[1] ?? '';
  return {
    csrf,
    get: async (url, extraCookie) => keep(await svc.app.inject({ method: 'GET', url, headers: { cookie: [cookie(), extraCookie].filter(Boolean).join('; ') } })),
    post: async (url, fields) => {
      const body = new URLSearchParams({ csrf });
      for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
      return keep(await svc.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() }, payload: body.toString() }));
    },
  };
}
