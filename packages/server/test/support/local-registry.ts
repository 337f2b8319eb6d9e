/**
 * A real npm registry on this machine (issue #33): Verdaccio as a child process, on a free port,
 * its storage in a temporary directory, with NO uplink. Nothing it serves comes from another
 * registry, and nothing a consumer's npm asks for leaves this machine.
 *
 * Since it proxies nothing, its storage is seeded before it starts with every third-party package
 * the workspace packages need, from what this machine already holds: the root package-lock.json
 * (which version of what, its tarball's integrity), each installed package's package.json (the
 * version manifest npm reads: dependencies, bin, engines, os, cpu, install scripts) and the tarball
 * bytes out of npm's own cache by that integrity. They are written in the layout of Verdaccio's
 * local storage (@verdaccio/local-storage-legacy): `<storage>/<name>/package.json`, a packument
 * with versions, dist-tags, time, _attachments, _distfiles, _uplinks and _rev, and each .tgz
 * beside it, named as in the registry it came from. Verdaccio rewrites the tarball URLs to itself.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

interface LockEntry {
  readonly version?: string;
  readonly resolved?: string;
  readonly integrity?: string;
  readonly link?: boolean;
  readonly optional?: boolean;
  readonly dependencies?: Record<string, string>;
  readonly optionalDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
  readonly peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  readonly os?: string[];
  readonly cpu?: string[];
}

/** What npm's cacache exposes that the seeding uses (npm's own copy; it has no types here). */
interface Cacache {
  get: { byDigest(cache: string, integrity: string): Promise<Buffer>; hasContent(cache: string, integrity: string): Promise<false | { size: number }> };
}

