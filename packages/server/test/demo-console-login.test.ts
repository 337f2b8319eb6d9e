/**
 * The demo's console login (issue #33 item 6): `svc serve --demo`, started as a person starts it,
 * prints a console user and a password made for this run beside the console's address; signing in
 * with them through the console's own sign-in page opens a form's submissions list. The password
 * is printed once and stored nowhere: not in the log, not under the data directory.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killAllServers, startServer, type ServerProcess } from './support/server-process.js';

const WAIT = { timeout: 10_000, interval: 50 };
const LOGIN_LINE = /^ {12}sign in as (\S+), password (\S+) {2}\(made for this run\)$/m;

/** The value of cookie `name` among a response's Set-Cookie headers. */
function cookieOf(res: Response, name: string): string | undefined {
  const line = res.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  return line?.split(';')[0]?.slice(name.length + 1);
}

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the demo console login', () => {
  let cwd: string;
  let server: ServerProcess;
  let username: string;
  let password: string;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'svc-demo-console-'));
    server = await startServer({ demo: true, cwd, args: ['--port', '0'], name: 'demo' });
    // The banner is one write, but it may arrive in more than one chunk.
    await vi.waitFor(() => expect(server.output()).toMatch(LOGIN_LINE), WAIT);
    [, username = '', password = ''] = LOGIN_LINE.exec(server.output()) ?? [];
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await killAllServers();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  /** The console's sign-in page, then its form posted with `password`. */
  async function signIn(secret: string): Promise<Response> {
    const page = await fetch(`${server.base}/svc/console/sign-in`);
    expect(page.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    return fetch(`${server.base}/svc/console/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${cookieOf(page, 'svc_console_pre') ?? ''}` },
      body: new URLSearchParams({ csrf, username, password: secret }).toString(),
    });
  }

  it('prints the user and a password of at least 128 bits under the console address', () => {
    expect(server.output()).toMatch(/ {2}console: {2}http:\/\/localhost:\d+\/svc\/console\/\n {12}sign in as /);
    expect(username).toBe('demo');
    // base64url: 6 bits a character.
    expect(password).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  });

  it('signs in with them and shows a form\'s submissions list', async () => {
    const res = await signIn(password);
    expect([res.status, res.headers.get('location')]).toEqual([303, '/svc/console/']);
    const session = cookieOf(res, 'svc_console');
    expect(session).toBeTruthy();
    const list = await fetch(`${server.base}/svc/console/forms/contact`, { headers: { cookie: `svc_console=${session}` }, redirect: 'manual' });
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain('matching submission(s)');
    expect(html).toContain('demo');
  });

  it('refuses another password for the demo user', async () => {
    const res = await signIn(`${password}x`);
    expect(res.status).not.toBe(303);
    expect(cookieOf(res, 'svc_console')).toBeUndefined();
  });

  it('keeps the password nowhere but the banner: not in the log, not in the data directory', () => {
    expect(server.output().split(password)).toHaveLength(2);
    for (const file of filesUnder(cwd)) expect(readFileSync(file).includes(password), file).toBe(false);
  });
});
