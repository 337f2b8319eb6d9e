/**
 * The mailer port: SMTP through nodemailer when `notifications.smtpUrl` is set; otherwise every
 * message is written as an `.eml` file under `<dataDir>/mail` (and the path logged), so
 * `npm start` shows what would have been sent without any mail server.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { FastifyBaseLogger } from 'fastify';
import { randomHex } from '../security/token-crypto.js';

export interface OutgoingMail {
  readonly from: string;
  readonly to: readonly string[];
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** Groups a delivery's retries in the receiver's threading (Message-ID stays stable). */
  readonly messageId: string;
  /** The BCP 47 tag it is written in, sent as Content-Language (issue #34). */
  readonly language?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

export function createMailer(options: { smtpUrl: string | null; dataDir: string; timeoutMs: number; connections: number; log: FastifyBaseLogger }): Mailer {
  const message = (mail: OutgoingMail) => ({
    from: mail.from,
    to: [...mail.to],
    subject: mail.subject,
    messageId: mail.messageId,
    // nodemailer draws a boundary per MIME part from randomBytes unless given one; pooled is cheaper.
    baseBoundary: randomHex(8),
    ...(mail.html ? { html: mail.html } : {}),
    ...(mail.text ? { text: mail.text } : {}),
    ...(mail.language ? { headers: { 'Content-Language': mail.language } } : {}),
  });
  if (options.smtpUrl) {
    // The URL and the options in one object: nodemailer reads a second argument as defaults for
    // each message, not as transport options, so timeouts given there would be ignored.
    // Pooled connections, as many as the worker delivers at once: a connection per message
    // (TCP, greeting, EHLO, QUIT) cost more than the message and starved the worker (issue #17).
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      pool: true,
      maxConnections: options.connections,
      maxMessages: 500,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
    return {
      async send(mail) {
        // Composed into one buffer first: streamed by nodemailer, a message went out in dozens of
        // small socket writes, which cost more CPU than composing it (issue #17, delivery profile).
        const node = new MailComposer(message(mail)).compile();
        const raw = await node.build();
        // The Message-ID again, or nodemailer draws a new one for the raw message's own node.
        const info = await transport.sendMail({ envelope: node.getEnvelope(), raw, messageId: mail.messageId });
        return `SMTP accepted for ${info.accepted.length} recipient(s): ${String(info.response).slice(0, 200)}`;
      },
      close: () => transport.close(),
    };
  }
  const dir = join(options.dataDir, 'mail');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail(message(mail));
      await mkdir(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 40)}.eml`);
      await writeFile(file, info.message as Buffer);
      options.log.info({ file }, 'no SMTP configured: email written to a file');
      // The delivery log is shown by the admin API: the file's name identifies it, its path stays in the server log.
      return `no SMTP configured; saved as mail file ${basename(file)}`;
    },
    close: () => transport.close(),
  };
}
