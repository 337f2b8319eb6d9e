/**
 * The packages as npm publishes them (issues #16, #33): `npm pack` each workspace package, publish
 * the tarballs to a real registry on this machine (Verdaccio, test/support/local-registry.ts: no
 * uplink, seeded from this machine's npm cache), and in an empty directory run docs/install.md's
 * steps as written: `npm install @svc/server` from that registry, `svc init`, `svc forms check`,
 * `svc --version`, `svc serve`, and the contact manifest answering. Then use the packages the way
 * a front end and an operator would: import the client under Node, bundle the element for browsers
 * with esbuild, type-check a consumer against the published types, load the element's single-file
 * browser bundle, and start the installed server's demo with its bin on plain Node (no tsx) and
 * submit a form to it.
 *
 * The consumer's npm talks to the local registry only: its user config names nothing else,
 * npm_config_registry points at it, and its cache starts empty, so every tarball it installs comes
 * from Verdaccio. better-sqlite3's install takes its prebuilt binary from a local directory (the
 * workspace's own, packed as the download would be), since no release host is reachable here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as esbuild from 'esbuild';
import { REPO_ROOT, removeInBackground, runCommand, type CommandRun } from './support/svc-command.js';
import { commandBlocks } from './support/docs-blocks.js';
import { startLocalRegistry, type LocalRegistry } from './support/local-registry.js';
import { packagedFileProblems } from '../scripts/secret-scan.mjs';

const run = promisify(execFile);
const PACKAGES = ['@svc/core', '@svc/client', '@svc/elements', '@svc/server'] as const;
const WORKSPACES = ['packages/core', 'packages/client', 'packages/elements', 'packages/server'];
const QUIET = { npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
const NPM = { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...QUIET } };
/** An npm install on two busy cores; the deadline only catches a hang. */
const STEP_TIMEOUT_MS = 300_000;

let scratch: string;
let project: string;
let registry: LocalRegistry | undefined;
let consumerEnv: NodeJS.ProcessEnv;
let server: ChildProcess | undefined;
let initServer: ChildProcess | undefined;
let base: string;
let installSteps: CommandRun;
let manifestStep: CommandRun;

interface PackedFile {
  readonly filename: string;
  readonly name: string;
  readonly version: string;
  readonly files: readonly { readonly path: string }[];
}
let packed: PackedFile[];

/** The consumer's own files: a Node script, a browser entry and a TypeScript file using the types. */
const CLIENT_SCRIPT = `
import { createClient, SvcClientError } from '@svc/client';
import { ERROR_CATALOGUE } from '@svc/core';

// Node's fetch keeps no cookies; the CSRF token is bound to one, so keep it as a browser would.
const jar = new Map();
const jarFetch = async (input, init = {}) => {
  const headers = new Headers(init.headers);
  if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => k + '=' + v).join('; '));
  const res = await fetch(input, { ...init, headers });
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair.indexOf('=');
    jar.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return res;
};

const client = createClient({ baseUrl: process.argv[2], fetch: jarFetch });
const form = await client.session('contact');
form.setValue('firstName', 'Ann');
form.setValue('email', 'ann@example.test');
const result = await form.submit();
let refused = null;
try { await client.getManifest('no-such-form'); } catch (error) { refused = error instanceof SvcClientError ? error.code : String(error); }
console.log(JSON.stringify({ status: result.status, refused, catalogue: 'FORM_NOT_FOUND' in ERROR_CATALOGUE }));
`;

const BROWSER_ENTRY = `import '@svc/elements';\nimport { createClient } from '@svc/client';\nexport const client = createClient({ baseUrl: location.origin });\n`;

const TYPED_CONSUMER = `
import { createClient, SvcClientError, type Manifest, type SvcClient } from '@svc/client';
import { createPaymentIntent } from '@svc/client/payments';
import type { FieldType } from '@svc/core';

const client: SvcClient = createClient({ baseUrl: 'https://forms.example.test' });
export async function fieldTypes(): Promise<FieldType[]> {
  const manifest: Manifest = await client.getManifest('contact');
  return Object.values(manifest.fields).map((field) => field.type as FieldType);
}
export function isRefusal(error: unknown): error is SvcClientError {
  return error instanceof SvcClientError && typeof error.code === 'string';
}
export const intent: typeof createPaymentIntent = createPaymentIntent;
`;


