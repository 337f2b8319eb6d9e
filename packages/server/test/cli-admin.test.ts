/** `svc export`, `svc submissions list` and `svc purge` as an operator runs them: child processes, real files. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config/config-loader.js';
import { ADMIN_FORMS_DIR, seed } from './support/admin-fixture.js';
import { TEST_SECRET, type TestApp } from './support/test-app.js';
import { runSvc } from './support/svc-command.js';


describe('svc export, submissions list and purge', () => {
  let dir: string;
  let configFile: string;

  function svc(args: readonly string[]) {
    return runSvc([...args, '--config', configFile], { cwd: dir, timeoutMs: 90_000 });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-cli-admin-'));
    configFile = join(dir, 'svc.config.yaml');
    writeFileSync(
      configFile,
      JSON.stringify({ secret: TEST_SECRET, dataDir: join(dir, 'data'), forms: { dir: ADMIN_FORMS_DIR, watch: false }, log: { level: 'silent' }, retention: { purgeAfterDays: 30 } }),
    );
    const app = await buildApp(loadConfig({ file: configFile, env: {} }), { logger: false });
    const svcApp = app as unknown as TestApp;
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await seed(svcApp, 'notes', { title: 'Ann', values: { name: 'Ann', email: 'ann@example.test', topics: ['alpha'] }, createdAt: '2026-11-01T09:00:00.000Z' });
    await seed(svcApp, 'notes', { title: 'Bob\u001b[31m red', values: { name: '=HYPERLINK("x")' }, status: 'closed', createdAt: '2026-11-02T09:00:00.000Z' });
    await seed(svcApp, 'notes', { title: 'Spam', values: { name: 'Spam' }, isSpam: true, createdAt: '2026-11-03T09:00:00.000Z' });
    for (let i = 0; i < 3; i++) await seed(svcApp, 'other', { title: `old ${i}`, createdAt: old });
    await app.close();
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  // Each run is a process that loads the whole CLI; the four that only read run side by side
  // (each writes its own file, if any), and the purge, which deletes, after them.
  it.concurrent('exports CSV to a file with the API exporter and reports the row count', async () => {
    const out = join(dir, 'notes.csv');
    const run = await svc(['export', '--form', 'notes', '--format', 'csv', '--out', out, '--bom']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(`Exported 2 submission(s) of notes to ${out} (csv).\n`);
    // stderr is not a terminal here, so no progress bar is drawn.
    expect(run.stderr).toBe('');
    const text = readFileSync(out, 'utf8');
    expect(text.startsWith('\uFEFFid,uid,title,status,isSpam,createdAt,name,email,agree,topics,amount,refs,attachment,client,clientVersion,sourceUrl\r\n')).toBe(true);
    expect(text).toContain(`"'=HYPERLINK(""x"")"`);
    expect(text).toContain('"[""alpha""]"');
    expect(existsSync(`${out}.partial`)).toBe(false);
  });

  it.concurrent('exports JSON Lines with the same filters as the API', async () => {
    const out = join(dir, 'spam.jsonl');
    const run = await svc(['export', '--form', 'notes', '--format', 'jsonl', '--spam', 'true', '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { title: string; isSpam: boolean });
    expect(lines).toEqual([expect.objectContaining({ title: 'Spam', isSpam: true })]);
  });

  it.concurrent('fails clearly for an unknown form, a bad filter or missing flags, leaving no file', async () => {
    const out = join(dir, 'nope.csv');
    // Three processes that read and refuse, so they run side by side (each loads the whole CLI).
    const [unknown, bad, missing] = await Promise.all([
      svc(['export', '--form', 'nope', '--out', out]),
      svc(['export', '--form', 'notes', '--format', 'xlsx', '--out', out]),
      svc(['export', '--form', 'notes']),
    ]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/Form "nope" not found/);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/"format" must be csv or jsonl/);
    expect(existsSync(out)).toBe(false);
    expect(missing.status).toBe(2);
  });

  it.concurrent('lists submissions as a table, newest first, with control characters made harmless', async () => {
    const [run, limited] = await Promise.all([svc(['submissions', 'list', '--form', 'notes']), svc(['submissions', 'list', '--form', 'notes', '--limit', '1'])]);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+created\s+status\s+spam\s+title$/);
    expect(lines[2]).toMatch(/^\d+\s+2026-11-03 09:00:00\s+open\s+yes\s+Spam$/);
    expect(lines[3]).toMatch(/^\d+\s+2026-11-02 09:00:00\s+closed\s+no\s+Bob \[31m red$/);
    expect(run.stdout).not.toContain('\u001b');
    expect(lines.at(-1)).toBe('3 submission(s)');
    expect(limited.stdout.trimEnd().split('\n').at(-1)).toBe('1 submission(s) (more: raise --limit)');
  });

  it('purges submissions past their retention and says how many', async () => {
    const run = await svc(['purge']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/3 submission\(s\) past their retention and 0 spam submission\(s\)/);
  });
});
