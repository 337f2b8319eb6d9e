/**
 * A real node:http server on loopback that records every request (method, path, headers, the
 * raw body) and answers each path from a programmable sequence of replies: the replies are used
 * in order and the last one repeats. A reply may also hang (never answer) to test timeouts.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  readonly status?: number;
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Read the request, then never answer. */
  readonly hang?: boolean;
  /** Send the status line, then one body byte every this many ms, never ending the body. */
  readonly trickleMs?: number;
}

export interface ReceivedRequest {
  readonly method: string;
  /** The path and query as requested. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly rawBody: Buffer;
  readonly at: number;
}

export interface HttpReceiver {
  readonly port: number;
  /** `http://127.0.0.1:<port><path>` */
  url(path: string): string;
  readonly requests: readonly ReceivedRequest[];
  /** The requests made to one path. */
  on(path: string): ReceivedRequest[];
  /** Replace the replies of `path`: used in order, the last one repeating. Unscripted paths answer 200 "ok". */
  script(path: string, ...replies: (Reply | number)[]): void;
  /** Forget requests and scripts. */
  reset(): void;
  /** Resolves once `path` has received `count` requests, polling until `timeoutMs`. */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

const DEFAULT_REPLY: Reply = { status: 200, body: 'ok' };

export async function startHttpReceiver(): Promise<HttpReceiver> {
  const requests: ReceivedRequest[] = [];
  const scripts = new Map<string, Reply[]>();

  const next = (path: string): Reply => {
    const queue = scripts.get(path);
    if (!queue || queue.length === 0) return DEFAULT_REPLY;
    return (queue.length > 1 ? queue.shift() : queue[0]) as Reply;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const path = req.url ?? '/';
      requests.push({ method: req.method ?? '', path, headers: req.headers, body: rawBody.toString('utf8'), rawBody, at: Date.now() });
      const reply = next(path.split('?')[0] as string);
      if (reply.hang) return;
      if (reply.trickleMs !== undefined) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain; charset=utf-8', ...reply.headers });
        const drip = setInterval(() => res.write('.'), reply.trickleMs);
        res.on('close', () => clearInterval(drip));
        return;
      }
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain; charset=utf-8', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const on = (path: string) => requests.filter((r) => r.path.split('?')[0] === path);

  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    on,
    script(path, ...replies) {
      scripts.set(
        path,
        replies.map((r) => (typeof r === 'number' ? { status: r, body: `status ${r}` } : r)),
      );
    },
    reset() {
      requests.length = 0;
      scripts.clear();
    },
    async waitFor(path, count = 1, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const seen = on(path);
        if (seen.length >= count) return seen;
        if (Date.now() > deadline) throw new Error(`${path} received ${seen.length} of ${count} request(s) within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging replies keep their sockets open; end them so close() returns.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