/** A docs block run by bash as a user's shell would, in `cwd`, with the consumer's npm settings. */
function shell(block: string, cwd: string): Promise<CommandRun> {
  return runCommand('bash', ['-euo', 'pipefail', '-c', block], { cwd, env: consumerEnv, timeoutMs: STEP_TIMEOUT_MS });
}

/** Waits for `svc serve`'s banner on a child's output; resolves its address. */
function bannerOf(child: ChildProcess, what: string, needs: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} printed no banner:\n${out}`)), 120_000);
    const take = (chunk: Buffer) => {
      out += chunk.toString();
      const url = /svc is running at (http:\/\/localhost:\d+)/.exec(out)?.[1];
      if (url && needs.test(out)) {
        clearTimeout(timer);
        resolve(url.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${out}`)));
  });
}

/** SIGTERM to a process group this file started (bash, npx and the server in it); waits until gone. */
async function stopGroup(child: ChildProcess | undefined): Promise<void> {
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await exited;
}

beforeAll(async () => {
  // Where the setup's time goes, printed at its end (never asserted): the phases in order.
  const phases: string[] = [];
  let phaseStart = performance.now();
  const phase = (what: string) => {
    phases.push(`${what} ${((performance.now() - phaseStart) / 1000).toFixed(1)} s`);
    phaseStart = performance.now();
  };
  scratch = mkdtempSync(join(tmpdir(), 'svc-packed-'));
  const tarballs = join(scratch, 'tarballs');
  mkdirSync(tarballs);
  // Vitest's global setup has just built every package (build-once.ts: tsc to dist/, the element
  // bundle, the server's assets), which is what each prepack would redo: pack without it, while
  // the registry is seeded and starts.
  const [pack, local] = await Promise.all([
    run('npm', ['pack', '--ignore-scripts', ...PACKAGES.flatMap((name) => ['--workspace', name]), '--pack-destination', tarballs, '--json'], { ...NPM, cwd: REPO_ROOT }),
    startLocalRegistry({ repoRoot: REPO_ROOT, workspaces: WORKSPACES }),
  ]);
  packed = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as PackedFile[];
  registry = local;
  // The publisher's token lives in its own user config; the consumer's names the registry only.
  const publisherRc = join(scratch, 'publisher.npmrc');
  writeFileSync(publisherRc, `registry=${local.url}\n${local.authLine()}\n`);
  await Promise.all(
    packed.map((tarball) => run('npm', ['publish', join(tarballs, tarball.filename), '--registry', local.url], { ...NPM, cwd: scratch, env: { ...NPM.env, npm_config_userconfig: publisherRc } })),
  );
  phase('pack, seed the registry and publish');
  const consumerRc = join(scratch, 'consumer.npmrc');
  writeFileSync(consumerRc, `registry=${registry.url}\n`);

  // A user's install downloads better-sqlite3's prebuilt binary; this machine reaches no release
  // host, so its install would compile SQLite from source (a minute of CPU). prebuild-install
  // takes the same tarball from a local directory instead: the workspace's own binary, packed
  // under the name the download would have.
  const prebuilds = join(scratch, 'prebuilds');
  mkdirSync(prebuilds);
  const sqlite = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/better-sqlite3/package.json'), 'utf8')) as { version: string };
  const prebuild = `better-sqlite3-v${sqlite.version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['-czf', join(prebuilds, prebuild), '-C', join(REPO_ROOT, 'node_modules/better-sqlite3'), 'build/Release/better_sqlite3.node']);
  // Nothing of this npm run (npm_config_*, a workspace's settings) nor a developer's SVC_* leaks in.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('SVC_') && !key.toLowerCase().startsWith('npm_') && key !== 'PORT'));
  consumerEnv = {
    ...inherited,
    ...QUIET,
    npm_config_userconfig: consumerRc,
    npm_config_registry: registry.url,
    npm_config_cache: join(scratch, 'npm-cache'),
    npm_config_better_sqlite3_local_prebuilds: prebuilds,
  };

  // docs/install.md as written: install and init, then serve, then the manifest from another shell.
  phase('the local prebuilt binary');
  const [installBlock, serveBlock, manifestBlock] = commandBlocks('docs/install.md');
  const started = performance.now();
  installSteps = await shell(installBlock as string, scratch);
  if (installSteps.status !== 0) throw new Error(`docs/install.md's install steps failed:\n${installSteps.stdout}\n${installSteps.stderr}`);
  project = join(scratch, 'my-forms');
  // Its own process group, so the shell, npx and the server stop together.
  initServer = spawn('bash', ['-euo', 'pipefail', '-c', serveBlock as string], { cwd: project, env: { ...consumerEnv, PORT: '0', SVC_LOG__LEVEL: 'warn' }, detached: true });
  const initBase = await bannerOf(initServer, "docs/install.md's npx svc serve", /contact .*manifest/);
  manifestStep = await shell((manifestBlock as string).replaceAll('http://localhost:3000', initBase), scratch);
  const seconds = (performance.now() - started) / 1000;
  console.log(`packaging: npm install from the local registry + svc init + svc serve + manifest: ${seconds.toFixed(1)} s (${registry.seeded} package versions seeded)`);
  await stopGroup(initServer);
  phase("docs/install.md's steps");

  // The other packages by name, as a front end's project adds them.
  await run('npm', ['install', '@svc/client', '@svc/elements', '@svc/core'], { ...NPM, cwd: project, env: consumerEnv });
  phase('the other packages by name');
  writeFileSync(join(project, 'client-check.mjs'), CLIENT_SCRIPT);
  writeFileSync(join(project, 'page.js'), BROWSER_ENTRY);
  // npm init -y makes a CommonJS package; the typed consumer is an ES module, as .mts says.
  writeFileSync(join(project, 'consumer.mts'), TYPED_CONSUMER);

  // The installed server's demo, started through its bin as an operator would, on plain Node.
  const cwd = join(project, 'run');
  mkdirSync(cwd);
  server = spawn(join(project, 'node_modules/.bin/svc'), ['serve', '--demo'], { cwd, env: { PATH: process.env.PATH ?? '', PORT: '0', SVC_LOG__LEVEL: 'warn' } });
  base = await bannerOf(server, 'the installed demo', /kitchen-sink .*manifest/);
  phase('the installed demo');
  console.log(`packaging setup: ${phases.join(', ')}`);
}, 900_000);

