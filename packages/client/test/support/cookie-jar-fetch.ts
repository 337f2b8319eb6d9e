/**
 * A cookie jar for Node's fetch, which keeps no cookies: `Set-Cookie` answers are stored per
 * origin and sent back as `Cookie` on later requests to the same origin, as a browser would for
 * the CSRF cookie that binds the token of `/svc/tokens`.
 */

export interface CookieJarFetch {
  readonly fetch: typeof fetch;
  /** The cookies held for an origin, by name. */
  cookies(origin: string): ReadonlyMap<string, string>;
  clear(): void;
}

interface StoredCookie {
  readonly value: string;
  readonly path: string;
  readonly expiresAt: number | null;
}

export function requestUrl(input: Parameters<typeof fetch>[0]): URL {
  if (typeof input === 'string') return new URL(input);
  if (input instanceof URL) return input;
  return new URL(input.url);
}

function parseSetCookie(header: string, url: URL): { name: string; cookie: StoredCookie } | null {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  if (eq <= 0) return null;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  let path = url.pathname.replace(/\/[^/]*$/, '') || '/';
  let expiresAt: number | null = null;
  for (const attribute of attributes) {
    const [key = '', ...rest] = attribute.split('=');
    const attrValue = rest.join('=').trim();
    switch (key.trim().toLowerCase()) {
      case 'path':
        if (attrValue.startsWith('/')) path = attrValue;
        break;
      case 'max-age': {
        const seconds = Number.parseInt(attrValue, 10);
        if (Number.isFinite(seconds)) expiresAt = Date.now() + seconds * 1000;
        break;
      }
      case 'expires': {
        const at = Date.parse(attrValue);
        if (expiresAt === null && Number.isFinite(at)) expiresAt = at;
        break;
      }
    }
  }
  return { name, cookie: { value, path, expiresAt } };
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}

/** Wraps `inner` (the global fetch by default) with a per-origin cookie jar. */
export function createCookieJarFetch(inner: typeof fetch = (...args) => globalThis.fetch(...args)): CookieJarFetch {
  const jar = new Map<string, Map<string, StoredCookie>>();

  function live(origin: string, path: string): [string, string][] {
    const cookies = jar.get(origin);
    if (!cookies) return [];
    const now = Date.now();
    const out: [string, string][] = [];
    for (const [name, cookie] of cookies) {
      if (cookie.expiresAt !== null && cookie.expiresAt <= now) cookies.delete(name);
      else if (pathMatches(path, cookie.path)) out.push([name, cookie.value]);
    }
    return out;
  }

  const jarFetch: typeof fetch = async (input, init) => {
    const url = requestUrl(input);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const stored = live(url.origin, url.pathname);
    if (stored.length > 0) {
      const own = headers.get('cookie');
      const names = new Set((own ?? '').split(';').map((c) => c.split('=')[0]!.trim()).filter(Boolean));
      const added = stored.filter(([name]) => !names.has(name)).map(([name, value]) => `${name}=${value}`);
      headers.set('cookie', [own, ...added].filter(Boolean).join('; '));
    }
    const response = await inner(input, { ...init, headers });
    for (const header of response.headers.getSetCookie()) {
      const parsed = parseSetCookie(header, url);
      if (!parsed) continue;
      let cookies = jar.get(url.origin);
      if (!cookies) jar.set(url.origin, (cookies = new Map()));
      if (parsed.cookie.expiresAt !== null && parsed.cookie.expiresAt <= Date.now()) cookies.delete(parsed.name);
      else cookies.set(parsed.name, parsed.cookie);
    }
    return response;
  };

  return {
    fetch: jarFetch,
    cookies(origin) {
      return new Map(live(new URL(origin).origin, '/'));
    },
    clear() {
      jar.clear();
    },
  };
}
