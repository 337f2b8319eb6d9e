/**
 * What happens before fastify sees a request (issue #11): timeouts for headers, whole requests and
 * idle keep-alive connections, a cap on the connections one client address holds, and Node's
 * own refusals (a request that times out, headers or a URL too large, a malformed request line)
 * answered in the catalogue's shape instead of Node's.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import { ERROR_CATALOGUE, type ErrorCode } from '@svc/core';
import type { Config } from '../config/config-schema.js';

/** Fastify and Node options for the server section of the config. */
export function serverTimeouts(server: Config['server']) {
  return {
    requestTimeout: server.requestTimeoutMs,
    keepAliveTimeout: server.keepAliveTimeoutMs,
    // Node checks the two timeouts every connectionsCheckingInterval (30 s by default); once a
    // second keeps a slow client's answer close to its limit.
    http: { headersTimeout: server.headersTimeoutMs, requestTimeout: server.requestTimeoutMs, connectionsCheckingInterval: 1000 },
  };
}

/** What Node hands a clientError listener: a code, and the raw bytes read so far. */
type ClientError = ConnectionError & { code?: string };

function refusalCode(error: ClientError): ErrorCode {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'HEADERS_TOO_LARGE';
  return 'PAYLOAD_INVALID';
}

/** fastify's `clientErrorHandler`: one JSON answer in svc's error shape, then the socket closes. */
export function answerClientError(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code = refusalCode(error);
  const { status, message } = ERROR_CATALOGUE[code];
  const body = JSON.stringify({ success: false, code, message: code === 'PAYLOAD_INVALID' ? 'The request is not valid HTTP.' : message });
  // A HEAD request gets the status and headers only.
  const raw: unknown = error.rawPacket;
  const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
  if (socket.writable) {
    const reason = code === 'HEADERS_TOO_LARGE' ? 'Request Header Fields Too Large' : code === 'REQUEST_TIMEOUT' ? 'Request Timeout' : 'Bad Request';
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
    );
  }
  socket.destroy(error);
}

/** Closes connections past `max` per remote address at once (0: no limit). */
export function limitConnectionsPerClient(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
