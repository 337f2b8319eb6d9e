/**
 * The demo on any port (issue #31 item 10): `svc serve --demo` started as a person starts it, the
 * real CLI process, with `--port 0` so the port exists only once it listens. Nothing in the config is
 * rewritten: the resume link of a saved draft and the member profile's issuer must follow the
 * port by themselves (both named localhost:3000 before, so a draft's link led nowhere and every
 * member login was refused with nothing logged).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, commandBlocks } from './support/docs-blocks.js';
import { killAllServers, startServer, type ServerProcess } from './support/server-process.js';
import { SVC_NODE_ARGS } from './support/svc-command.js';

const WAIT = { timeout: 10_000, interval: 50 };

describe('the demo on a port it was given at start', () => {
  let cwd: string;
  let server: ServerProcess;
  /** What it printed by the time it listened: the banner, before later logs can push it out. */
  let banner: string;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'svc-demo-port-'));
    // `--port` wins over PORT: with the variable's value the config would be refused.
    server = await startServer({ demo: true, cwd, args: ['--port', '0'], env: { PORT: 'not-a-port', SVC_LOG__LEVEL: 'debug', SVC_LOG__FORMAT: 'json' }, name: 'demo' });
    banner = server.output();
  });
  afterAll(async () => {
    await server?.stop();
    await killAllServers();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  // The README's "Start it" block: `npm install`, then `npm start`, which is the `serve --demo` this
  // file starts (with `--port 0`, as `npm start -- --port 0` would pass it).
  it("is what the README's start block runs", () => {
    const [start] = commandBlocks('README.md');
    expect(start).toBe('npm install\nnpm start\n');
    const scripts = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe('tsx --conditions=svc-source packages/server/src/cli/svc-main.ts serve --demo');
  });

  // issue #34: the demo's German and Arabic sites, each with the manifests of its translated forms.
  it('lists the German and Arabic manifests of the translated forms, which answer in those languages', async () => {
    const listed = [...banner.matchAll(/^ {4}(\S+) +(http:\/\/\S+\?site=(\w+))$/gm)].map((m) => [m[1], m[3]]);
    expect(listed).toEqual([['application', 'de'], ['contact', 'de'], ['application', 'ar'], ['contact', 'ar']]);
    expect(banner).toMatch(/^ {2}site de \(de-DE\)$/m);
    const url = /^ {4}contact +http:\/\/localhost:\d+(\S+\?site=ar)$/m.exec(banner)?.[1] as string;
    const { data } = (await (await fetch(`${server.base}${url}`)).json()) as { data: { site: { language: string }; form: { name: string } } };
    expect(data.site.language).toBe('ar');
    expect(data.form.name).toBe('اتصل بنا');
  });

  /** A CSRF token and its cookie, as a browser gets them. */
  async function csrf() {
    const res = await fetch(`${server.base}/svc/tokens`);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
    return { token: ((await res.json()) as { csrf: { value: string } }).csrf.value, cookie };
  }
  async function saveDraft(handle: string, values: Record<string, unknown>, context: Record<string, unknown> = {}) {
    const manifest = ((await (await fetch(`${server.base}/svc/api/forms/${handle}/manifest`)).json()) as { data: { security: Record<string, { name: string; value?: string }> } }).data;
    const { honeypot, javascriptTest } = manifest.security;
    const meta = { ...(honeypot ? { honeypot: { name: honeypot.name, value: '' } } : {}), ...(javascriptTest ? { javascriptTest } : {}) };
    const { token, cookie } = await csrf();
    const res = await fetch(`${server.base}/svc/api/forms/${handle}/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      body: JSON.stringify({ intent: 'saveDraft', values, context, meta }),
    });
    return { status: res.status, body: (await res.json()) as { draft: { token: string; key: string; resumeUrl: string } | null; state: { values: Record<string, unknown> }; warnings?: string[] } };
  }

  it('gives a saved draft a resume link on the port it listens on, which loads and restores the draft', async () => {
    const saved = await saveDraft('application', { fullName: 'Ann Lee', email: 'ann@example.test' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const link = new URL(saved.body.draft?.resumeUrl as string);
    expect(link.port).toBe(String(server.port));
    expect(`${link.origin}${link.pathname}`).toBe(`http://localhost:${server.port}/demo/resume`);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<svc-form');
    // The page hands the link's token and key to the form, which loads the draft with them.
    const resumed = await saveDraft('application', {}, { draftToken: link.searchParams.get('token'), draftKey: link.searchParams.get('key') });
    expect(resumed.status).toBe(200);
    expect(resumed.body.warnings ?? []).not.toContain('draft_not_loaded');
    expect(resumed.body.state.values).toMatchObject({ fullName: 'Ann Lee', email: 'ann@example.test' });
  });

  it("accepts the demo issuer's login token for the member profile, its keys fetched from this port", async () => {
    // As docs/profiles.md says: `svc profiles login-token --demo` in the same directory (the same ./data).
    const minted = await promisify(execFile)(process.execPath, [...SVC_NODE_ARGS, 'profiles', 'login-token', '--demo', '--subject', 'kim', '--claim', 'email=kim@example.test', '--claim', 'given_name=Kim'], {
      cwd,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const token = minted.stdout.trim();
    const res = await fetch(`${server.base}/svc/api/manifests/member/manifest`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status, await res.clone().text()).toBe(200);
    const data = ((await res.json()) as { data: { context: { lockedFields: Record<string, unknown>; defaultValues: Record<string, unknown> } } }).data;
    expect(data.context).toMatchObject({ lockedFields: { email: 'kim@example.test' }, defaultValues: { firstName: 'Kim' } });
  });

  it('logs why a bearer token was refused at debug level, without the token', async () => {
    const forged = 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdmMtZGVtby1pc3N1ZXIiLCJzdWIiOiJtYWxsb3J5IiwiYXVkIjoic3ZjLWRlbW8iLCJleHAiOjQxMDI0NDQ4MDB9.Zm9yZ2VkLXNpZ25hdHVyZQ';
    const res = await fetch(`${server.base}/svc/api/manifests/member/manifest`, { headers: { authorization: `Bearer ${forged}` } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: 'AUTH_REQUIRED' });
    await vi.waitFor(() => expect(server.output()).toMatch(/"level":20[^\n]*"code":"ERR_J[A-Z_]+"[^\n]*"msg":"bearer token refused"/), WAIT);
    expect(server.output()).not.toContain(forged.split('.')[2]);
  });
});
