/**
 * What the official client puts on the wire, recorded so tests can assert exact request shapes:
 * method, URL, headers, and the body as JSON or as the ordered parts of a multipart form.
 */

export type RecordedPart =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly file: { readonly name: string; readonly type: string; readonly size: number } };

export interface RecordedCall {
  readonly method: string;
  readonly url: URL;
  /** Header names lower-cased, as the client set them (cookies are the jar's business, not listed). */
  readonly headers: Readonly<Record<string, string>>;
  readonly credentials: RequestCredentials | undefined;
  /** The parsed JSON body, when the body was a string. */
  readonly json?: unknown;
  /** The parts in order, when the body was a FormData. */
  readonly parts?: readonly RecordedPart[];
  status: number | null;
  /** The answer's body, parsed as JSON when it is JSON. */
  answer: unknown;
  readonly responseHeaders: Headers;
}

export interface Recorder {
  readonly fetch: typeof fetch;
  readonly calls: RecordedCall[];
  /** Calls whose method matches and whose path ends with `pathSuffix`. */
  matching(method: string, pathSuffix: string): RecordedCall[];
  last(): RecordedCall;
  clear(): void;
}

function partsOf(form: FormData): RecordedPart[] {
  const parts: RecordedPart[] = [];
  form.forEach((value, name) => {
    if (typeof value === 'string') parts.push({ name, value });
    else parts.push({ name, file: { name: value.name, type: value.type, size: value.size } });
  });
  return parts;
}

function urlOf(input: Parameters<typeof fetch>[0]): URL {
  if (typeof input === 'string') return new URL(input);
  if (input instanceof URL) return new URL(input);
  return new URL(input.url);
}

export function createRecorder(inner: typeof fetch): Recorder {
  const calls: RecordedCall[] = [];
  const recording: typeof fetch = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init?.body;
    const call: RecordedCall = {
      method: (init?.method ?? 'GET').toUpperCase(),
      url: urlOf(input),
      headers,
      credentials: init?.credentials,
      ...(typeof body === 'string' ? { json: JSON.parse(body) as unknown } : {}),
      ...(body instanceof FormData ? { parts: partsOf(body) } : {}),
      status: null,
      answer: undefined,
      responseHeaders: new Headers(),
    };
    calls.push(call);
    const response = await inner(input, init);
    call.status = response.status;
    response.headers.forEach((value, name) => call.responseHeaders.append(name, value));
    const text = await response.clone().text();
    try {
      call.answer = JSON.parse(text) as unknown;
    } catch {
      call.answer = text;
    }
    return response;
  };
  return {
    fetch: recording,
    calls,
    matching: (method, pathSuffix) => calls.filter((c) => c.method === method && c.url.pathname.endsWith(pathSuffix)),
    last() {
      const call = calls.at(-1);
      if (!call) throw new Error('no request recorded');
      return call;
    },
    clear() {
      calls.length = 0;
    },
  };
}

/**
 * What the browser adds on its own: an `Origin` header on state-changing and cross-origin
 * requests of a page at `pageUrl` (the official client never sets it).
 */
export function createBrowserFetch(pageUrl: string, inner: typeof fetch): typeof fetch {
  const pageOrigin = new URL(pageUrl).origin;
  return (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const crossOrigin = urlOf(input).origin !== pageOrigin;
    if (!crossOrigin && (method === 'GET' || method === 'HEAD')) return inner(input, init);
    const headers = new Headers(init?.headers);
    headers.set('origin', pageOrigin);
    return inner(input, { ...init, headers });
  };
}
