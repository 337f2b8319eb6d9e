/**
 * A 413 the client can read (contract §1, issue #31 item 4): a client still sending an over-limit
 * body gets the answer, not EPIPE or "other side closed". The server runs in its own process, as
 * in production: with client and server on one event loop the reset never races the answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { killAllServers, startServer, type ServerProcess } from './support/server-process.js';
import { EXAMPLE_FORMS_DIR } from './support/test-app.js';
import { filePart, multipartBody } from './support/multipart-body.js';

const SIXTEEN_MIB = 16 * 1024 * 1024;
/** A few rounds each: without the lingering close about half of them failed (EPIPE). */
const ROUNDS = 3;

interface Answer {
  readonly status: number;
  readonly body: { success?: boolean; code?: string };
}

describe('a body over the limit', () => {
  let dir: string;
  let server: ServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-body-limit-'));
    const configFile = join(dir, 'svc.config.yaml');
    writeFileSync(
      configFile,
      toYaml({
        secret: 'body-limit-test-secret-0123456789abcdefghij',
        dataDir: join(dir, 'data'),
        forms: { dir: EXAMPLE_FORMS_DIR, watch: false },
        server: { port: 0, host: '127.0.0.1' },
        rateLimit: { enabled: false },
        csrf: { enabled: false },
        headless: { forms: { contact: { exposeManifest: true, allowSubmit: true }, 'job-application': { exposeManifest: true, allowSubmit: true } } },
      }),
    );
    server = await startServer({ cwd: dir, configFile, name: 'body-limit' });
  });
  afterAll(async () => {
    await killAllServers();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function post(path: string, headers: Record<string, string>, body: BodyInit | Buffer, streamed = false): Promise<Answer> {
    // fetch's types take a Blob, not a Buffer.
    const sent = Buffer.isBuffer(body) ? new Blob([new Uint8Array(body)]) : body;
    const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body: sent, ...(streamed ? { duplex: 'half' } : {}) };
    const response = await fetch(`${server.base}${path}`, init);
    return { status: response.status, body: (await response.json()) as Answer['body'] };
  }

  function expectTooLarge(answer: Answer): void {
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ success: false, code: 'PAYLOAD_TOO_LARGE' });
  }

  it('answers a 16 MiB JSON submit with a 413 the client reads', async () => {
    const body = JSON.stringify({ intent: 'submit', values: { message: 'x'.repeat(SIXTEEN_MIB) } });
    for (let round = 0; round < ROUNDS; round++) {
      expectTooLarge(await post('/svc/api/forms/contact/submit', { 'content-type': 'application/json' }, body));
    }
  });

  it('answers a 16 MiB streamed body (no Content-Length) with a 413 the client reads', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    for (let round = 0; round < ROUNDS; round++) {
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= SIXTEEN_MIB) return controller.close();
          sent += chunk.length;
          controller.enqueue(chunk);
        },
      });
      expectTooLarge(await post('/svc/api/forms/contact/submit', { 'content-type': 'application/json' }, stream, true));
    }
  });

  it('answers a multipart submit and a classic post whose field is over the limit with a 413', async () => {
    const svc = multipartBody([{ name: '_svc', value: JSON.stringify({ intent: 'submit', values: { message: 'x'.repeat(SIXTEEN_MIB) } }) }]);
    const classic = multipartBody([{ name: 'action', value: 'svc/submit' }, { name: 'message', value: 'x'.repeat(SIXTEEN_MIB) }]);
    const form = new URLSearchParams({ action: 'svc/submit', message: 'x'.repeat(SIXTEEN_MIB) }).toString();
    for (let round = 0; round < ROUNDS; round++) {
      expectTooLarge(await post('/svc/api/forms/contact/submit', { ...svc.headers }, svc.payload));
      expectTooLarge(await post('/svc/submit', { ...classic.headers, accept: 'application/json' }, classic.payload));
      expectTooLarge(await post('/svc/submit', { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, form));
    }
  });

  it('answers an upload over its field limit with a 413', async () => {
    // A PNG signature, then 16 MiB: the portfolio field takes images up to 10 MiB.
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(SIXTEEN_MIB, 0x41)]);
    const upload = multipartBody([filePart('portfolio', 'big.png', png, 'image/png')]);
    const headers = { ...upload.headers, 'x-svc-upload-token': '0f8fad5b-d9cb-469f-a165-70867728950e' };
    for (let round = 0; round < ROUNDS; round++) {
      expectTooLarge(await post('/svc/api/forms/job-application/files/portfolio', headers, upload.payload));
    }
  });

  it('still shuts down on SIGTERM while a refused client goes on sending', async () => {
    // A client that announces a gigabyte and then trickles: the server has answered and lingers.
    const socket = connect({ port: server.port, host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => undefined);
    let received = '';
    const answered = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString('latin1');
        if (received.includes('PAYLOAD_TOO_LARGE')) resolve();
      });
    });
    socket.write(`POST /svc/api/forms/contact/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1 << 30}\r\n\r\n{`);
    const trickle = setInterval(() => socket.writable && socket.write(' '), 20);
    try {
      await answered;
      expect(received).toMatch(/^HTTP\/1\.1 413 /);
      expect(await server.stop(15_000), server.output()).toEqual({ code: 0, signal: null });
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });
});
