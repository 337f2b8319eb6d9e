/**
 * Requests to the service: URLs resolved against `baseUrl` (URLs the manifest names are used as
 * given when absolute), credentials included, JSON decoded, refusals turned into SvcClientError,
 * and idempotent requests retried when the network fails (never when the server answered).
 */
import { SvcClientError, refusalError } from './client-error.js';

export interface TransportOptions {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly credentials: RequestCredentials;
  /** Retries of an idempotent request after a network failure. */
  readonly retries: number;
  readonly retryDelayMs: number;
  /**
   * Remember the service's cookies and send them back. Outside a browser nothing keeps cookies for
   * fetch, yet the CSRF token is bound to one (contract §3): without this a Node caller of
   * `createClient({ baseUrl })` had every submit refused with CSRF_INVALID.
   */
  readonly keepCookies?: boolean;
}

export interface Transport {
  readonly options: TransportOptions;
  url(path: string): string;
  /** Sends and decodes JSON; `accept` lists statuses whose JSON body is an answer, not a refusal. */
  json<T>(path: string, init: RequestInit & { idempotent: boolean; accept?: readonly number[] }): Promise<{ status: number; body: T }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createTransport(options: TransportOptions): Transport {
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const url = (path: string) => new URL(path.replace(/^\//, ''), /^https?:\/\//.test(path) ? undefined : base).toString();

  // Per origin, name -> value: what a browser's jar does for the few session cookies svc sets.
  const jar = new Map<string, Map<string, string>>();
  function withCookies(target: string, init: RequestInit): RequestInit {
    const held = jar.get(new URL(target).origin);
    if (!held || held.size === 0) return init;
    const headers = new Headers(init.headers);
    if (!headers.has('cookie')) headers.set('cookie', [...held].map(([name, value]) => `${name}=${value}`).join('; '));
    return { ...init, headers };
  }
  function keep(target: string, response: Response): void {
    const origin = new URL(target).origin;
    for (const line of response.headers.getSetCookie?.() ?? []) {
      const pair = line.split(';', 1)[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const held = jar.get(origin) ?? new Map<string, string>();
      held.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      jar.set(origin, held);
    }
  }

  async function send(path: string, init: RequestInit, idempotent: boolean): Promise<Response> {
    const attempts = idempotent ? options.retries + 1 : 1;
    const target = url(path);
    for (let attempt = 1; ; attempt++) {
      try {
        if (!options.keepCookies) return await options.fetch(target, { credentials: options.credentials, ...init });
        const response = await options.fetch(target, withCookies(target, { credentials: options.credentials, ...init }));
        keep(target, response);
        return response;
      } catch (error) {
        if (attempt >= attempts || (error as Error).name === 'AbortError') {
          throw new SvcClientError('NETWORK_ERROR', `Could not reach the form service: ${(error as Error).message}`);
        }
        await sleep(options.retryDelayMs * 2 ** (attempt - 1));
      }
    }
  }

  return {
    options,
    url,
    async json<T>(path: string, init: RequestInit & { idempotent: boolean; accept?: readonly number[] }) {
      const { idempotent, accept = [], ...request } = init;
      const response = await send(path, request, idempotent);
      let body: unknown = null;
      const text = await response.text();
      if (text !== '') {
        try {
          body = JSON.parse(text);
        } catch {
          throw new SvcClientError('INVALID_RESPONSE', `The form service answered ${response.status} with a body that is not JSON.`, response.status);
        }
      }
      if (response.ok || accept.includes(response.status)) return { status: response.status, body: body as T };
      throw refusalError(response.status, body);
    },
  };
}