afterAll(async () => {
  await stopGroup(initServer);
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await registry?.stop();
  if (scratch) removeInBackground(scratch);
});

// Each test reads what the setup installed and writes only its own files (a script's run, tsc's
// tsconfig.json and wrong.mts), so they run side by side: a tsc program and two CLI processes.
describe.concurrent('the packed packages', () => {
  it('hold dist/ (ESM, declarations, source maps) and no TypeScript sources or tests', () => {
    expect(packed.map((p) => p.name).sort()).toEqual([...PACKAGES].sort());
    for (const pkg of packed) {
      const paths = pkg.files.map((file) => file.path);
      expect(paths, pkg.name).toContain('dist/index.js');
      expect(paths, pkg.name).toContain('dist/index.d.ts');
      expect(paths, pkg.name).toContain('dist/index.js.map');
      expect(paths.filter((path) => path.startsWith('src/') || /\.test\./.test(path)), pkg.name).toEqual([]);
      const manifest = JSON.parse(readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(manifest.version, pkg.name).toBe(packed[0]?.version); // versions kept in step
      expect(manifest.license, pkg.name).toBe('MIT');
      expect(manifest.types, pkg.name).toBe('./dist/index.d.ts');
    }
    const server = packed.find((p) => p.name === '@svc/server');
    expect(server?.files.map((file) => file.path)).toEqual(expect.arrayContaining(['dist/cli/svc-main.js', 'assets/schema/form-definition.schema.json', 'assets/examples/svc.config.yaml']));
  });

  it('carry only their allow-listed files, and no secret-looking value or local config in any of them (issue #32)', () => {
    const problems: string[] = [];
    for (const pkg of packed) {
      for (const { path } of pkg.files) {
        const text = readFileSync(join(project, 'node_modules', pkg.name, path), 'utf8');
        problems.push(...packagedFileProblems(path, text).map((problem: string) => `${pkg.name}: ${problem}`));
      }
      const allowed = (JSON.parse(readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8')) as { files: string[] }).files.filter((entry) => !entry.startsWith('!'));
      const outside = pkg.files.map((file) => file.path).filter((path) => path !== 'package.json' && !/^(README|LICENSE)/i.test(path) && !allowed.some((entry) => path === entry || path.startsWith(`${entry}/`)));
      expect(outside, pkg.name).toEqual([]);
    }
    expect(problems).toEqual([]);
  });

  it('the scan finds what a local demo config would leak: a console password hash, an admin key hash, a secret, a stray config', () => {
    const leaked = [
      'console:',
      '  users:',
      '    - { username: ann, passwordHash: "scrypt$16384$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2g", scopes: [read] }',
      'admin:',
      `  keys: [{ name: ci, sha256: ${'3f'.repeat(32)}, scopes: [read] }]`,
      'secret: "a-real-server-secret-0123456789abcdef"',
    ].join('\n');
    const found = packagedFileProblems('assets/examples/svc.config.yaml', leaked);
    expect(found).toEqual([expect.stringContaining('password hash'), expect.stringContaining('key or token hash'), expect.stringContaining('secret in a config key')]);
    expect(packagedFileProblems('assets/examples/svc.config.local.yaml', 'server: { port: 3000 }')).toEqual([expect.stringContaining('local config')]);
    expect(packagedFileProblems('assets/examples/svc.config.yaml', 'secret: null\nadmin: { keys: [] }')).toEqual([]);
  });

  it('@svc/client imports under Node and submits a form to the packed server', async () => {
    const { stdout } = await run(process.execPath, ['client-check.mjs', base], { cwd: project });
    const result = JSON.parse(stdout) as { status: string; refused: string; catalogue: boolean };
    expect(result.status).toBe('submitted');
    expect(result.refused).toBe('FORM_NOT_FOUND');
    expect(result.catalogue).toBe(true);
    // Stored: the packed CLI reads it back from the server's database.
    const list = await run(join(project, 'node_modules/.bin/svc'), ['submissions', 'list', '--form', 'contact', '--demo'], { cwd: join(project, 'run') });
    expect(list.stdout).toMatch(/Ann[\s\S]*1 submission\(s\)/);
  });

  it('@svc/elements bundles for the browser with esbuild, and ships a single-file bundle', async () => {
    const result = await esbuild.build({ entryPoints: [join(project, 'page.js')], absWorkingDir: project, bundle: true, format: 'esm', platform: 'browser', write: false, logLevel: 'silent' });
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).toContain('svc-form');
    expect(code).not.toMatch(/from ['"]@svc\//); // everything resolved into the bundle
    const single = readFileSync(join(project, 'node_modules/@svc/elements/dist/svc-form.bundle.js'), 'utf8');
    expect(single).toContain('customElements');
    // No imports left: usable from one <script type="module">, nothing else to fetch.
    const alone = await esbuild.build({ entryPoints: [join(project, 'node_modules/@svc/elements/dist/svc-form.bundle.js')], bundle: true, write: false, metafile: true, logLevel: 'silent' });
    expect(Object.keys(alone.metafile.inputs)).toHaveLength(1);
    // The server serves that same bundle to its demo page.
    const served = await fetch(`${base}/demo/svc-elements.js`);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe(single);
  });

  it('a TypeScript consumer type-checks against the published declarations', async () => {
    // One tsc program (a run costs seconds of CPU): the consumer, and beside it the same file with a
    // wrong use added, which must be caught there, so the clean check of the consumer is real.
    writeFileSync(join(project, 'wrong.mts'), `${TYPED_CONSUMER}\nexport const wrong: number = createClient({ baseUrl: 1 });\n`);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', lib: ['ES2023', 'DOM'], types: [], skipLibCheck: false }, files: ['consumer.mts', 'wrong.mts'] }),
    );
    const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    const output = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).then(
      () => '',
      (error: { stdout: string }) => error.stdout,
    );
    const errors = output.split('\n').filter((line) => line.includes('error TS'));
    expect(errors.filter((line) => !line.startsWith('wrong.mts(')), output).toEqual([]);
    const appended = TYPED_CONSUMER.split('\n').length + 1;
    expect(errors.length, output).toBeGreaterThan(0);
    expect(errors.every((line) => line.startsWith(`wrong.mts(${appended},`)), output).toBe(true);
  });

  it('the packed server runs from dist/ on plain Node with its shipped assets and no tsx', async () => {
    expect(existsSync(join(project, 'node_modules/tsx'))).toBe(false);
    expect(existsSync(join(project, 'node_modules/esbuild'))).toBe(false);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    const manifest = await fetch(`${base}/svc/api/forms/kitchen-sink/manifest`);
    expect(manifest.status).toBe(200);
    const check = await run(join(project, 'node_modules/.bin/svc'), ['forms', 'check', join(project, 'node_modules/@svc/server/assets/examples/forms')], { cwd: project });
    expect(check.stdout).toMatch(/ok|valid/i);
  });
});

describe('installed from a registry (issue #33)', () => {
  it('each tarball carries a README and the root LICENSE, names its folder of the repository, and requires its siblings at its own version', async () => {
    const license = readFileSync(join(REPO_ROOT, 'LICENSE'), 'utf8');
    for (const pkg of packed) {
      const paths = pkg.files.map((file) => file.path);
      expect(paths, pkg.name).toEqual(expect.arrayContaining(['README.md', 'LICENSE']));
      const dir = join(project, 'node_modules', pkg.name);
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8'), pkg.name).toBe(license);
      expect(readFileSync(join(dir, 'README.md'), 'utf8'), pkg.name).toMatch(new RegExp(`^# ${pkg.name}\\n[\\s\\S]*npm install ${pkg.name}`));
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown> & { dependencies?: Record<string, string>; engines?: { node?: string }; repository?: { type?: string; directory?: string } };
      expect(manifest.engines?.node, pkg.name).toMatch(/^>=20(\.\d+)?$/);
      // No public address yet: the repository names the package's folder, and no made-up URL.
      expect(manifest.repository, pkg.name).toEqual({ type: 'git', directory: `packages/${pkg.name.slice('@svc/'.length)}` });
      const siblings = Object.entries(manifest.dependencies ?? {}).filter(([name]) => name.startsWith('@svc/'));
      for (const [name, range] of siblings) expect(`${name}@${range}`, pkg.name).toBe(`${name}@${pkg.version}`);
    }
  });

  it('took every package from the local registry, which holds what @svc/server needs and proxies nothing', async () => {
    expect(registry?.missing).toEqual([]);
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string; link?: boolean }> };
    const installed = Object.entries(lock.packages).filter(([path, entry]) => path !== '' && !entry.link);
    expect(installed.length).toBeGreaterThan(100);
    expect(installed.filter(([, entry]) => !entry.resolved?.startsWith(registry?.url ?? '-')).map(([path, entry]) => `${path}: ${entry.resolved}`)).toEqual([]);
    // A name it was not seeded with is a 404, not a fetch from anywhere else.
    const unknown = await fetch(`${registry?.url}left-pad`);
    expect(unknown.status).toBe(404);
  });

  it("runs docs/install.md's steps as written: install, svc init, forms check, --version, serve, and the contact manifest answers", () => {
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'packages/server/package.json'), 'utf8')) as { version: string };
    expect(installSteps.stdout).toContain('svc init: wrote a new svc project');
    expect(installSteps.stdout).toMatch(/1 form\(s\) OK in .*: contact/);
    expect(installSteps.stdout).toContain(`svc ${version}\n`);
    expect(statSync(join(project, '.svc-secret')).mode & 0o777).toBe(0o600);
    const consumer = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(consumer.dependencies)).toContain('@svc/server');
    expect(manifestStep.status, manifestStep.stderr).toBe(0);
    const manifest = JSON.parse(manifestStep.stdout) as { data?: { form?: { handle?: string }; fields?: Record<string, unknown> } };
    expect(manifest.data?.form?.handle).toBe('contact');
    expect(Object.keys(manifest.data?.fields ?? {})).toEqual(expect.arrayContaining(['firstName', 'lastName', 'email', 'message']));
  });
});
