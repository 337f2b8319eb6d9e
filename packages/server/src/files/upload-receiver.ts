/**
 * Receives one file stream: counts bytes as they arrive, sniffs the first SNIFF_BYTES, and spools
 * to a private temporary file, so the whole file is never held in memory and a file that breaks a
 * rule is dropped as soon as it does. The stream is always read to its end (multipart parts
 * follow each other in one body), but nothing past a broken rule is written anywhere.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { SNIFF_BYTES, sniffFile, type FileKind, type Sniffed } from './file-kinds.js';

export interface UploadRules {
  readonly maxBytes: number;
  /** Null accepts every kind. */
  readonly kinds: ReadonlySet<FileKind> | null;
}

export type Refusal = 'too_large' | 'kind' | 'empty';

export type Spooled =
  | { readonly ok: true; readonly path: string; readonly size: number; readonly sha256: string; readonly sniffed: Sniffed }
  | { readonly ok: false; readonly refusal: Refusal };

async function closeWriter(writer: WriteStream): Promise<void> {
  if (writer.closed) return;
  writer.end();
  await once(writer, 'close');
}

/** Reads `stream` to its end; returns the spooled file, or why it was refused (nothing kept). */
export async function spoolUpload(stream: Readable, clientName: string, rules: UploadRules, tmpDir: string): Promise<Spooled> {
  const path = join(tmpDir, `${randomBytes(16).toString('hex')}.upload`);
  // A high-water mark above the sniff size: the usual body arrives without waiting on 'drain'.
  const writer = createWriteStream(path, { flags: 'wx', mode: 0o600, highWaterMark: 256 * 1024 });
  let size = 0;
  const digest = createHash('sha256');
  let head: Buffer[] | null = [];
  let headBytes = 0;
  let sniffed: Sniffed | null = null;
  let refusal: Refusal | null = null;

  const decide = async (complete: boolean) => {
    const bytes = Buffer.concat(head ?? []);
    head = null;
    sniffed = await sniffFile(bytes, clientName, complete);
    if (!sniffed || (rules.kinds && !rules.kinds.has(sniffed.kind))) refusal = 'kind';
  };

  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (refusal) continue; // drain: the rest of the body must still be read
      size += chunk.length;
      if (size > rules.maxBytes) {
        refusal = 'too_large';
        continue;
      }
      if (head) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= SNIFF_BYTES) await decide(false);
        if (refusal) continue;
      }
      digest.update(chunk);
      if (!writer.write(chunk)) await once(writer, 'drain');
    }
    // busboy cuts a part at its own limit and flags it; that is too large as well.
    if (!refusal && (stream as { truncated?: boolean }).truncated) refusal = 'too_large';
    if (!refusal && size === 0) refusal = 'empty';
    if (!refusal && head) await decide(true);
    await closeWriter(writer);
    if (refusal || !sniffed) {
      await rm(path, { force: true });
      return { ok: false, refusal: refusal ?? 'kind' };
    }
    return { ok: true, path, size, sha256: digest.digest('hex'), sniffed };
  } catch (error) {
    writer.destroy();
    await rm(path, { force: true });
    throw error;
  }
}
