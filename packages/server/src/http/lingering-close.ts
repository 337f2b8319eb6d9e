/**
 * A refusal sent while the client is still sending its body (contract §1: a 413 the client can
 * read). Node ends a `Connection: close` answer with socket.destroySoon(): the socket is closed
 * as soon as the answer is written, and the kernel answers every byte the client sends after that
 * with a reset, which also throws away the answer the client has not read yet (Node's fetch:
 * EPIPE or "other side closed" instead of the 413). Here the socket stops writing after the
 * answer (FIN) but keeps reading and discarding the rest of the body, as nginx's lingering close
 * does, and closes once the body has arrived, or after a bounded time or size.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

export interface LingerLimits {
  /** How long a refused client may go on sending, from the refusal. */
  readonly maxMs: number;
  /** How many more body bytes are read and discarded at most. */
  readonly maxBytes: number;
}

/** A few seconds and a few tens of MiB (nginx: lingering_time 30 s, lingering_timeout 5 s). */
export const LINGER_LIMITS: LingerLimits = { maxMs: 5000, maxBytes: 32 * 1024 * 1024 };

/** The sockets lingering per server, so a shutdown need not wait for their bounds. */
const lingering = new WeakMap<Server, Set<Socket>>();

function announcesBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Call before sending a refusal. When the request's body has not all arrived, the answer says
 * `Connection: close` and its socket lingers (see above); returns whether it does.
 */
export function lingerAfterRefusal(server: Server, request: IncomingMessage, response: ServerResponse, limits: LingerLimits = LINGER_LIMITS): boolean {
  const socket = request.socket;
  // An injected request (app.inject) has no real socket to close.
  if (!(socket instanceof Socket) || socket.destroyed || request.complete || !announcesBody(request)) return false;
  const open = lingering.get(server) ?? new Set<Socket>();
  lingering.set(server, open);
  if (open.has(socket)) return true;
  open.add(socket);
  if (!response.headersSent) response.setHeader('Connection', 'close');
  const closeSoon = socket.destroySoon.bind(socket);
  let answered = false;
  let bodyEnded = false;
  // Written and the body all read: nothing of the client's is left to be reset.
  const finish = () => {
    if (answered && bodyEnded) closeSoon();
  };
  // Node calls this once the answer is written: stop writing, keep reading.
  socket.destroySoon = () => {
    answered = true;
    socket.end();
    finish();
  };
  let discarded = 0;
  // A parser the refusal left behind (busboy) no longer reads: its back-pressure must not stop this.
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.maxBytes) socket.destroy();
  });
  request.resume();
  request.once('end', () => {
    bodyEnded = true;
    finish();
  });
  const timer = setTimeout(() => socket.destroy(), limits.maxMs);
  socket.once('close', () => {
    clearTimeout(timer);
    open.delete(socket);
  });
  return true;
}

/** Closes the sockets still lingering on `server` (a shutdown: they have had their answer). */
export function closeLingering(server: Server): void {
  for (const socket of lingering.get(server) ?? []) socket.destroy();
}
