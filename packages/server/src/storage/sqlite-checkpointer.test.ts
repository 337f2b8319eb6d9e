import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle } from './database-factory.js';

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
