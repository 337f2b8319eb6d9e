/** The `svc` command as a user runs it: a child process, real exit codes, real output. */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXAMPLE_FORMS_DIR } from './support/test-app.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const SVC = join(ROOT, 'packages/server/src/cli/svc-main.ts');
const scratch: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function svc(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return spawnSync(TSX, [SVC, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('svc forms check', () => {
  it('passes the example forms and names them', () => {
    const run = svc(['forms', 'check', EXAMPLE_FORMS_DIR]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/4 form\(s\) OK/);
    expect(run.stdout).toContain('kitchen-sink');
    expect(run.stdout).toContain('job-application');
  });

  it('lists every problem of every file with file, line and path, and exits 1', () => {
    const dir = tempDir('svc-cli-forms-');
    writeFileSync(join(dir, 'one.yaml'), 'name: One\nfields:\n  - { type: text, handle: a, label: A, maxLength: 0 }\n');
    writeFileSync(join(dir, 'two.yaml'), 'name: Two\nsettings:\n  submissionTitleFormat: "{{ oops"\nfields:\n  - { type: confirmation, handle: c, label: C, target: nope }\n');
    const run = svc(['forms', 'check', dir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/one\.yaml:3:\d+ fields\[0\]\.maxLength/);
    expect(run.stderr).toMatch(/two\.yaml:\d+:\d+ settings\.submissionTitleFormat/);
    expect(run.stderr).toMatch(/two\.yaml:\d+:\d+ fields\[0\]\.target/);
    expect(run.stderr).toMatch(/3 problem\(s\)/);
  });

  it('prints usage and exits 2 for an unknown command', () => {
    const run = svc(['frobnicate']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Usage: svc/);
  });
});

describe('svc serve', () => {
  it('refuses to start without a secret outside development, listing the problem', () => {
    const run = svc(['serve', '--config', join(ROOT, 'examples/svc.config.yaml')], {
      cwd: tempDir('svc-cli-nosecret-'),
      env: { NODE_ENV: 'production', SVC_SECRET: '' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Invalid configuration:[\s\S]*secret/);
  });

  it('starts the demo from any directory with SQLite under ./data and prints the URLs a newcomer needs', async () => {
    const cwd = tempDir('svc-cli-demo-');
    const child = spawn(TSX, [SVC, 'serve', '--demo'], { cwd, env: { ...process.env, PORT: '0', SVC_LOG__LEVEL: 'silent' } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      await new Promise<void>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner; output so far:\n${out}`)), 25_000);
        child.stdout.on('data', () => {
          if (/kitchen-sink .*manifest/.test(out)) {
            clearTimeout(timer);
            resolvePromise();
          }
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
      });
      const base = /svc is running at (http:\/\/localhost:\d+)/.exec(out)?.[1];
      expect(base).toBeDefined();
      expect(out).toContain(`database: sqlite ${join(cwd, 'data', 'svc.db')}`);
      expect(out).toContain(`CSRF token: GET ${base}/svc/tokens`);
      const res = await fetch(`${base}/svc/api/forms/contact/manifest`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { form: { handle: string } } }).data.form.handle).toBe('contact');
    } finally {
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }, 40_000);
});
