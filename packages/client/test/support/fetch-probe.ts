/**
 * A fetch wrapper that records every request the client makes and injects faults into chosen
 * ones: a network failure before the request leaves (`fail-before`), a network failure after the
 * server answered (`fail-after`: the request took effect, its answer was lost), or a request
 * rewritten on its way out (`rewrite`, e.g. a corrupted CSRF header).
 */
import { requestUrl } from './cookie-jar-fetch.js';

export interface RecordedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: BodyInit | null | undefined;
  /** The status answered, or `network error` when the probe failed it. */
  status: number | 'network error' | null;
}

export type Fault =
  | { readonly kind: 'fail-before' }
  | { readonly kind: 'fail-after' }
  | { readonly kind: 'rewrite'; readonly change: (request: { url: URL; headers: Headers }) => void };

interface FaultRule {
  readonly match: (request: RecordedRequest) => boolean;
  remaining: number;
  readonly fault: Fault;
}

export interface FetchProbe {
  readonly fetch: typeof fetch;
  readonly requests: RecordedRequest[];
  /** Applies `fault` to the next `times` requests that `match` (Infinity: all of them). */
  inject(match: (request: RecordedRequest) => boolean, fault: Fault, times?: number): void;
  /** Requests whose method is `method` and whose path ends with `pathSuffix`. */
  matching(method: string, pathSuffix: string): RecordedRequest[];
  reset(): void;
}

export const isRequest = (method: string, pathSuffix: string) => (request: RecordedRequest) =>
  request.method === method && request.url.pathname.endsWith(pathSuffix);

export function createFetchProbe(inner: typeof fetch): FetchProbe {
  const requests: RecordedRequest[] = [];
  let rules: FaultRule[] = [];

  const probe: typeof fetch = async (input, init) => {
    const url = new URL(requestUrl(input));
    const headers = new Headers(init?.headers);
    const recorded: RecordedRequest = { method: (init?.method ?? 'GET').toUpperCase(), url, headers, body: init?.body, status: null };
    requests.push(recorded);
    const rule = rules.find((r) => r.remaining > 0 && r.match(recorded));
    if (rule) rule.remaining -= 1;
    const fault = rule?.fault;
    if (fault?.kind === 'fail-before') {
      recorded.status = 'network error';
      throw new TypeError('fetch failed');
    }
    const outgoing = { url: new URL(url), headers: new Headers(headers) };
    if (fault?.kind === 'rewrite') fault.change(outgoing);
    const response = await inner(outgoing.url.toString(), { ...init, headers: outgoing.headers });
    if (fault?.kind === 'fail-after') {
      await response.arrayBuffer();
      recorded.status = 'network error';
      throw new TypeError('fetch failed');
    }
    recorded.status = response.status;
    return response;
  };

  return {
    fetch: probe,
    requests,
    inject(match, fault, times = 1) {
      rules.push({ match, fault, remaining: times });
    },
    matching(method, pathSuffix) {
      return requests.filter(isRequest(method, pathSuffix));
    },
    reset() {
      requests.length = 0;
      rules = [];
    },
  };
}
