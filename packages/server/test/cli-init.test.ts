/**
 * `svc init [DIR]` (issue #33) as a user runs it: the files it writes, a config that loads back to
 * the defaults through the real loader, a refusal to overwrite, and a project that `svc forms
 * check` passes and `svc serve` serves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../src/config/config-loader.js';
import { ConfigSchema } from '../src/config/config-schema.js';
import { runSvc } from './support/svc-command.js';
import { killAllServers, startServer } from './support/server-process.js';

/** A CLI run from source costs about 5 s of CPU; the deadline only catches a hang. */
const RUN_TIMEOUT_MS = 90_000;
const scratch = mkdtempSync(join(tmpdir(), 'svc-init-'));
const project = join(scratch, 'my forms'); // missing, and with a space: init creates it
let init: Awaited<ReturnType<typeof runSvc>>;

/** The parent's SVC_* (a developer's SVC_SECRET) would hide whether the project's own files work. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SVC_') && key !== 'PORT'));
}

beforeAll(async () => {
  init = await runSvc(['init', 'my forms'], { cwd: scratch, env: cleanEnv(), timeoutMs: RUN_TIMEOUT_MS });
}, 120_000);

afterAll(async () => {
  await killAllServers();
  rmSync(scratch, { recursive: true, force: true });
});

describe('svc init', () => {
  it('writes the config, a 0600 secret, a contact form and a .gitignore, and says what comes next', () => {
    expect(init.stderr).toBe('');
    expect(init.status).toBe(0);
    for (const file of ['svc.config.yaml', '.svc-secret', 'forms/contact.yaml', '.gitignore']) expect(init.stdout).toContain(file);
    expect(init.stdout).toMatch(/Next:\n {2}cd "my forms"\n {2}npx svc serve\n/);
    expect(init.stdout).toContain('http://localhost:3000/svc/api/forms/contact/manifest');
    expect(statSync(join(project, '.svc-secret')).mode & 0o777).toBe(0o600);
    const secret = readFileSync(join(project, '.svc-secret'), 'utf8').trim();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(readFileSync(join(project, 'svc.config.yaml'), 'utf8')).not.toContain(secret);
    const ignored = readFileSync(join(project, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['/data/', '/.svc-secret']));
  });

  it('writes every config key, described, and the file loads back through the loader to the defaults', () => {
    const text = readFileSync(join(project, 'svc.config.yaml'), 'utf8');
    const written = parseYaml(text) as Record<string, unknown>;
    expect(Object.keys(written).sort()).toEqual(Object.keys(ConfigSchema.properties).sort());
    expect(text).toContain(`# ${ConfigSchema.properties.dataDir.description}`);
    expect(text).toMatch(/# Port to listen on; the PORT environment variable overrides it\.\n\s+port: 3000\n/);
    const loaded = loadConfig({ file: join(project, 'svc.config.yaml'), env: {} });
    // The same loader with no file at all, from the project's directory, is every default.
    const defaults = loadConfig({
      file: null,
      env: {},
      values: {
        secret: loaded.secret,
        secretFile: join(project, '.svc-secret'),
        dataDir: join(project, 'data'),
        forms: { dir: join(project, 'forms') },
        notifications: { templatesDir: join(project, 'templates') },
        headless: { forms: { contact: { exposeManifest: true, allowSubmit: true } } },
      },
    });
    expect(loaded).toEqual(defaults);
    expect(loaded.secret).toBe(readFileSync(join(project, '.svc-secret'), 'utf8').trim());
  });

  it('refuses to overwrite: a second run, or a directory holding one of its files, changes nothing', async () => {
    const config = readFileSync(join(project, 'svc.config.yaml'), 'utf8');
    const again = await runSvc(['init', project], { env: cleanEnv(), timeoutMs: RUN_TIMEOUT_MS });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/refusing to overwrite .*svc\.config\.yaml.*\.svc-secret.*contact\.yaml.*\.gitignore/);
    expect(readFileSync(join(project, 'svc.config.yaml'), 'utf8')).toBe(config);
    const existing = join(scratch, 'existing');
    mkdirSync(existing);
    writeFileSync(join(existing, '.gitignore'), 'mine\n');
    const refused = await runSvc(['init'], { cwd: existing, env: cleanEnv(), timeoutMs: RUN_TIMEOUT_MS });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(join(existing, '.gitignore'));
    expect(readFileSync(join(existing, '.gitignore'), 'utf8')).toBe('mine\n');
    expect(() => statSync(join(existing, 'svc.config.yaml'))).toThrow(/ENOENT/);
  });

  it('makes a project `svc forms check` passes, from its directory with no arguments', async () => {
    const check = await runSvc(['forms', 'check'], { cwd: project, env: cleanEnv(), timeoutMs: RUN_TIMEOUT_MS });
    expect(check.stderr).toBe('');
    expect(check.stdout).toMatch(/1 form\(s\) OK in .*: contact/);
  });

  it('makes a project `svc serve` serves: the contact manifest answers, with no secret in the environment', async () => {
    const server = await startServer({ cwd: project, args: ['--port', '0'], name: 'init project' });
    const manifest = await fetch(`${server.base}/svc/api/forms/contact/manifest`);
    expect(manifest.status, server.output()).toBe(200);
    const body = (await manifest.json()) as { fields?: unknown };
    expect(JSON.stringify(body)).toMatch(/firstName.*lastName.*email.*message/);
    expect(server.output()).toContain(join(project, 'data'));
    // A clean SIGTERM exit; the drain may wait out the keep-alive connection fetch left open.
    expect((await server.stop(30_000)).code).toBe(0);
  }, 120_000);
});
