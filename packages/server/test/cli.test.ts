/** The `svc` command as a user runs it: a child process, real exit codes, real output. */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_FORMS_DIR } from './support/test-app.js';
import { REPO_ROOT as ROOT, SVC_NODE_ARGS, runSvc, type CommandRun } from './support/svc-command.js';

const scratch: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/**
 * Each run loads the whole built CLI, about 2 s of CPU (5 s from source through tsx, when one took
 * 25-48 s on two cores shared with other work), so the deadline (under vitest's test timeout) only
 * catches a command that hangs.
 */
const RUN_TIMEOUT_MS = 90_000;

// Every test runs its own commands in its own directory (or only reads the checkout), so the
// suites are concurrent: the runs overlap instead of queueing one CPU-bound load after another.

function svc(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}) {
  return runSvc(args, { cwd: options.cwd ?? ROOT, env: { ...process.env, ...options.env }, timeoutMs: RUN_TIMEOUT_MS });
}

afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe.concurrent('svc forms check', () => {
  it('passes the example forms and names them', async () => {
    const run = await svc(['forms', 'check', EXAMPLE_FORMS_DIR]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/5 form\(s\) OK/);
    expect(run.stdout).toContain("donation");
    expect(run.stdout).toContain('kitchen-sink');
    expect(run.stdout).toContain('job-application');
  });

  it('lists every problem of every file with file, line and path, and exits 1', async () => {
    const dir = tempDir('svc-cli-forms-');
    writeFileSync(join(dir, 'one.yaml'), 'name: One\nfields:\n  - { type: text, handle: a, label: A, maxLength: 0 }\n');
    writeFileSync(join(dir, 'two.yaml'), 'name: Two\nsettings:\n  submissionTitleFormat: "{{ oops"\nfields:\n  - { type: confirmation, handle: c, label: C, target: nope }\n');
    const run = await svc(['forms', 'check', dir]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/one\.yaml:3:\d+ fields\[0\]\.maxLength/);
    expect(run.stderr).toMatch(/two\.yaml:\d+:\d+ settings\.submissionTitleFormat/);
    expect(run.stderr).toMatch(/two\.yaml:\d+:\d+ fields\[0\]\.target/);
    expect(run.stderr).toMatch(/3 problem\(s\)/);
  });

  it('prints its version for --version and version (issue #31)', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/server/package.json'), 'utf8')) as { version: string };
    for (const run of await Promise.all([svc(['--version']), svc(['version'])])) {
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`svc ${version}\n`);
    }
  });

  it('prints usage and exits 2 for an unknown command', async () => {
    const run = await svc(['frobnicate']);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Usage: svc/);
  });
});

describe.concurrent('every CLI failure is one clear line (issue #11)', () => {
  const oneLine = (run: CommandRun) => {
    const lines = run.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'));
    expect(lines, run.stderr).toHaveLength(1);
    expect(run.stderr).not.toMatch(/\n\s+at |\.ts:\d+/);
    return lines[0] as string;
  };

  it('migrates without a secret: a command that serves nobody needs none', async () => {
    const cwd = tempDir('svc-cli-migrate-');
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
    delete env.SVC_SECRET;
    delete env.SVC_SECRET_FILE;
    const run = await runSvc(['migrate'], { cwd, env, timeoutMs: RUN_TIMEOUT_MS });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Applied: /);
  });

  it('names an unknown flag', async () => {
    const run = await svc(['serve', '--bogus']);
    expect(run.status).toBe(2);
    expect(oneLine(run)).toMatch(/^svc: Unknown option '--bogus'.*svc --help/);
  });

  it('says when forms check has no directory to check', async () => {
    const run = await svc(['forms', 'check'], { cwd: tempDir('svc-cli-noforms-') });
    expect(run.status).toBe(1);
    expect(oneLine(run)).toMatch(/^svc: the forms directory .*forms does not exist/);
  });

  it('says which export path cannot be written', async () => {
    const cwd = tempDir('svc-cli-export-');
    const run = await svc(['export', '--demo', '--form', 'contact', '--format', 'csv', '--out', join(cwd, 'missing/dir/x.csv')], { cwd });
    expect(run.status).toBe(1);
    expect(oneLine(run)).toMatch(/^svc: cannot open .*missing\/dir\/x\.csv\.partial: no such file or directory$/);
  });

  it('says the database cannot be reached', async () => {
    const run = await svc(['migrate'], { cwd: tempDir('svc-cli-pg-'), env: { SVC_DATABASE__URL: 'postgres://svc@127.0.0.1:1/svc' } });
    expect(run.status).toBe(1);
    expect(oneLine(run)).toMatch(/^svc: cannot reach the database or service at 127\.0\.0\.1:1 \(ECONNREFUSED\)/);
  });

  it('refuses a database URL of a kind svc does not speak, instead of making a file of that name', async () => {
    const cwd = tempDir('svc-cli-mysql-');
    const run = await svc(['migrate'], { cwd, env: { SVC_DATABASE__URL: 'mysql://x' } });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/database\.url: "mysql" is not a database svc speaks/);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('reports schema, origin and secret problems of a config in one list', async () => {
    const cwd = tempDir('svc-cli-config-');
    const file = join(cwd, 'svc.config.yaml');
    writeFileSync(file, 'server: { port: "nope" }\nheadless: { allowedOrigins: ["not an origin"] }\n');
    const run = await svc(['serve', '--config', file], { cwd, env: { NODE_ENV: 'production', SVC_SECRET: '' } });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/server\.port/);
    expect(run.stderr).toMatch(/headless\.allowedOrigins\.0/);
    expect(run.stderr).toMatch(/secret: must NOT have fewer than 32 characters/);
  });
});

describe.concurrent('svc serve', () => {
  it('refuses to start without a secret outside development, listing the problem', async () => {
    const run = await svc(['serve', '--config', join(ROOT, 'examples/svc.config.yaml')], {
      cwd: tempDir('svc-cli-nosecret-'),
      env: { NODE_ENV: 'production', SVC_SECRET: '' },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/Invalid configuration:[\s\S]*secret/);
  });

  it('starts the demo from any directory with SQLite under ./data and prints the URLs a newcomer needs', async () => {
    const cwd = tempDir('svc-cli-demo-');
    const child = spawn(process.execPath, [...SVC_NODE_ARGS, 'serve', '--demo'], { cwd, env: { ...process.env, PORT: '0', SVC_LOG__LEVEL: 'silent' } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    try {
      await new Promise<void>((resolvePromise, reject) => {
        const timer = setTimeout(() => reject(new Error(`no banner; output so far:\n${out}`)), RUN_TIMEOUT_MS);
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
      // issue #31: the banner names the newcomer's next stops, and each answers.
      for (const path of ['/svc/api/docs', '/svc/console/']) {
        expect(out).toContain(`${base}${path}`);
        expect((await fetch(`${base}${path}`)).status).toBe(200);
      }
      expect(out).toContain(`GraphQL:  POST ${base}/graphql`);
      const res = await fetch(`${base}/svc/api/forms/contact/manifest`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { form: { handle: string } } }).data.form.handle).toBe('contact');
    } finally {
      child.removeAllListeners('exit');
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  }, 2 * RUN_TIMEOUT_MS);
});
