/**
 * The Node base image the container test builds svc's image FROM (issue #33 item 3). No image can
 * be pulled here, so it stands in for the official node:20-bookworm-slim: Debian bookworm from
 * Debian's own mirror (debootstrap, minbase) plus this machine's Node and npm, where the official
 * image keeps them (/usr/local). It is made once and reused by later runs (and by CI on the same
 * machine) while its fingerprint label matches what it was made from.
 *
 * Three things stand in for what a user's machine reaches and this one does not:
 * - better-sqlite3's prebuilt binary, which a user's install downloads from GitHub: the
 *   workspace's own binary, packed as that download (as packaging.test.ts does), in a directory
 *   npm_config_better_sqlite3_local_prebuilds names, so the image needs no compiler;
 * - the certificate authority of the proxy this machine reaches the npm registry through
 *   (NODE_EXTRA_CA_CERTS), copied in and named by the same variable;
 * - npm's cache: npm_config_cache=/var/cache/npm, where the test mounts this machine's cache, and
 *   prefer-offline, so the build's install downloads only what the cache lacks.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT, runCommand } from './svc-command.js';
import type { Podman } from './container-podman.js';

const NODE_MAJOR = process.versions.node.split('.')[0] as string;
export const BASE_IMAGE = `localhost/svc-test-node:${NODE_MAJOR}`;
const FINGERPRINT_LABEL = 'svc.test.fingerprint';
/** Where npm lives beside this Node (/usr/bin/node -> /usr/lib/node_modules/npm). */
const HOST_NPM = join(dirname(dirname(process.execPath)), 'lib/node_modules/npm');
const SQLITE_DIR = join(REPO_ROOT, 'node_modules/better-sqlite3');

/** Debian's mirror and suite as this machine's apt has them (deb.debian.org/bookworm if unsure). */
export function debianSource(): { mirror: string; suite: string } {
  const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  const suite = /^VERSION_CODENAME=(\S+)$/m.exec(osRelease)?.[1] ?? 'bookworm';
  const texts = ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list'].filter(existsSync).map((file) => readFileSync(file, 'utf8'));
  for (const text of texts) {
    const mirror = /^URIs:\s*(\S+\/debian)\/?$/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s+\S+/m.exec(text)?.[1];
    if (mirror) return { mirror, suite };
  }
  return { mirror: 'http://deb.debian.org/debian', suite };
}

