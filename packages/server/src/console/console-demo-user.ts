/**
 * The demo's console user (issue #33 item 6): `svc serve --demo` signs a newcomer into the console
 * without editing config. The password is made at each start and shown once, in the banner; the
 * running config keeps only its scrypt hash, as an `admin.users` entry would, so the console checks
 * it like any other user, and a restart (a new hash) ends the sessions of the last run.
 */
import { randomBytes } from 'node:crypto';
import type { Config } from '../config/config-schema.js';
import { hashPassword } from './console-passwords.js';

export const DEMO_CONSOLE_USERNAME = 'demo';

/** 24 bytes: 192 bits, 32 base64url characters. */
const PASSWORD_BYTES = 24;

type ConsoleUser = Config['admin']['users'][number];

export interface DemoConsoleLogin {
  readonly username: string;
  readonly password: string;
}

export interface DemoConsoleSetup {
  readonly config: Config;
  /** What the banner prints; null when no user was made. */
  readonly login: DemoConsoleLogin | null;
}

/**
 * `config` with the demo user added, when it is the demo with the console on. A configured user
 * named `demo` is the owner's own and is kept as it is (no generated password); the other
 * configured users keep working beside it.
 *
 * @example
 * const { config: running, login } = await withDemoConsoleUser(config);
 * if (login) console.log(`console: ${login.username} / ${login.password}`);
 */
export async function withDemoConsoleUser(config: Config): Promise<DemoConsoleSetup> {
  if (!config.demo || !config.console.enabled) return { config, login: null };
  if (config.admin.users.some((user) => user.username === DEMO_CONSOLE_USERNAME)) return { config, login: null };
  const password = randomBytes(PASSWORD_BYTES).toString('base64url');
  // The demo's owner sees and may change everything the demo holds: it is their own data.
  const user: ConsoleUser = { username: DEMO_CONSOLE_USERNAME, passwordHash: await hashPassword(password), scopes: ['read', 'write'], forms: ['*'] };
  // Frozen like the rest of the loaded config (the loader deep-freezes it).
  for (const part of [user.scopes, user.forms, user]) Object.freeze(part);
  const users: ConsoleUser[] = Object.freeze([...config.admin.users, user]) as ConsoleUser[];
  const admin = Object.freeze({ ...config.admin, users });
  return { config: Object.freeze({ ...config, admin }), login: { username: DEMO_CONSOLE_USERNAME, password } };
}
