import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { lingerAfterRefusal, type LingerLimits } from './lingering-close.js';

const ANSWER = '{"success":false,"code":"PAYLOAD_TOO_LARGE"}';

/** A bare Node server that refuses every body at once, lingering with the limits the path names. */
function refusingServer(): Server {
  return createServer((request, response) => {
    const limits: LingerLimits = request.url === '/size' ? { maxMs: 60_000, maxBytes: 1024 * 1024 } : request.url === '/time' ? { maxMs: 200, maxBytes: 1 << 30 } : { maxMs: 60_000, maxBytes: 1 << 30 };
    lingerAfterRefusal(server, request, response, limits);
    response.writeHead(413, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) }).end(ANSWER);
  });
}
let server: Server;
/** The server's side of each connection closing, by the client's port. */
const serverSideClosed = new Map<number, Promise<void>>();

interface RawClient {
  readonly socket: Socket;
  /** What the server sent, as text. */
  received(): string;
  /** Hands `chunk` to the socket, counted; false when the socket wants a drain first. */
  send(chunk: Buffer): boolean;
  /** Resolves once the client's socket has closed, with the bytes sent by then. */
  readonly closed: Promise<number>;
  /** Resolves once the server's side of the connection has closed. */
  serverClosed(): Promise<void>;
}

/** A raw HTTP/1.1 client: a POST announcing `declaredLength` body bytes, `first` of them sent. */
function rawClient(path: string, declaredLength: number, first: Buffer): RawClient {
  const { port } = server.address() as AddressInfo;
  // Half-open, as a client still sending its body is once the server's FIN arrives.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  let text = '';
  let sent = 0;
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(sent)));
  socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${declaredLength}\r\n\r\n`);
  const client: RawClient = {
    socket,
    received: () => text,
    send(chunk) {
      sent += chunk.length;
      return socket.write(chunk);
    },
    closed,
    serverClosed: () => serverSideClosed.get(socket.localPort ?? -1) ?? Promise.reject(new Error('no such connection')),
  };
  client.send(first);
  return client;
}

/** Sends as fast as the socket takes it until the socket is gone. */
function pump(client: RawClient): void {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const more = () => {
    while (!client.socket.destroyed && client.socket.writable) {
      if (!client.send(chunk)) {
        client.socket.once('drain', more);
        return;
      }
    }
  };
  more();
}

describe('lingering close after a refusal (contract §1)', () => {
  beforeAll(async () => {
    server = refusingServer();
    server.on('connection', (socket: Socket) => {
      serverSideClosed.set(socket.remotePort ?? 0, new Promise((resolve) => socket.once('close', () => resolve())));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers, stops writing, reads the rest of the body, then closes without a reset', async () => {
    const client = rawClient('/whole', 4 * 1024 * 1024, Buffer.alloc(1024, 0x20));
    // The answer arrives while the body is still being sent, and the server half-closes after it.
    await new Promise<void>((resolve) => client.socket.once('end', resolve));
    expect(client.received()).toMatch(/^HTTP\/1\.1 413 [^\r]*\r\n/);
    expect(client.received()).toContain('Connection: close');
    expect(client.received().endsWith(ANSWER)).toBe(true);
    // The rest of the body is still taken: 4 MiB written after the answer, and no reset.
    let failed: Error | null = null;
    client.socket.on('error', (error) => (failed = error));
    await new Promise<void>((resolve) => client.socket.end(Buffer.alloc(4 * 1024 * 1024 - 1024, 0x20), resolve));
    await client.closed;
    expect(failed).toBeNull();
  });

  it('closes a client that goes on sending past the size bound', async () => {
    const client = rawClient('/size', 1 << 30, Buffer.alloc(1024, 0x20));
    pump(client);
    const written = await client.closed;
    expect(client.received()).toContain('413');
    // A gigabyte was announced; the server stopped reading a little past its 1 MiB bound (what
    // the two kernels' buffers hold is on top).
    expect(written).toBeLessThan(1 << 30);
  });

  it('closes a client that stops sending, once the time bound has passed', async () => {
    const client = rawClient('/time', 1 << 20, Buffer.alloc(10, 0x20));
    // The client keeps its half open and sends nothing more: only the server's bound ends this.
    await new Promise<void>((resolve) => client.socket.once('end', resolve));
    await client.serverClosed();
    expect(client.received()).toContain('413');
    client.socket.destroy();
  });
});
