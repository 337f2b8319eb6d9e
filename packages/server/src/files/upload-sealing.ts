/**
 * An upload's bytes sealed at rest (issue #37 item 1): AES-256-GCM under the upload's own data key,
 * in chunks, so a file of the configured maximum size is sealed as it arrives and opened as it is
 * sent, never held whole in memory (one GCM message would need the whole file before its tag).
 *
 * Layout: `SVF1` | nonce prefix (8 random bytes) | chunks | end. Each chunk is CHUNK_BYTES of
 * plain bytes (the last one fewer) as ciphertext followed by its 16-byte tag; the end is the tag of
 * an empty chunk sealed as the last. A chunk's IV is the prefix and its index (big-endian uint32);
 * its additional data binds the file (the storage key), the index and whether it is the end, so
 * chunks cannot be reordered, moved to another file or cut off without the open failing. The end
 * being a chunk of its own lets every data chunk be sealed as its bytes arrive, piece by piece,
 * with no plain byte copied or held back.
 */
import { createCipheriv, createDecipheriv, randomBytes, type CipherGCM } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';

const MAGIC = Buffer.from('SVF1');
const PREFIX_BYTES = 8;
const HEADER_BYTES = MAGIC.length + PREFIX_BYTES;
const TAG_BYTES = 16;
/** Plain bytes per chunk: 64 KiB costs 16 bytes of tag each (0.02 %), and is what fs streams read. */
export const CHUNK_BYTES = 64 * 1024;

/** Seals a stream of plain bytes chunk by chunk; `update` and `final` answer what to write, in order. */
export interface ChunkSealer {
  update(plain: Buffer): Buffer[];
  /** The rest: the open chunk's tag and the end (and the header, for an empty file); call once, last. */
  final(): Buffer[];
}

/** The size of the sealed form of `size` plain bytes (what a store is told it receives). */
export function sealedSize(size: number): number {
  return HEADER_BYTES + size + TAG_BYTES * (Math.ceil(size / CHUNK_BYTES) + 1);
}

/** Bytes after the last whole chunk: a cut chunk (at most CHUNK_BYTES - 1 and its tag) and the end. */
const MAX_TAIL = CHUNK_BYTES - 1 + 2 * TAG_BYTES;

function iv(prefix: Buffer, index: number): Buffer {
  const out = Buffer.alloc(12);
  prefix.copy(out, 0);
  out.writeUInt32BE(index, PREFIX_BYTES);
  return out;
}

function chunkAad(binding: string, index: number, last: boolean): Buffer {
  return Buffer.from(`svc:file:${binding}:${index}:${last ? 1 : 0}`, 'utf8');
}


/** Bytes gathered until a whole chunk can be taken: a list, concatenated only when cut. */
class Pending {
  private parts: Buffer[] = [];
  length = 0;
  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.parts.push(bytes);
    this.length += bytes.length;
  }
  take(count: number): Buffer {
    const all = this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts, this.length);
    const taken = all.subarray(0, count);
    const rest = all.subarray(count);
    this.parts = rest.length > 0 ? [rest] : [];
    this.length = rest.length;
    return taken;
  }
}

/**
 * A sealer for one file under `key`, bound to `binding` (the storage key). Bytes are enciphered as
 * they arrive; a chunk's tag follows its CHUNK_BYTES-th byte, and `final` closes the open chunk and
 * adds the end.
 */
export function createChunkSealer(key: Buffer, binding: string): ChunkSealer {
  const prefix = randomBytes(PREFIX_BYTES);
  let index = 0;
  let filled = 0;
  let cipher: CipherGCM | null = null;
  let headerOut = false;
  let done = false;
  const begin = (out: Buffer[]) => {
    if (!headerOut) {
      headerOut = true;
      out.push(MAGIC, prefix);
    }
  };
  const close = (out: Buffer[]) => {
    const open = cipher as CipherGCM;
    const rest = open.final();
    if (rest.length > 0) out.push(rest);
    out.push(open.getAuthTag());
    cipher = null;
    filled = 0;
    index++;
  };
  return {
    update(plain) {
      if (done) throw new Error('sealer already finished');
      const out: Buffer[] = [];
      begin(out);
      for (let at = 0; at < plain.length; ) {
        if (!cipher) {
          cipher = createCipheriv('aes-256-gcm', key, iv(prefix, index));
          cipher.setAAD(chunkAad(binding, index, false));
        }
        const take = Math.min(CHUNK_BYTES - filled, plain.length - at);
        out.push(cipher.update(at === 0 && take === plain.length ? plain : plain.subarray(at, at + take)));
        filled += take;
        at += take;
        if (filled === CHUNK_BYTES) close(out);
      }
      return out;
    },
    final() {
      if (done) throw new Error('sealer already finished');
      done = true;
      const out: Buffer[] = [];
      begin(out);
      if (cipher) close(out);
      const end = createCipheriv('aes-256-gcm', key, iv(prefix, index));
      end.setAAD(chunkAad(binding, index, true));
      end.final();
      out.push(end.getAuthTag());
      return out;
    },
  };
}

/** Raised when stored bytes do not open: tampered with, truncated, or sealed under another key. */
export class SealedFileError extends Error {
  constructor(reason: string) {
    super(`sealed file does not open: ${reason}`);
  }
}

/** The plain bytes of a sealed stored file, as a stream; it fails when any chunk does not open. */
export function openSealedStream(sealed: Readable, key: Buffer, binding: string): Readable {
  const pending = new Pending();
  let prefix: Buffer | null = null;
  let index = 0;
  const open = (bytes: Buffer, last: boolean): Buffer => {
    if (bytes.length < TAG_BYTES) throw new SealedFileError('a chunk is cut short');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv(prefix as Buffer, index));
      decipher.setAAD(chunkAad(binding, index, last));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plain = Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]);
      index++;
      return plain;
    } catch {
      throw new SealedFileError(`chunk ${index} fails its check`);
    }
  };
  const opened = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      try {
        pending.push(chunk);
        if (!prefix) {
          if (pending.length < HEADER_BYTES) return callback();
          const head = pending.take(HEADER_BYTES);
          if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw new SealedFileError('not a sealed file');
          prefix = Buffer.from(head.subarray(MAGIC.length));
        }
        // More than a tail can hold: the next CHUNK_BYTES and tag are a whole chunk.
        while (pending.length > MAX_TAIL) this.push(open(pending.take(CHUNK_BYTES + TAG_BYTES), false));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    flush(callback) {
      try {
        if (!prefix) throw new SealedFileError('not a sealed file');
        // The tail: a cut chunk (none when the size is a multiple of CHUNK_BYTES), then the end.
        if (pending.length < TAG_BYTES) throw new SealedFileError('the end is cut off');
        const cut = pending.length > TAG_BYTES ? open(pending.take(pending.length - TAG_BYTES), false) : null;
        if (open(pending.take(TAG_BYTES), true).length !== 0) throw new SealedFileError('the end holds bytes');
        if (cut) this.push(cut);
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  sealed.once('error', (error) => opened.destroy(error));
  return sealed.pipe(opened);
}
