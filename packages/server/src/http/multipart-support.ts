/**
 * What the multipart routes (contract §7: drag-and-drop upload, multipart submit) share: the
 * parser's limits from config, and the CSRF gate. CSRF must be proven before any file part is
 * stored, so nothing a cross-site page sends ever reaches the disk: either the `X-CSRF-Token`
 * header or the `SVC_CSRF_TOKEN` field placed before the files.
 */
import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { SvcError } from '@svc/core';
import type { AppContext } from './app-context.js';
import { readCookie } from './cookie-reader.js';

export function multipartOptions(ctx: Pick<AppContext, 'config'>) {
  const { files, server } = ctx.config;
  return {
    // Errors are ours to shape (FILE_REJECTED, field errors), so busboy only flags and truncates.
    throwFileSizeLimit: false,
    limits: {
      // One byte over the ceiling, so an over-large file is seen as over and never as exactly full.
      fileSize: files.maxFileSizeKB * 1024 + 1,
      files: files.maxFilesPerRequest,
      fieldSize: server.bodyLimitKB * 1024,
      fields: 20,
      parts: files.maxFilesPerRequest + 20,
      headerPairs: 100,
    },
  };
}

/** Errors of the multipart parser (a missing or over-long boundary, a truncated body, a bad part). */
const MALFORMED = new WeakSet<object>();
const MALFORMED_MESSAGE = 'The multipart body is malformed: check the boundary and that every part is complete.';

/** Whether `error` came from a malformed multipart body rather than from svc (error-boundary.ts). */
export function isMalformedMultipart(error: unknown): boolean {
  return typeof error === 'object' && error !== null && MALFORMED.has(error);
}

/**
 * The parts of a multipart body. The parser's own errors, thrown by the iterator or by a file
 * part's stream while it is read, are the client's fault: they become 400 PAYLOAD_INVALID
 * wherever they surface, never a 500 with a stack trace (issue #11).
 */
export async function* multipartParts(request: FastifyRequest): AsyncGenerator<Multipart> {
  let parts: AsyncIterator<Multipart>;
  try {
    parts = request.parts()[Symbol.asyncIterator]();
  } catch {
    throw new SvcError('PAYLOAD_INVALID', MALFORMED_MESSAGE);
  }
  for (;;) {
    let next: IteratorResult<Multipart>;
    const stall = stallGuard(request);
    try {
      next = await Promise.race([parts.next(), stall.promise]);
    } catch (error) {
      if (error instanceof SvcError) throw error;
      // @fastify/multipart's own limits (too many parts, fields) carry a 4xx status already.
      if (typeof (error as { statusCode?: unknown }).statusCode === 'number') throw error;
      throw new SvcError('PAYLOAD_INVALID', MALFORMED_MESSAGE);
    } finally {
      stall.cancel();
    }
    if (next.done) return;
    const part = next.value;
    // busboy cuts a field at `fieldSize` and says so; a cut value must not pass for the whole one.
    if (part.type === 'field' && part.valueTruncated) {
      throw new SvcError('PAYLOAD_TOO_LARGE', `The multipart field "${part.fieldname.slice(0, 64)}" is larger than the body limit (server.bodyLimitKB).`);
    }
    if (part.type === 'file') {
      // The parser may have failed the stream already (a whole body arrives in one chunk).
      const failed: unknown = part.file.errored;
      if (typeof failed === 'object' && failed !== null) MALFORMED.add(failed);
      part.file.on('error', (error: Error) => MALFORMED.add(error));
    }
    yield part;
  }
}

/** How long the parser may still owe a part once the whole body has arrived. */
const STALL_MS = 1000;
const STALL_POLL_MS = 250;

/**
 * Rejects when the parser has stopped: the body has fully arrived, or the parser has paused it,
 * and a moment later the next part still has not come. Some malformed bodies (a bare CR or LF in
 * a part header, then a part longer than a stream buffer) leave busboy paused, waiting for bytes
 * it will never read, which would hold the request open until its timeout (found by the fuzz
 * suite, issue #11). A slow client is not stopped: its body is still flowing.
 */
function stallGuard(request: FastifyRequest): { promise: Promise<never>; cancel: () => void } {
  let fail: (error: unknown) => void = () => undefined;
  const promise = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  const raw = request.raw;
  let stalledFor = 0;
  const timer = setInterval(() => {
    const stopped = raw.readableEnded || raw.isPaused();
    stalledFor = stopped ? stalledFor + STALL_POLL_MS : 0;
    if (stalledFor >= STALL_MS) fail(new SvcError('PAYLOAD_INVALID', MALFORMED_MESSAGE));
  }, STALL_POLL_MS);
  return { promise, cancel: () => clearInterval(timer) };
}

/** Reads a file part to its end, keeping nothing: the body must be consumed before the answer. */
export async function drainPart(file: MultipartFile): Promise<number> {
  let size = 0;
  for await (const chunk of file.file as AsyncIterable<Buffer>) size += chunk.length;
  return size;
}

export interface CsrfGate {
  /** A token found in a form field. */
  offer(token: string): void;
  /** Throws CSRF_INVALID unless a valid token was seen (or CSRF is off). */
  require(): void;
  readonly verified: boolean;
}

/**
 * A class, not an object literal with a getter: a literal's per-request getter closure kept each
 * request alive through young collections (see lazyCsrfToken in graphql-context.ts, issue #17).
 */
class RequestCsrfGate implements CsrfGate {
  #verified: boolean;
  readonly #binding: string | undefined;

  constructor(
    private readonly ctx: Pick<AppContext, 'csrf' | 'config' | 'submit'>,
    request: FastifyRequest,
  ) {
    this.#verified = ctx.csrf === null;
    this.#binding = ctx.csrf ? readCookie(request, ctx.config.csrf.cookieName) : undefined;
    const header = request.headers['x-csrf-token'];
    this.offer(Array.isArray(header) ? header[0] : header);
  }

  offer(token: string | undefined): void {
    const csrf = this.ctx.csrf;
    if (!this.#verified && csrf) this.#verified = csrf.verify(this.#binding, token, this.ctx.submit.now().getTime());
  }

  require(): void {
    if (!this.#verified) throw new SvcError('CSRF_INVALID', 'The CSRF token is missing or invalid; send it in X-CSRF-Token or in the SVC_CSRF_TOKEN field before the files.');
  }

  get verified(): boolean {
    return this.#verified;
  }
}

export function createCsrfGate(ctx: Pick<AppContext, 'csrf' | 'config' | 'submit'>, request: FastifyRequest): CsrfGate {
  return new RequestCsrfGate(ctx, request);
}

/**
 * The text fields of a small multipart body that carries no files (the drag-and-drop delete):
 * first value per name; a file part is refused.
 */
export async function readMultipartFields(request: FastifyRequest): Promise<Record<string, string>> {
  const fields: Record<string, string> = {};
  for await (const part of multipartParts(request)) {
    if (part.type === 'file') {
      await drainPart(part);
      throw new SvcError('PAYLOAD_INVALID', 'This request takes no files.');
    }
    if (typeof part.value === 'string' && !Object.hasOwn(fields, part.fieldname)) fields[part.fieldname] = part.value;
  }
  return fields;
}
