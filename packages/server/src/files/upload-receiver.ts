/**
 * Receives one file stream: counts bytes as they arrive, sniffs the first SNIFF_BYTES, and only
 * then opens the file it writes to (where, the caller decides from what was sniffed: the store's
 * own place for the file, or a private spool file), so no more than the head is held in memory, a
 * refused kind writes nothing, and a file that breaks a rule later is removed as soon as it does.
 * The stream is always read to its end (multipart parts follow each other in one body), but
 * nothing past a broken rule is written anywhere.
 */
import type { FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { SNIFF_BYTES, sniffFile, type FileKind, type Sniffed } from './file-kinds.js';
import type { ChunkSealer } from './upload-sealing.js';

export interface UploadRules {
  readonly maxBytes: number;
  /** Null accepts every kind. */
  readonly kinds: ReadonlySet<FileKind> | null;
}

export type Refusal = 'too_large' | 'kind' | 'empty';

export type Spooled =
  | { readonly ok: true; readonly size: number; readonly sha256: string | null; readonly sniffed: Sniffed }
  | { readonly ok: false; readonly refusal: Refusal };

/** Where an accepted file is written: an open, new file, and how to remove it if the upload fails. */
export interface SpoolTarget {
  readonly handle: FileHandle;
  /**
   * Seals the bytes on their way to the file (issue #37): what is sniffed, counted and digested
   * is the plain content, what reaches the disk is only ever sealed.
   */
  readonly seal?: ChunkSealer;
  discard(): Promise<void>;
}

/** All of `chunk` at the file's current end (a write may take fewer bytes than it was given). */
async function writeAll(handle: FileHandle, chunk: Buffer): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
}

/**
 * Reads `stream` to its end. A file that passes the sniff is written to `open(sniffed)`, chunk by
 * chunk as it arrives (the network buffers behind a write); the answer is what was stored, with
 * its SHA-256 when `digest` asks for it, or why nothing was (a target already opened is discarded).
 */
export async function spoolUpload(
  stream: Readable,
  clientName: string,
  rules: UploadRules,
  open: (sniffed: Sniffed) => Promise<SpoolTarget>,
  options: { readonly digest: boolean },
): Promise<Spooled> {
  // Set by decide() inside the loop; declared wide so the checks below are not narrowed to null.
  let target = null as SpoolTarget | null;
  let closed = false;
  let size = 0;
  const digest = options.digest ? createHash('sha256') : null;
  let head: Buffer[] | null = [];
  let headBytes = 0;
  let sniffed: Sniffed | null = null;
  let refusal: Refusal | null = null;

  const write = async (chunk: Buffer) => {
    digest?.update(chunk);
    const { handle, seal } = target as SpoolTarget;
    if (!seal) return writeAll(handle, chunk);
    for (const piece of seal.update(chunk)) await writeAll(handle, piece);
  };
  const decide = async (complete: boolean) => {
    const bytes = Buffer.concat(head ?? []);
    head = null;
    sniffed = await sniffFile(bytes, clientName, complete);
    if (!sniffed || (rules.kinds && !rules.kinds.has(sniffed.kind))) {
      refusal = 'kind';
      return;
    }
    target = await open(sniffed);
    await write(bytes);
  };
  const close = async () => {
    if (closed) return;
    closed = true;
    await target?.handle.close();
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
        continue;
      }
      await write(chunk);
    }
    // busboy cuts a part at its own limit and flags it; that is too large as well.
    if (!refusal && (stream as { truncated?: boolean }).truncated) refusal = 'too_large';
    if (!refusal && size === 0) refusal = 'empty';
    if (!refusal && head) await decide(true);
    // The sealer holds the last chunk back until it knows it is the last.
    if (!refusal && target?.seal) for (const piece of target.seal.final()) await writeAll(target.handle, piece);
    await close();
    if (refusal || !sniffed) {
      await target?.discard();
      return { ok: false, refusal: refusal ?? 'kind' };
    }
    return { ok: true, size, sha256: digest?.digest('hex') ?? null, sniffed };
  } catch (error) {
    await close().catch(() => undefined);
    await target?.discard();
    throw error;
  }
}
