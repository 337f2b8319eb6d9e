/**
 * A real SMTP server (smtp-server) on loopback that keeps every message it is given: the
 * envelope as the client sent it and the raw RFC 5322 text, with a tiny MIME reader (headers,
 * multipart bodies, quoted-printable/base64, encoded words) so tests can assert on subjects,
 * recipients and the text/html parts without a mail parser.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface MimePart {
  readonly headers: ReadonlyMap<string, string>;
  /** The decoded body of a leaf part; '' for a multipart container. */
  readonly body: string;
  readonly contentType: string;
  readonly parts: readonly MimePart[];
}

export interface CapturedMail {
  readonly envelope: { readonly from: string | null; readonly to: readonly string[] };
  /** The message exactly as received (CRLF line ends). */
  readonly raw: string;
  readonly root: MimePart;
  /** A header of the top-level part, unfolded and with encoded words decoded. */
  header(name: string): string | undefined;
  readonly subject: string;
  /** The decoded text/plain and text/html parts, when present. */
  readonly text: string | null;
  readonly html: string | null;
}

export interface SmtpSink {
  readonly port: number;
  /** `smtp://127.0.0.1:<port>` for `notifications.smtpUrl`. */
  readonly url: string;
  readonly messages: readonly CapturedMail[];
  /** How many SMTP connections clients have opened so far. */
  connections(): number;
  /** Messages whose envelope names `address` (case-insensitive). */
  to(address: string): CapturedMail[];
  /** Resolves with the first message the predicate accepts, polling until `timeoutMs`. */
  waitFor(predicate: (mail: CapturedMail) => boolean, timeoutMs?: number): Promise<CapturedMail>;
  clear(): void;
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const ch = joined[i] as string;
    const hex = joined.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`). */
export function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').trim().toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  // Unfold continuation lines first (RFC 5322 §2.2.3).
  for (const line of block.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, decodeEncodedWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

/** Parses one MIME entity; line ends are normalised to LF first. */
export function parseMime(source: string): MimePart {
  const text = source.replace(/\r\n/g, '\n');
  const split = text.indexOf('\n\n');
  const headers = parseHeaders(split === -1 ? text : text.slice(0, split));
  const rawBody = split === -1 ? '' : text.slice(split + 2);
  const contentType = headers.get('content-type') ?? 'text/plain';
  const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (mime.startsWith('multipart/') && boundary) {
    const parts: MimePart[] = [];
    const sections = rawBody.split(`--${boundary}`);
    // sections[0] is the preamble; the section after the closing `--boundary--` starts with "--".
    for (const section of sections.slice(1)) {
      if (section.startsWith('--')) break;
      parts.push(parseMime(section.replace(/^\n/, '').replace(/\n$/, '')));
    }
    return { headers, body: '', contentType: mime, parts };
  }
  return { headers, body: decodeBody(rawBody, headers.get('content-transfer-encoding')), contentType: mime, parts: [] };
}

function findPart(part: MimePart, mime: string): MimePart | null {
  if (part.parts.length === 0) return part.contentType === mime ? part : null;
  for (const child of part.parts) {
    const found = findPart(child, mime);
    if (found) return found;
  }
  return null;
}

export function readMail(raw: string, envelope: CapturedMail['envelope'] = { from: null, to: [] }): CapturedMail {
  const root = parseMime(raw);
  return {
    envelope,
    raw,
    root,
    header: (name) => root.headers.get(name.toLowerCase()),
    subject: root.headers.get('subject') ?? '',
    text: findPart(root, 'text/plain')?.body ?? null,
    html: findPart(root, 'text/html')?.body ?? null,
  };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: CapturedMail[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 1000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : null;
        const to = session.envelope.rcptTo.map((r) => r.address);
        messages.push(readMail(Buffer.concat(chunks).toString('utf8'), { from, to }));
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    connections: () => connections,
    to: (address) => messages.filter((m) => m.envelope.to.some((t) => t.toLowerCase() === address.toLowerCase())),
    async waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching email within ${timeoutMs} ms (${messages.length} received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    clear: () => {
      messages.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
