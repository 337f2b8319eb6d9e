/**
 * `svc backup` and `svc restore` as an operator runs them (issue #37 item 2), on a project with the
 * default config (SQLite under ./data, forms under ./forms): the tar lists as tar does, a restore of it prints what it
 * did and how many erasures it re-applied from the ledger, and a file that is no backup is refused
 * with a readable message. What a restore brings back and erases again is in privacy-backup.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runSvc } from './support/svc-command.js';

const RUN_TIMEOUT_MS = 90_000;
const cwd = mkdtempSync(join(tmpdir(), 'svc-cli-backup-'));

describe('svc backup and svc restore on the command line', () => {
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));
  const svc = (args: string[]) => runSvc(args, { cwd, env: { ...process.env, SVC_SECRET: 'cli-backup-secret-0123456789-abcdefghijklmnop' }, timeoutMs: RUN_TIMEOUT_MS });

  it('backs up the database and the stored files into one tar, and restores it', { timeout: 240_000 }, async () => {
    // A project as svc init makes it has its forms directory (the restore starts the service once).
    mkdirSync(join(cwd, 'forms'));
    expect((await svc(['migrate'])).status).toBe(0);
    mkdirSync(join(cwd, 'data/files/f1'), { recursive: true });
    writeFileSync(join(cwd, 'data/files/f1/a.png'), 'sealed bytes stand-in');
    const backup = await svc(['backup', 'backups/one.tar']);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toBe(`Backed up the SQLite database and 1 stored file to ${join(cwd, 'backups/one.tar')}.\n`);
    expect(execFileSync('tar', ['tf', join(cwd, 'backups/one.tar')], { encoding: 'utf8' }).trim().split('\n')).toEqual(['svc-backup.json', 'database/svc.db', 'files/f1/a.png']);
    rmSync(join(cwd, 'data/files'), { recursive: true });
    const restored = await svc(['restore', 'backups/one.tar']);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/^Restored the SQLite database of \d{4}-\d\d-\d\dT[^ ]+ and 1 stored file\(s\) from .+one\.tar\.\nRe-applied 0 erasures from the erasure ledger\.\n$/);
    expect(execFileSync('cat', [join(cwd, 'data/files/f1/a.png')], { encoding: 'utf8' })).toBe('sealed bytes stand-in');
  });

  it('refuses a file that is not a backup, and a missing file name', { timeout: 240_000 }, async () => {
    writeFileSync(join(cwd, 'not-a-backup.tar'), 'hello');
    const refused = await svc(['restore', 'not-a-backup.tar']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/^svc restore: .*not-a-backup\.tar is not an svc backup/);
    expect((await svc(['backup'])).status).toBe(2);
  });
});
