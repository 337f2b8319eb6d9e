import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import SqliteDatabase from 'better-sqlite3';
import { createDatabase, type DatabaseHandle } from './database-factory.js';
import { startCheckpointer } from './sqlite-checkpointer.js';

describe('the SQLite checkpointer thread', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-checkpoint-'));
    handle = createDatabase({ url: null, dataDir: dir });
  });
  afterAll(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed pages from the WAL into the database file by itself, off the writer', async () => {
    await sql`create table filler (body text not null)`.execute(handle.db);
    // About 500 pages: far below the main connection's own checkpoint threshold once the thread
    // is up (20,000 pages), so only the thread can move them into svc.db.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await handle.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 500; i += 1) await sql`insert into filler (body) values (${'x'.repeat(4000)})`.execute(trx);
    });
    const file = join(dir, 'svc.db');
    const before = statSync(file).size;
    const deadline = Date.now() + 5_000;
    while (statSync(file).size < before + 1_000_000 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(statSync(file).size).toBeGreaterThan(before + 1_000_000);
  });
});

describe('the SQLite checkpointer under writes that never pause', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-checkpoint-restart-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has the writer finish its checkpoint, so the WAL starts over instead of growing to the safety net', async () => {
    const file = join(dir, 'svc.db');
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.exec('create table filler (body text not null)');
    const restartPages = 200;
    const checkpointer = startCheckpointer(sqlite, file, { restartPages });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const insert = sqlite.prepare('insert into filler (body) values (?)');
      const body = 'x'.repeat(3000);
      // A row of nearly a page a commit, five commits a millisecond with a turn of the event loop between them
      // (as requests arrive), 5,000 in all: a checkpoint beside them almost never finds the WAL
      // without a new commit, so without the hand-over the WAL holds every frame.
      for (let i = 0; i < 5_000; i += 5) {
        for (let j = 0; j < 5; j += 1) insert.run(body);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      // The WAL file keeps its largest size: a start-over reuses it from its first frame. Each
      // commit writes three pages (its leaf, the interior page, page 1 with the database's size):
      // without the hand-over the WAL holds all 15,000 frames. With it, the WAL holds what comes
      // between the worker's ticks, which a loaded machine delays (3,300 frames seen in CI).
      const frames = statSync(`${file}-wal`).size / (4096 + 24);
      expect(frames).toBeLessThan(7_500);
      expect(sqlite.prepare('select count(*) as n from filler').get()).toEqual({ n: 5_000 });
    } finally {
      await checkpointer.stop();
      sqlite.close();
    }
  });
});