function sqliteVersion(): string {
  return (JSON.parse(readFileSync(join(SQLITE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
}

function extraCa(): string | undefined {
  const file = process.env.NODE_EXTRA_CA_CERTS;
  return file && existsSync(file) ? file : undefined;
}

/** What the image is made of: a change to any of it makes a new one. */
export function baseImageFingerprint(): string {
  const parts = {
    recipe: 1,
    node: process.version,
    npm: (JSON.parse(readFileSync(join(HOST_NPM, 'package.json'), 'utf8')) as { version: string }).version,
    sqlite: sqliteVersion(),
    debian: debianSource(),
    ca: extraCa() ? createHash('sha256').update(readFileSync(extraCa() as string)).digest('hex') : null,
  };
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

/** Why this machine cannot make the base image, or undefined when it can (or has it already). */
export function baseImageMissingTool(): string | undefined {
  if (process.getuid?.() !== 0) return 'debootstrap needs root to make the base image';
  if (!existsSync('/usr/sbin/debootstrap')) return 'debootstrap is not installed (apt-get install debootstrap)';
  if (!existsSync(join(HOST_NPM, 'bin/npm-cli.js'))) return `no npm beside this Node at ${HOST_NPM}`;
  if (!existsSync(join(SQLITE_DIR, 'build/Release/better_sqlite3.node'))) return 'the workspace has no built better-sqlite3 (npm install)';
  return undefined;
}

export async function baseImageIsCurrent(podman: Podman): Promise<boolean> {
  const inspect = await podman.run(['image', 'inspect', '--format', `{{ index .Config.Labels "${FINGERPRINT_LABEL}" }}`, BASE_IMAGE]);
  return inspect.status === 0 && inspect.stdout.trim() === baseImageFingerprint();
}

async function must(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<void> {
  const run = await runCommand(command, args, options);
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status}):\n${(run.stderr || run.stdout).slice(-4000)}`);
}

/** Makes BASE_IMAGE unless it is current; says which it did. */
export async function ensureBaseImage(podman: Podman): Promise<'reused' | 'made'> {
  if (await baseImageIsCurrent(podman)) return 'reused';
  const missing = baseImageMissingTool();
  if (missing) throw new Error(`cannot make ${BASE_IMAGE}: ${missing}`);
  const work = mkdtempSync('/var/tmp/svc-base-image-');
  const root = join(work, 'rootfs');
  try {
    const { mirror, suite } = debianSource();
    await must('debootstrap', ['--variant=minbase', suite, root, mirror], { timeoutMs: 1_200_000 });
    rmSync(join(root, 'var/cache/apt/archives'), { recursive: true, force: true });
    rmSync(join(root, 'var/lib/apt/lists'), { recursive: true, force: true });
    // Node and npm where the official image has them.
    mkdirSync(join(root, 'usr/local/bin'), { recursive: true });
    cpSync(process.execPath, join(root, 'usr/local/bin/node'));
    cpSync(HOST_NPM, join(root, 'usr/local/lib/node_modules/npm'), { recursive: true, dereference: true });
    symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', join(root, 'usr/local/bin/npm'));
    symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', join(root, 'usr/local/bin/npx'));
    // better-sqlite3's download, as a local prebuild (see the header).
    const prebuilds = join(root, 'opt/svc-prebuilds');
    mkdirSync(prebuilds, { recursive: true });
    const tarball = `better-sqlite3-v${sqliteVersion()}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    await must('tar', ['-czf', join(prebuilds, tarball), '-C', SQLITE_DIR, 'build/Release/better_sqlite3.node'], { timeoutMs: 60_000 });
    const env = [
      'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      'npm_config_better_sqlite3_local_prebuilds=/opt/svc-prebuilds',
      'npm_config_cache=/var/cache/npm',
      'npm_config_prefer_offline=true',
      'npm_config_update_notifier=false',
    ];
    const ca = extraCa();
    if (ca) {
      mkdirSync(join(root, 'usr/local/share/ca-certificates'), { recursive: true });
      cpSync(ca, join(root, 'usr/local/share/ca-certificates/svc-test-extra.pem'));
      env.push('NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/svc-test-extra.pem');
    }
    const changes = [...env.map((e) => `ENV ${e}`), `LABEL ${FINGERPRINT_LABEL}=${baseImageFingerprint()}`, 'CMD ["node"]'];
    const importArgs = ['import', ...changes.flatMap((change) => ['--change', change]), '-', BASE_IMAGE];
    // tar streams the tree into podman import; the tree's owners (root) are kept as they are.
    const quoted = importArgs.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    await must('bash', ['-c', `set -o pipefail; tar -C '${root}' -c . | podman ${quoted}`], { env: podman.env, timeoutMs: 600_000 });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (!(await baseImageIsCurrent(podman))) throw new Error(`${BASE_IMAGE} was imported but does not carry its fingerprint`);
  return 'made';
}

/**
 * Each build whose sources changed leaves the previous one's build-stage layers behind, untagged
 * (about 0.5 GB a run). This removes untagged images made FROM the base image before `since`,
 * leaves first, and nothing else: the current build's layers (newer, or the parents of newer
 * ones, such as the npm install layer a new build reused) and any image not made here stay.
 */
export async function removeStaleBuilds(podman: Podman, since: Date): Promise<number> {
  let removed = 0;
  for (let round = 0; round < 20; round += 1) {
    const all = await podman.run(['images', '-a', '-q', '--no-trunc']);
    const ids = [...new Set(all.stdout.split('\n').map((id) => id.trim().replace(/^sha256:/, '')).filter(Boolean))];
    if (all.status !== 0 || ids.length === 0) break;
    const inspect = await podman.run(['image', 'inspect', ...ids]);
    if (inspect.status !== 0) break;
    const images = JSON.parse(inspect.stdout) as { Id: string; Parent: string; Created: string; RepoTags: string[] | null }[];
    const byId = new Map(images.map((image) => [image.Id, image]));
    const base = images.find((image) => (image.RepoTags ?? []).includes(BASE_IMAGE));
    if (!base) break;
    const fromBase = (id: string): boolean => {
      for (let at = byId.get(id); at; at = byId.get(at.Parent)) if (at.Id === base.Id) return true;
      return false;
    };
    const parents = new Set(images.map((image) => image.Parent));
    const stale = images.filter((image) => (image.RepoTags ?? []).length === 0 && !parents.has(image.Id) && new Date(image.Created) < since && fromBase(image.Id));
    if (stale.length === 0) break;
    // An image a container still uses stays (rmi refuses it); the next run tries again.
    const rmi = await podman.run(['rmi', ...stale.map((image) => image.Id)]);
    if (rmi.status !== 0) break;
    removed += stale.length;
  }
  return removed;
}
