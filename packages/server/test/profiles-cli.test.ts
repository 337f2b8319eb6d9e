/**
 * `svc profiles sign` and `svc profiles login-token` as a site owner runs them (issue #13): child
 * processes, real exit codes, and links that the server then accepts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify as toYaml } from 'yaml';
import { createTestApp, EXAMPLE_FORMS_DIR, TEST_SECRET, type TestApp } from './support/test-app.js';
import { runSvc } from './support/svc-command.js';

const PROFILES = {
  feedback: {
    form: 'contact',
    requiresSignedToken: true,
    singleUse: true,
    properties: { eventId: { type: 'integer', required: true } },
    linkTemplate: 'https://events.example.test/feedback?t={token}',
  },
  open: { form: 'contact' },
};

function svc(args: readonly string[], cwd: string, env: Record<string, string> = {}) {
  return runSvc(args, { cwd, env: { PATH: process.env.PATH ?? '', ...env }, timeoutMs: 90_000 });
}

describe('svc profiles', () => {
  let dir: string;
  let configFile: string;
  let server: TestApp;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-profiles-cli-'));
    configFile = join(dir, 'svc.config.yaml');
    writeFileSync(configFile, toYaml({ dataDir: join(dir, 'data'), forms: { dir: EXAMPLE_FORMS_DIR }, headless: { profiles: PROFILES }, log: { level: 'silent' } }));
    server = await createTestApp({ config: { headless: { profiles: PROFILES } } });
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('signs a link the server accepts, and prints the link from the linkTemplate', async () => {
    const run = await svc(['profiles', 'sign', 'feedback', '--property', 'eventId=42', '--ttl', '2h', '--config', configFile], dir, { SVC_SECRET: TEST_SECRET });
    expect(run.status, run.stderr).toBe(0);
    const [token, link] = run.stdout.trim().split('\n');
    expect(link).toBe(`https://events.example.test/feedback?t=${encodeURIComponent(token ?? '')}`);
    const res = await server.app.inject({ method: 'GET', url: `/svc/api/manifests/feedback/manifest?token=${token}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { metadata: unknown } }>().data.metadata).toEqual({ profile: 'feedback', properties: { eventId: 42 } });
  });

  it('refuses clearly, without a stack: no secret, an ill-typed property, a profile that takes no links, a bad duration', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['profiles', 'sign', 'feedback', '--property', 'eventId=42'], {}, /secret/],
      [['profiles', 'sign', 'feedback', '--property', 'eventId=forty'], { SVC_SECRET: TEST_SECRET }, /eventId.*integer/],
      [['profiles', 'sign', 'open'], { SVC_SECRET: TEST_SECRET }, /does not take signed links/],
      [['profiles', 'sign', 'feedback', '--property', 'eventId=1', '--ttl', 'soon'], { SVC_SECRET: TEST_SECRET }, /--ttl/],
      [['profiles', 'login-token', '--subject', 'kim'], {}, /--demo/],
    ];
    // Each run is its own process: all at once, then every answer checked.
    const runs = await Promise.all(cases.map(([args, env]) => svc([...args, '--config', configFile], dir, env)));
    for (const [index, [args, , message]] of cases.entries()) {
      const run = runs[index] as Awaited<ReturnType<typeof svc>>;
      expect(run.status, `${args.join(' ')}: ${run.stdout}`).not.toBe(0);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stderr).toMatch(message);
    }
  }, 120_000);
});
