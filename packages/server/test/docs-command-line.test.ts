/**
 * The `npm run svc -- …` blocks of the docs run as written (issue #33): docs/command-line.md's
 * demo commands, docs/console.md's password hash and docs/profiles.md's login token and signed
 * link. The demo commands run in a project of their own, so `--demo` keeps its data under that
 * project's ./data and never touches the checkout's; its `svc` script is the checkout's CLI as
 * built (dist/, which vitest's global setup has just built from these sources), since each run of
 * the checkout's own script pays tsx's loader (about twice the CPU of the built CLI, eight runs
 * here). The password hash, which reads stdin and writes nothing, runs in the checkout itself
 * through its own script, tsx and all, so that script is run as written too. One demo server,
 * started as a person starts it, answers the profiles page's curl.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, commandBlocks } from './support/docs-blocks.js';
import { SVC_MAIN, runCommand } from './support/svc-command.js';
import { killAllServers, startServer, type ServerProcess } from './support/server-process.js';

const SVC_SCRIPT = 'tsx --conditions=svc-source packages/server/src/cli/svc-main.ts';

describe('the command-line blocks of the docs', () => {
  let project: string;
  let server: ServerProcess | undefined;
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'svc-docs-cli-'));
    const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    // The checkout's own script is the source of the built CLI the project's script runs.
    expect(scripts.svc).toBe(SVC_SCRIPT);
    const svc = `node ${JSON.stringify(SVC_MAIN)}`;
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'svc-docs-project', private: true, type: 'module', scripts: { svc } }, null, 2));
    symlinkSync(join(REPO, 'node_modules'), join(project, 'node_modules'));
  });
  afterAll(async () => {
    await server?.stop();
    await killAllServers();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  async function run(script: string, input = '', cwd = project) {
    const result = await runCommand('bash', ['-euo', 'pipefail', '-c', script], { cwd, timeoutMs: 150_000, input });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    return result.stdout;
  }

  it('runs docs/command-line.md as written: migrate, forms check, export, the submissions table and the OpenAPI document', async () => {
    const [demo] = commandBlocks('docs/command-line.md');
    const out = await run(demo as string);
    expect(out).toMatch(/\d+ form\(s\) OK/);
    expect(readFileSync(join(project, 'contact.csv'), 'utf8').split('\n')[0]).toMatch(/^\uFEFF?id,uid,title,status/);
    expect((JSON.parse(readFileSync(join(project, 'openapi.json'), 'utf8')) as { openapi: string }).openapi).toMatch(/^3\.1/);
    expect(existsSync(join(project, 'data'))).toBe(true);
  }, 300_000);

  it('runs docs/console.md as written in the checkout, through its own script: a password read from the terminal becomes a passwordHash', async () => {
    const [hash] = commandBlocks('docs/console.md');
    const out = await run(hash as string, 'correct horse battery staple\n', REPO);
    expect(out.trim()).toMatch(/^scrypt\$16384\$8\$1\$/);
  });

  it("runs docs/profiles.md as written against the demo: a member's login token, then a signed feedback link", async () => {
    server = await startServer({ demo: true, cwd: project, args: ['--port', '0'], name: 'docs-demo' });
    const [login, sign] = commandBlocks('docs/profiles.md');
    const out = await run((login as string).replaceAll('http://localhost:3000', server.base));
    expect(JSON.parse(out.trim())).toMatchObject({ defaultValues: { firstName: 'Kim' }, lockedFields: { email: 'kim@example.test' } });
    const signed = (await run(sign as string)).trim().split('\n');
    expect(signed[0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(signed.at(-1)).toContain(signed[0]);
  }, 300_000);
});
