/**
 * The SMTP mailer against real sockets: messages share pooled connections (a connection per
 * message starved the delivery worker, issue #17), and the configured timeout really bounds a
 * server that never answers, so a delivery cannot outlive its lease.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { createMailer } from '../src/notifications/mail-transport.js';
import { startSmtpSink, type SmtpSink } from './support/smtp-sink.js';

const quiet = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
const mail = (n: number) => ({ from: 'svc@example.test', to: [`owner${n}@example.test`], subject: `Message ${n}`, html: '', text: `Body ${n}`, messageId: `<m${n}@svc.test>` });

describe('SMTP mailer', () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });

  it('sends every message over at most `connections` pooled connections', async () => {
    const mailer = createMailer({ smtpUrl: sink.url, dataDir: '/nonexistent', timeoutMs: 5000, connections: 3, log: quiet });
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => mailer.send(mail(n))));
      expect(answers.every((answer) => answer.startsWith('SMTP accepted for 1 recipient'))).toBe(true);
      expect(sink.messages).toHaveLength(30);
      expect(new Set(sink.messages.map((m) => m.subject)).size).toBe(30);
      expect(sink.connections()).toBeLessThanOrEqual(3);
    } finally {
      mailer.close();
    }
  });

  it('gives up on a server that accepts the connection but never greets, within the timeout', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, dataDir: '/nonexistent', timeoutMs: 400, connections: 1, log: quiet });
    const started = Date.now();
    try {
      await expect(mailer.send(mail(1))).rejects.toThrow(/greeting|timeout/i);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      mailer.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
