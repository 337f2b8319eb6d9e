/**
 * The container of `svc backup` (issue #37 item 2): a plain POSIX tar (ustar) file, so an
 * operator can list or unpack it with `tar` alone, written and read by streaming — a database
 * of gigabytes is never held in memory. Only regular files, names of at most 255 bytes (svc's
 * own names: `svc-backup.json`, `database/…`, `files/<form uid>/<random>.<ext>`).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

const BLOCK = 512;

function header(name: string, size: number): Buffer {
  const block = Buffer.alloc(BLOCK);
  const bytes = Buffer.from(name, 'utf8');
  let prefix = Buffer.alloc(0);
  let base = bytes;
  if (bytes.length > 100) {
    // ustar splits a long name at a slash: up to 155 bytes of directories, then up to 100.
    const cut = name.lastIndexOf('/', name.length - 1);
    prefix = Buffer.from(name.slice(0, cut), 'utf8');
    base = Buffer.from(name.slice(cut + 1), 'utf8');
    if (cut < 0 || prefix.length > 155 || base.length > 100) throw new Error(`backup: the name ${name} is too long for the archive`);
  }
  base.copy(block, 0);
  block.write('0000644\0', 100, 'ascii');
  block.write('0000000\0', 108, 'ascii');
  block.write('0000000\0', 116, 'ascii');
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write(`${Math.floor(Date.now() / 1000).toString(8).padStart(11, '0')}\0`, 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\0', 257, 'ascii');
  block.write('00', 263, 'ascii');
  prefix.copy(block, 345);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

export interface ArchiveWriter {
  /** Adds the file at `path` (its size now) under `name`. */
  addFile(name: string, path: string): Promise<void>;
  addText(name: string, text: string): Promise<void>;
  close(): Promise<void>;
}

export async function createArchive(path: string): Promise<ArchiveWriter> {
  await mkdir(dirname(path), { recursive: true });
  const out = await open(path, 'w', 0o600);
  let position = 0;
  const write = async (bytes: Buffer) => {
    await out.write(bytes, 0, bytes.length, position);
    position += bytes.length;
  };
  const pad = async (size: number) => {
    const rest = size % BLOCK;
    if (rest > 0) await write(Buffer.alloc(BLOCK - rest));
  };
  return {
    async addFile(name, source) {
      const { size } = await stat(source);
      await write(header(name, size));
      const input = await open(source, 'r');
      try {
        const chunk = Buffer.alloc(1 << 20);
        for (let done = 0; done < size; ) {
          const { bytesRead } = await input.read(chunk, 0, Math.min(chunk.length, size - done), done);
          if (bytesRead === 0) throw new Error(`backup: ${source} shrank while it was copied`);
          await write(chunk.subarray(0, bytesRead));
          done += bytesRead;
        }
      } finally {
        await input.close();
      }
      await pad(size);
    },
    async addText(name, text) {
      const bytes = Buffer.from(text, 'utf8');
      await write(header(name, bytes.length));
      await write(bytes);
      await pad(bytes.length);
    },
    async close() {
      await write(Buffer.alloc(BLOCK * 2));
      await out.sync();
      await out.close();
    },
  };
}

export interface ArchiveEntry {
  readonly name: string;
  readonly size: number;
  /** The entry's bytes. */
  open(): Readable;
  /** Writes the entry's bytes to `path` (directories made). */
  extract(path: string): Promise<void>;
}

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
}

/** The entries of the archive at `path`, in order. */
export async function readArchive(path: string): Promise<ArchiveEntry[]> {
  const input: FileHandle = await open(path, 'r');
  const entries: ArchiveEntry[] = [];
  try {
    const { size: total } = await input.stat();
    const block = Buffer.alloc(BLOCK);
    for (let position = 0; position + BLOCK <= total; ) {
      await input.read(block, 0, BLOCK, position);
      if (block.every((byte) => byte === 0)) break;
      if (field(block, 257, 6) !== 'ustar') throw new Error(`${path} is not an svc backup (not a tar archive)`);
      const prefix = field(block, 345, 155);
      const name = prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100);
      const size = parseInt(field(block, 124, 12).trim() || '0', 8);
      const start = position + BLOCK;
      if (!Number.isSafeInteger(size) || start + size > total) throw new Error(`${path} is cut short (entry ${name})`);
      const stream = (): Readable => (size === 0 ? Readable.from([]) : createReadStream(path, { start, end: start + size - 1 }));
      entries.push({
        name,
        size,
        open: stream,
        async extract(target) {
          await mkdir(dirname(target), { recursive: true });
          if (size === 0) await writeFile(target, '', { mode: 0o600 });
          else await pipeline(stream(), createWriteStream(target, { mode: 0o600 }));
        },
      });
      position = start + Math.ceil(size / BLOCK) * BLOCK;
    }
  } finally {
    await input.close();
  }
  return entries;
}
