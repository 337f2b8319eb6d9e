/**
 * Console sessions kept on the server (issue #32): the cookie holds a random id and the database
 * only its hash, so sign-out, a password change, a removed key and `svc admin sessions revoke`
 * end a session at once, for every instance sharing the database, however many copies of the
 * cookie exist; idle and absolute expiry, expired rows purged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { hashPassword } from '../src/console/console-passwords.js';
import { runSvc } from './support/svc-command.js';
import { createTestApp, TEST_SECRET, type TestApp } from './support/test-app.js';

const PASSWORD = 'correct horse battery staple';
const API_KEY = 'console-session-test-key-0123456789';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function sessionCookie(res: LightMyRequestResponse): string {
  const raw = res.headers['set-cookie'];
  const found = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith('svc_console=')) ?? '';
  return found.split(';')[0]?.slice('svc_console='.length) ?? '';
}

async function signIn(svc: TestApp, fields: Record<string, string>): Promise<string> {
  const page = await svc.app.inject({ method: 'GET', url: '/svc/console/sign-in' });
  const pre = /svc_console_pre=([^;]+)/.exec(String(page.headers['set-cookie']))?.[1] ?? '';
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const res = await svc.app.inject({
    method: 'POST',
    url: '/svc/console/sign-in',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console_pre=${pre}` },
    payload: new URLSearchParams({ csrf, ...fields }).toString(),
  });
  expect(res.statusCode, res.body).toBe(303);
  return sessionCookie(res);
}

/** 200 with the page when the session is live; 303 to the sign-in page when it is not. */
const home = (svc: TestApp, id: string) => svc.app.inject({ method: 'GET', url: '/svc/console/', headers: { cookie: `svc_console=${id}` } });
const live = async (svc: TestApp, id: string) => (await home(svc, id)).statusCode === 200;

function adminConfig(passwordHash: string, withKey = true) {
  return {
    forms: { watch: false },
    admin: {
      users: [{ username: 'kim', passwordHash, scopes: ['read'], forms: ['*'] }],
      keys: withKey ? [{ name: 'ops', sha256: sha(API_KEY), scopes: ['read'], forms: ['*'] }] : [],
    },
  };
}

describe('console sessions kept on the server', () => {
  let dir: string;
  let dbUrl: string;
  let hash: string;
  let t = Date.parse('2026-12-01T09:00:00.000Z');
  let svc: TestApp;
  const open = (config: Record<string, unknown>) => createTestApp({ config: { ...config, database: { url: dbUrl } }, now: () => new Date(t) });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-console-sessions-'));
    dbUrl = `sqlite:${join(dir, 'shared.db')}`;
    hash = await hashPassword(PASSWORD);
    svc = await open(adminConfig(hash));
  });
  afterAll(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sets a cookie of 256 random bits and stores only its SHA-256', async () => {
    const first = await signIn(svc, { username: 'kim', password: PASSWORD });
    const second = await signIn(svc, { username: 'kim', password: PASSWORD });
    // 43 base64url characters carry 258 bits; randomToken(32) fills them from 32 random bytes.
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second).not.toBe(first);
    const rows = await svc.context.database.db.selectFrom('svc_console_sessions').selectAll().execute();
    expect(rows.map((r) => r.id_hash)).toEqual(expect.arrayContaining([sha(first), sha(second)]));
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(first);
    expect(await live(svc, first)).toBe(true);
  });

  it('refuses a copy of the cookie taken before sign-out, after it', async () => {
    const id = await signIn(svc, { username: 'kim', password: PASSWORD });
    const page = await home(svc, id);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const out = await svc.app.inject({ method: 'POST', url: '/svc/console/sign-out', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `svc_console=${id}` }, payload: `csrf=${encodeURIComponent(csrf)}` });
    expect(out.statusCode).toBe(303);
    const copy = await home(svc, id);
    expect([copy.statusCode, copy.headers.location]).toEqual([303, '/svc/console/sign-in']);
    expect(await svc.context.database.db.selectFrom('svc_console_sessions').select('id_hash').where('id_hash', '=', sha(id)).executeTakeFirst()).toBeUndefined();
  });

  it('ends the sessions made with the old password on every instance once one runs with the new one', async () => {
    const id = await signIn(svc, { username: 'kim', password: PASSWORD });
    const changed = await open(adminConfig(await hashPassword('a brand new password here')));
    try {
      expect(await live(changed, id)).toBe(false);
      // The row is gone: the instance still configured with the old hash refuses the cookie too.
      expect(await live(svc, id)).toBe(false);
      expect(await live(changed, await signIn(changed, { username: 'kim', password: 'a brand new password here' }))).toBe(true);
    } finally {
      await changed.close();
    }
  });

  it('ends an API key session once the key is removed, on every instance', async () => {
    const id = await signIn(svc, { apiKey: API_KEY });
    expect(await live(svc, id)).toBe(true);
    const removed = await open(adminConfig(hash, false));
    try {
      expect(await live(removed, id)).toBe(false);
      expect(await live(svc, id)).toBe(false);
    } finally {
      await removed.close();
    }
  });

  it('ends a user\'s sessions with `svc admin sessions revoke --user`, and no one else\'s', async () => {
    const kim = [await signIn(svc, { username: 'kim', password: PASSWORD }), await signIn(svc, { username: 'kim', password: PASSWORD })];
    const ops = await signIn(svc, { apiKey: API_KEY });
    const configFile = join(dir, 'svc.config.json');
    writeFileSync(configFile, JSON.stringify({ secret: TEST_SECRET, dataDir: join(dir, 'data'), database: { url: dbUrl }, forms: { watch: false }, log: { level: 'silent' } }));
    const run = await runSvc(['admin', 'sessions', 'revoke', '--user', 'kim', '--config', configFile], { cwd: dir, timeoutMs: 170_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Ended [2-9]\d* console session\(s\) of user kim\.\n$/);
    for (const id of kim) expect(await live(svc, id)).toBe(false);
    expect(await live(svc, ops)).toBe(true);
  }, 180_000);

  it('ends a session after 30 idle minutes and 12 hours after sign-in however active, purging expired rows', async () => {
    const idle = await signIn(svc, { username: 'kim', password: PASSWORD });
    const busy = await signIn(svc, { username: 'kim', password: PASSWORD });
    t += 20 * 60_000;
    expect(await live(svc, idle)).toBe(true);
    t += 29 * 60_000;
    // 29 minutes since the last request: still live; 31 is not.
    expect(await live(svc, idle)).toBe(true);
    t += 31 * 60_000;
    expect(await live(svc, idle)).toBe(false);
    // `busy` was seen 80 minutes ago too: keep a fresh one active for the absolute expiry.
    const active = await signIn(svc, { username: 'kim', password: PASSWORD });
    const end = t + 12 * 3_600_000;
    while (t + 20 * 60_000 < end) {
      t += 20 * 60_000;
      expect(await live(svc, active)).toBe(true);
    }
    t = end;
    expect(await live(svc, active)).toBe(false);
    expect(await live(svc, busy)).toBe(false);
    // A sign-in purges every expired row: only its own session is left.
    const newest = await signIn(svc, { username: 'kim', password: PASSWORD });
    const left = await svc.context.database.db.selectFrom('svc_console_sessions').select('id_hash').execute();
    expect(left.map((r) => r.id_hash)).toEqual([sha(newest)]);
  });
});