export interface LocalRegistry {
  /** http://127.0.0.1:PORT/ */
  readonly url: string;
  /** A token that may publish, for an .npmrc's `//127.0.0.1:PORT/:_authToken=`. */
  readonly token: string;
  /** Third-party package versions seeded into its storage. */
  readonly seeded: number;
  /** Package versions the workspace needs that could not be seeded (no tarball in npm's cache). */
  readonly missing: readonly string[];
  /** The .npmrc line that lets npm publish to it. */
  authLine(): string;
  /** Verdaccio's own output, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** The lock path a package at `from` resolves `name` to, as Node walks up node_modules. */
function resolveInLock(lock: Record<string, LockEntry>, from: string, name: string): string | null {
  let base = from;
  for (;;) {
    const path = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (lock[path]) return path;
    if (base === '') return null;
    const up = base.lastIndexOf('/node_modules/');
    base = up >= 0 ? base.slice(0, up) : '';
  }
}

/** Every lock path the given workspace folders need, through dependencies, optional and peer ones. */
function closureOf(lock: Record<string, LockEntry>, workspaces: readonly string[]): Set<string> {
  const needed = new Set<string>();
  const queue = [...workspaces];
  while (queue.length > 0) {
    const from = queue.shift() as string;
    const entry = lock[from] ?? {};
    const names = Object.keys({ ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies });
    for (const name of names) {
      const path = resolveInLock(lock, from, name);
      // A workspace sibling (a link) is published, not seeded; an optional one not installed here
      // (another platform's binary) is left out.
      if (path === null || lock[path]?.link || needed.has(path)) continue;
      needed.add(path);
      queue.push(path);
    }
  }
  return needed;
}

/** The manifest fields npm reads from a packument's version (the rest is in the tarball). */
const MANIFEST_KEYS = [
  'name', 'version', 'description', 'license', 'main', 'type', 'dependencies', 'optionalDependencies', 'peerDependencies', 'peerDependenciesMeta',
  'bundleDependencies', 'bundledDependencies', 'bin', 'directories', 'engines', 'os', 'cpu', 'libc', 'deprecated', 'gypfile',
] as const;
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'] as const;

function versionManifest(installed: Record<string, unknown>, name: string, version: string): Record<string, unknown> {
  const manifest: Record<string, unknown> = Object.fromEntries(MANIFEST_KEYS.filter((key) => installed[key] !== undefined).map((key) => [key, installed[key]]));
  const scripts = (installed.scripts ?? {}) as Record<string, string>;
  const install = Object.fromEntries(INSTALL_SCRIPTS.filter((key) => scripts[key] !== undefined).map((key) => [key, scripts[key]]));
  if (Object.keys(install).length > 0) manifest.scripts = install;
  return { ...manifest, name, version, _id: `${name}@${version}` };
}

/** Highest first, numerically by part (enough to pick a `latest` among the versions seeded). */
const byVersion = (a: string, b: string) => b.localeCompare(a, 'en', { numeric: true });

/**
 * Seeds `storage` with the packages the workspace folders need; returns what was written and
 * what could not be (no tarball in npm's cache).
 */
export async function seedRegistryStorage(storage: string, repoRoot: string, workspaces: readonly string[]): Promise<{ seeded: number; missing: string[] }> {
  const lock = (JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> }).packages;
  const npmRoot = (await run('npm', ['root', '-g'])).stdout.trim();
  const cacache = createRequire(join(npmRoot, 'npm', 'package.json'))('cacache') as Cacache;
  const cache = join((await run('npm', ['config', 'get', 'cache'])).stdout.trim(), '_cacache');
  const packuments = new Map<string, { versions: Record<string, unknown>; attachments: Record<string, unknown> }>();
  const missing: string[] = [];
  let seeded = 0;
  for (const path of closureOf(lock, workspaces)) {
    const entry = lock[path] as LockEntry;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const { version, resolved, integrity } = entry;
    if (!version || !integrity) {
      missing.push(`${name}: no version or integrity in the lock`);
      continue;
    }
    if (!(await cacache.get.hasContent(cache, integrity))) {
      missing.push(`${name}@${version}: its tarball is not in npm's cache`);
      continue;
    }
    const bytes = await cacache.get.byDigest(cache, integrity);
    // The lock names no URL here (.npmrc: omit-lockfile-registry-resolved): the registry's own name.
    const file = resolved ? basename(new URL(resolved).pathname) : `${basename(name)}-${version}.tgz`;
    const dir = join(storage, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, file), bytes);
    const installed = JSON.parse(readFileSync(join(repoRoot, path, 'package.json'), 'utf8')) as Record<string, unknown>;
    const shasum = createHash('sha1').update(bytes).digest('hex');
    const packument = packuments.get(name) ?? { versions: {}, attachments: {} };
    // Any host: Verdaccio answers with its own address and the file's name.
    packument.versions[version] = { ...versionManifest(installed, name, version), dist: { tarball: `http://localhost/${name}/-/${file}`, integrity, shasum } };
    packument.attachments[file] = { shasum, version };
    packuments.set(name, packument);
    seeded += 1;
  }
  const now = new Date().toISOString();
  for (const [name, { versions, attachments }] of packuments) {
    const list = Object.keys(versions).sort(byVersion);
    const packument = {
      name,
      versions,
      'dist-tags': { latest: list[0] },
      time: { created: now, modified: now, ...Object.fromEntries(list.map((v) => [v, now])) },
      _distfiles: {},
      _attachments: attachments,
      _uplinks: {},
      _rev: `1-${createHash('md5').update(name).digest('hex')}`,
    };
    writeFileSync(join(storage, name, 'package.json'), JSON.stringify(packument, null, 2));
  }
  return { seeded, missing };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function configYaml(storage: string, htpasswd: string): string {
  // No `uplinks` and no `proxy` on any package: a name it does not hold is a 404, never a fetch.
  return [
    `storage: ${JSON.stringify(storage)}`,
    'auth:',
    '  htpasswd:',
    `    file: ${JSON.stringify(htpasswd)}`,
    '    max_users: 1',
    'uplinks: {}',
    'packages:',
    "  '@svc/*':",
    '    access: $all',
    '    publish: $authenticated',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    'web:',
    '  enable: false',
    'publish:',
    '  allow_offline: true',
    'max_body_size: 200mb',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n');
}

export interface StartRegistryOptions {
  readonly repoRoot: string;
  /** Lock paths of the workspace packages whose dependencies are seeded (`packages/server`). */
  readonly workspaces: readonly string[];
  /** How long Verdaccio may take to say where it listens. */
  readonly bootTimeoutMs?: number;
}

/** Seeds a fresh storage, starts Verdaccio on it and creates a user that may publish. */
export async function startLocalRegistry(options: StartRegistryOptions): Promise<LocalRegistry> {
  const bin = join(options.repoRoot, 'node_modules/verdaccio/bin/verdaccio');
  if (!existsSync(bin)) throw new Error(`verdaccio is not installed at ${bin} (npm install)`);
  const home = mkdtempSync(join(tmpdir(), 'svc-registry-'));
  const storage = join(home, 'storage');
  mkdirSync(storage);
  let seeding: { seeded: number; missing: string[] };
  try {
    seeding = await seedRegistryStorage(storage, options.repoRoot, options.workspaces);
  } catch (error) {
    rmSync(home, { recursive: true, force: true });
    throw error;
  }
  const { seeded, missing } = seeding;
  writeFileSync(join(home, 'config.yaml'), configYaml(storage, join(home, 'htpasswd')));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child: ChildProcess = spawn(process.execPath, [bin, '--config', join(home, 'config.yaml'), '--listen', `127.0.0.1:${port}`], { cwd: home, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(home, { recursive: true, force: true });
  };
  try {
    // Verdaccio says `http address - http://127.0.0.1:PORT/` once it listens.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`verdaccio did not start within ${options.bootTimeoutMs ?? 60_000} ms:\n${out}`)), options.bootTimeoutMs ?? 60_000);
      const look = () => {
        if (!out.includes('http address')) return;
        clearTimeout(timer);
        resolve();
      };
      child.stdout?.on('data', look);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`verdaccio exited with ${code}:\n${out}`));
      });
    });
    // npm adduser's request: the htpasswd plugin creates the user and answers a token.
    const user = 'svc-publisher';
    const answer = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: user, password: createHash('sha256').update(home).digest('hex'), type: 'user', roles: [], date: new Date().toISOString() }),
    });
    const body = (await answer.json()) as { token?: string };
    if (answer.status !== 201 || !body.token) throw new Error(`verdaccio refused the publisher (${answer.status}): ${JSON.stringify(body)}`);
    const token = body.token;
    return {
      url,
      token,
      seeded,
      missing,
      authLine: () => `//127.0.0.1:${port}/:_authToken=${token}`,
      output: () => out,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
