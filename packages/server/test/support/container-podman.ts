/**
 * podman for the container test (issue #33 item 3): whether it can run a container on this machine,
 * and the environment every podman command of the test (and of docs/container.md's blocks) runs in.
 *
 * These machines run containers with runc and cgroupfs (crun fails on the kernel's cgroups), and
 * without podman's default ulimits (runc may not raise a limit past the host's hard one): that is
 * a containers.conf of the test's own, named by CONTAINERS_CONF, so nothing global is edited.
 * Storage is podman's default (overlay) when it works, else vfs in a graph root of its own.
 */
import { createServer } from 'node:net';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { runCommand, type CommandRun } from './svc-command.js';

export const RUNC = '/usr/bin/runc';
const WORK_DIR = join(tmpdir(), 'svc-container-test');

export interface Podman {
  /** PATH plus CONTAINERS_CONF (and CONTAINERS_STORAGE_CONF under vfs): for podman and shell blocks. */
  readonly env: NodeJS.ProcessEnv;
  /** `overlay` or `vfs`. */
  readonly storage: string;
  run(args: readonly string[], options?: { timeoutMs?: number; cwd?: string; input?: string }): Promise<CommandRun>;
}

/** The first `name` on PATH, or undefined. */
export function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

function writeConfs(storage: 'default' | 'vfs'): NodeJS.ProcessEnv {
  mkdirSync(WORK_DIR, { recursive: true });
  const conf = join(WORK_DIR, 'containers.conf');
  writeFileSync(conf, `[containers]\ndefault_ulimits = []\n\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\n\n[engine.runtimes]\nrunc = ["${RUNC}"]\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, CONTAINERS_CONF: conf };
  if (storage === 'vfs') {
    // A graph root of its own: podman refuses to open an overlay store with another driver.
    const storageConf = join(WORK_DIR, 'storage.conf');
    const root = process.getuid?.() === 0 ? '/var/lib/containers/svc-test-vfs' : join(WORK_DIR, 'vfs');
    writeFileSync(storageConf, `[storage]\ndriver = "vfs"\nrunroot = "${join(WORK_DIR, 'vfs-run')}"\ngraphroot = "${root}"\n`);
    env.CONTAINERS_STORAGE_CONF = storageConf;
  }
  return env;
}

function podmanWith(env: NodeJS.ProcessEnv, storage: string): Podman {
  return {
    env,
    storage,
    run: (args, options = {}) => runCommand('podman', args, { env, timeoutMs: options.timeoutMs ?? 120_000, cwd: options.cwd, input: options.input }),
  };
}

const lastLine = (run: CommandRun) => (run.stderr.trim() || run.stdout.trim()).split('\n').pop() ?? `exit ${run.status}`;

/**
 * A root file system of `true` and the libraries ldd names for it: enough to run one container
 * without an image, which no machine here can pull.
 */
async function probeRootfs(): Promise<string> {
  const root = join(WORK_DIR, 'probe-rootfs');
  rmSync(root, { recursive: true, force: true });
  const truePath = onPath('true') ?? '/bin/true';
  const ldd = await runCommand('ldd', [truePath], { timeoutMs: 30_000 });
  const libraries = [...ldd.stdout.matchAll(/(\/\S+)/g)].map((m) => m[1] as string).filter((path) => existsSync(path));
  for (const [from, to] of [[truePath, '/bin/true'], ...libraries.map((lib) => [lib, lib])] as const) {
    mkdirSync(join(root, dirname(to)), { recursive: true });
    copyFileSync(from, join(root, to));
  }
  return root;
}

/** podman ready to run containers here, or the reason it cannot (printed by the skip). */
export async function probePodman(): Promise<Podman | { reason: string }> {
  if (!onPath('podman')) return { reason: 'podman is not installed (apt-get install podman runc)' };
  if (!existsSync(RUNC)) return { reason: `${RUNC} is missing (apt-get install runc)` };
  let chosen: Podman | undefined;
  const refusals: string[] = [];
  for (const storage of ['default', 'vfs'] as const) {
    const env = writeConfs(storage);
    const info = await runCommand('podman', ['info', '--format', '{{.Store.GraphDriverName}}'], { env, timeoutMs: 60_000 });
    if (info.status === 0) {
      chosen = podmanWith(env, info.stdout.trim());
      break;
    }
    refusals.push(`podman info (${storage} storage): ${lastLine(info)}`);
  }
  if (!chosen) return { reason: `podman cannot open its storage here: ${refusals.join('; ')}` };
  const rootfs = await probeRootfs();
  const probe = await chosen.run(['run', '--rm', '--network=host', '--rootfs', rootfs, '/bin/true'], { timeoutMs: 120_000 });
  rmSync(rootfs, { recursive: true, force: true });
  if (probe.status !== 0) return { reason: `podman with runc cannot run a container here: ${lastLine(probe)}` };
  return chosen;
}

/** A TCP port free on 127.0.0.1 now (a container on the host network listens on it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The hard limit of open files: a build's npm needs more than podman's default, and runc cannot go past it. */
export async function openFilesLimit(): Promise<number> {
  const run = await runCommand('sh', ['-c', 'ulimit -Hn'], { timeoutMs: 10_000 });
  const value = run.stdout.trim();
  return value === 'unlimited' ? 1_048_576 : Math.min(Number(value) || 1024, 1_048_576);
}
