/**
 * The README's `@svc/client` snippet (under "From your own front end") runs as written (issue #31): a Node process imports
 * `@svc/client` by its package name and runs the block against a live server, only the address
 * changed. It passes no fetch of its own, so it proves the client keeps the CSRF cookie itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startLiveServer, type LiveServer } from './support/live-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** The first ```js block after `marker`. */
function jsBlock(marker: string): string {
  const from = README.indexOf(marker);
  if (from < 0) throw new Error(`README has no "${marker}"`);
  const start = README.indexOf('```js\n', from) + '```js\n'.length;
  return README.slice(start, README.indexOf('```\n', start));
}

describe('the README @svc/client snippet', () => {
  let server: LiveServer;
  let dir: string;
  beforeAll(async () => {
    server = await startLiveServer();
    // Inside the checkout, so that `@svc/client` resolves as it does for a project that installed it.
    mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
    dir = mkdtempSync(join(ROOT, 'node_modules/.cache/svc-readme-'));
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs in Node as written: the session steps, validates on the server and saves a draft', async () => {
    const snippet = jsBlock('## From your own front end').replaceAll('http://localhost:3000', server.baseUrl);
    const file = join(dir, 'snippet.mjs');
    writeFileSync(file, `${snippet}\nconsole.log(JSON.stringify({ status: step.status, draft: saved.draft }));\n`);
    const child = spawn(process.execPath, ['--conditions=svc-source', '--import', TSX_LOADER, file], { cwd: dir });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, out).toBe(0);
    const last = JSON.parse(out.trim().split('\n').at(-1) as string) as { status: string; draft: { token: string; key: string } };
    expect(['page_valid', 'validation_failed']).toContain(last.status);
    expect(last.draft.token).toMatch(/^[A-Za-z0-9]{40}$/);
    const drafts = await server.svc.context.database.db.selectFrom('svc_drafts').select('id').execute();
    expect(drafts).toHaveLength(1);
  });
});
