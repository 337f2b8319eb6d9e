/** FileStore on the local disk: one file per key under `dir`, written whole or not at all. */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { assertStorageKey, type FileStore } from './file-store.js';

export function createDiskFileStore(dir: string): FileStore {
  // Keys share a directory per form: creating it once per process saves a syscall chain per file.
  const made = new Set<string>();
  const ensureDir = async (path: string) => {
    const parent = dirname(path);
    if (made.has(parent)) return;
    await mkdir(parent, { recursive: true });
    made.add(parent);
  };
  /** Runs `write` in the key's directory; re-creates it once if it vanished since it was made. */
  const inDir = async <T>(path: string, write: () => Promise<T>): Promise<T> => {
    await ensureDir(path);
    try {
      return await write();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      made.delete(dirname(path));
      await ensureDir(path);
      return write();
    }
  };
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return join(dir, ...key.split('/'));
  };
  return {
    name: 'disk',
    async put(key, body) {
      const path = pathOf(key);
      await ensureDir(path);
      // Written beside its final name and renamed, so a reader never sees half a file.
      const partial = `${path}.${randomBytes(6).toString('hex')}.part`;
      try {
        await pipeline(body, createWriteStream(partial, { flags: 'wx', mode: 0o600 }));
        await rename(partial, path);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
    },
    create(key) {
      const path = pathOf(key);
      return inDir(path, () => open(path, 'wx', 0o600));
    },
    async get(key) {
      const path = pathOf(key);
      const found = await stat(path).then((s) => s.isFile(), () => false);
      return found ? createReadStream(path) : null;
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async close() {},
  };
}
