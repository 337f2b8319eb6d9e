/**
 * A lean HTTP/1.1 client for the paced load (paced-load.ts): keep-alive sockets, each request's
 * bytes written whole, each response read to its end by Content-Length or chunked framing.
 *
 * Why not node:http: its Agent, ClientRequest and IncomingMessage cost the bench process about as
 * much CPU per request as a cheap route costs the server, and on a 2-core machine the bench shares
 * the cores with both targets. At half a baseline's capacity (6,000+ manifests a second) the client
 * itself fell behind and queued, and both sides' p99 measured that queue (155-400 ms) instead of
 * the server. This client does only the framing the targets answer with.
 */
import { connect, type Socket } from 'node:net';

export interface WireRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | number>>;
  readonly body?: Buffer;
}

interface Pending {
  readonly resolve: (status: number) => void;
  readonly reject: (error: Error) => void;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** Where the response at the head of `buffer` ends, with its status; null while it is incomplete. */
function responseEnd(buffer: Buffer): { status: number; end: number; close: boolean } | null {
  const headerEnd = buffer.indexOf(HEADER_END);
  if (headerEnd < 0) return null;
  const head = buffer.toString('latin1', 0, headerEnd).toLowerCase();
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection: *close/.test(head);
  const bodyStart = headerEnd + 4;
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return buffer.length >= end ? { status, end, close } : null;
  }
  if (/\r\ntransfer-encoding: *chunked/.test(head)) {
    let at = bodyStart;
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', at, 'latin1');
      if (lineEnd < 0) return null;
      const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16);
      if (size === 0) {
        // No trailers from these targets: the last chunk is followed by one empty line.
        const end = lineEnd + 4;
        return buffer.length >= end ? { status, end, close } : null;
      }
      at = lineEnd + 2 + size + 2;
      if (buffer.length < at) return null;
    }
  }
  // No framing (a 204 or 304): the response is its head.
  return { status, end: bodyStart, close };
}

class WireConnection {
  private readonly socket: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  closed = false;

  constructor(host: string, port: number, onIdle: (connection: WireConnection) => void) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
      const done = responseEnd(this.buffer);
      if (!done || !this.pending) return;
      const { resolve } = this.pending;
      this.pending = null;
      this.buffer = this.buffer.subarray(done.end);
      if (done.close) this.destroy();
      resolve(done.status);
      if (!this.closed) onIdle(this);
    });
    const fail = (error: Error) => {
      this.closed = true;
      const pending = this.pending;
      this.pending = null;
      pending?.reject(error);
    };
    this.socket.on('error', fail);
    this.socket.on('close', () => fail(new Error('connection closed')));
  }

  send(bytes: Buffer): Promise<number> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(bytes);
    });
  }

  destroy(): void {
    this.closed = true;
    this.socket.destroy();
  }
}

/** Keep-alive connections to one server: an idle one is reused, otherwise a new one is opened. */
export class WirePool {
  private readonly idle: WireConnection[] = [];
  private readonly all = new Set<WireConnection>();

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** The request's bytes for this pool's server: encode once, send many times. */
  encode(req: WireRequest): Buffer {
    return encodeRequest(this.host, this.port, req);
  }

  /** Sends encoded request bytes and resolves with the response's status once it is read whole. */
  send(bytes: Buffer): Promise<number> {
    let connection = this.idle.pop();
    while (connection?.closed) connection = this.idle.pop();
    if (!connection) {
      connection = new WireConnection(this.host, this.port, (c) => this.idle.push(c));
      this.all.add(connection);
    }
    return connection.send(bytes);
  }

  close(): void {
    for (const connection of this.all) connection.destroy();
    this.all.clear();
    this.idle.length = 0;
  }
}

function encodeRequest(host: string, port: number, req: WireRequest): Buffer {
  let head = `${req.method} ${req.path} HTTP/1.1\r\nhost: ${host}:${port}\r\n`;
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.toLowerCase() !== 'content-length') head += `${name}: ${value}\r\n`;
  }
  if (req.body) head += `content-length: ${req.body.length}\r\n`;
  head += '\r\n';
  return req.body ? Buffer.concat([Buffer.from(head, 'latin1'), req.body]) : Buffer.from(head, 'latin1');
}
