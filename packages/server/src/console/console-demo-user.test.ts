import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config-loader.js';
import { createAdminKeys } from '../admin/admin-keys.js';
import { hashPassword, verifyPassword } from './console-passwords.js';
import { withDemoConsoleUser } from './console-demo-user.js';

// A secret of its own, so the demo's loader keeps none in ./data.
const SECRET = 'demo-console-user-test-secret-0123456789';
const demo = (values: Record<string, unknown> = {}) => loadConfig({ demo: true, offline: true, values: { secret: SECRET, ...values }, env: {} });

describe('withDemoConsoleUser', () => {
  it('adds a read-write user for every form whose password only its hash in the config matches, new at each call', async () => {
    const config = demo();
    const first = await withDemoConsoleUser(config);
    const second = await withDemoConsoleUser(config);
    expect(first.login?.username).toBe('demo');
    expect(first.login?.password).not.toBe(second.login?.password);
    const user = first.config.admin.users.find((entry) => entry.username === 'demo');
    expect(user).toMatchObject({ scopes: ['read', 'write'], forms: ['*'] });
    expect(await verifyPassword(first.login?.password as string, user?.passwordHash as string)).toBe(true);
    expect(JSON.stringify(first.config)).not.toContain(first.login?.password);
    expect(Object.isFrozen(first.config.admin.users)).toBe(true);
    expect(config.admin.users).toEqual([]);
  });

  it('keeps the configured users working beside it, and a configured demo user as the owner made it', async () => {
    const passwordHash = await hashPassword('kim-password-kim');
    const withKim = await withDemoConsoleUser(demo({ admin: { users: [{ username: 'kim', passwordHash, scopes: ['read'], forms: ['contact'] }] } }));
    const accounts = createAdminKeys(withKim.config);
    expect(accounts.account('user', 'kim')?.credential).toBe(passwordHash);
    expect(accounts.account('user', 'demo')).not.toBeNull();
    const own = await withDemoConsoleUser(demo({ admin: { users: [{ username: 'demo', passwordHash, scopes: ['read'], forms: ['contact'] }] } }));
    expect(own.login).toBeNull();
    expect(own.config.admin.users).toEqual([{ username: 'demo', passwordHash, scopes: ['read'], forms: ['contact'] }]);
  });

  it('makes no user outside the demo, or with the console off', async () => {
    const notDemo = loadConfig({ offline: true, values: { secret: SECRET }, env: {} });
    expect((await withDemoConsoleUser(notDemo)).login).toBeNull();
    const off = await withDemoConsoleUser(demo({ console: { enabled: false } }));
    expect([off.login, off.config.admin.users]).toEqual([null, []]);
  });
});
