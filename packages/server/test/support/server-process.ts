/**
 * The real server as a child process (`svc serve --config FILE`), for tests that need what an
 * in-process app cannot give: a crash (SIGKILL) at any instant, a restart on the same data, and
 * several instances sharing one database.
 *
 * The child is `node …/dist/cli/svc-main.js` (built once by build-once.ts), one process: a wrapper
 * such as `npx tsx` runs the script in a grandchild and only relays SIGINT/SIGTERM, so a SIGKILL
 * meant for the server would kill the wrapper and leave the server running as an orphan.
 *
 * Every child started here is tracked; `killAllServers()` (call it from afterAll) SIGKILLs those
 * still alive, and a process `exit` hook does the same if the test worker dies first.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { REPO_ROOT, SVC_NODE_ARGS } from './svc-command.js';

export { REPO_ROOT };
const OUTPUT_KEPT = 64 * 1024;

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number;
  readonly port: number;
  /** http://127.0.0.1:<port> (the banner says localhost, which may resolve to ::1 first). */
  readonly base: string;
  /** The last 64 KiB of stdout and stderr, for failure messages. */
  output(): string;
  /** Resolves with how the process ended once it has. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` (SIGKILL by default) and waits for the process to be gone. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** A clean shutdown (SIGTERM), falling back to SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartServerOptions {
  /** `serve --config FILE`; leave it out with `demo` for `serve --demo`, as a person starts the demo. */
  readonly configFile?: string;
  readonly demo?: boolean;
  /** More `serve` flags, as a person types them (`['--port', '0']`). */
  readonly args?: readonly string[];
  /** Extra environment (SVC_* overrides); the parent's SVC_* and PORT are not inherited. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** How long to wait for the banner. */
  readonly bootTimeoutMs?: number;
  /** A label for failure messages. */
  readonly name?: string;
}

const live = new Set<ChildProcessWithoutNullStreams>();

process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function childEnv(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // The test's own SVC_* (SVC_TEST_POSTGRES_URL, a developer's SVC_SECRET …) and PORT would
    // silently override the config file the test wrote.
    if (key.startsWith('SVC_') || key === 'PORT') continue;
    env[key] = value;
  }
  return { ...env, SVC_LOG__LEVEL: 'warn', ...extra };
}

/**
 * A boot from source cost about 5 s of CPU through tsx, 45-50 s on two cores shared with other
 * work; from dist/ about half. The deadline only catches a server that hangs.
 */
const BOOT_TIMEOUT_MS = 90_000;

export async function startServer(options: StartServerOptions): Promise<ServerProcess> {
  const name = options.name ?? 'svc';
  const args = [...(options.configFile !== undefined ? ['--config', options.configFile] : []), ...(options.demo ? ['--demo'] : []), ...(options.args ?? [])];
  const child = spawn(process.execPath, [...SVC_NODE_ARGS, 'serve', ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    env: childEnv(options.env ?? {}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  let out = '';
  const keep = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.length > OUTPUT_KEPT * 2) out = out.slice(-OUTPUT_KEPT);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolveExit({ code, signal });
    });
  });
  const output = () => out.slice(-OUTPUT_KEPT);

  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`${name}: no banner within ${options.bootTimeoutMs ?? BOOT_TIMEOUT_MS} ms; output so far:\n${output()}`));
    }, options.bootTimeoutMs ?? BOOT_TIMEOUT_MS);
    const onData = () => {
      const match = /svc is running at https?:\/\/[^\s:]+:(\d+)/.exec(out);
      if (match) {
        cleanup();
        resolvePort(Number(match[1]));
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      cleanup();
      reject(new Error(`${name}: exited during boot (code ${code}, signal ${signal}):\n${output()}`));
    };
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });

  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    child,
    pid: child.pid as number,
    port,
    base: `http://127.0.0.1:${port}`,
    output,
    exited,
    kill,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      try {
        return await exited;
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** SIGKILLs every server child still running and waits until they are gone. */
export async function killAllServers(): Promise<void> {
  const waits = [...live].map(
    (child) =>
      new Promise<void>((resolveExit) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolveExit();
        child.once('exit', () => resolveExit());
        child.kill('SIGKILL');
      }),
  );
  await Promise.all(waits);
}
