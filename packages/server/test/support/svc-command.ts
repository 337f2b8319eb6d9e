/**
 * How tests run the `svc` CLI as a child process: plain node on the compiled
 * packages/server/dist/cli/svc-main.js (one process, so signals reach the server itself), as an
 * installed svc runs. Vitest's global setup (build-once.ts) builds dist/ before any test file.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
export const SVC_MAIN = join(REPO_ROOT, 'packages/server/dist/cli/svc-main.js');

/** Node's arguments before the svc command's own: `spawn(process.execPath, [...SVC_NODE_ARGS, 'serve'])`. */
export const SVC_NODE_ARGS: readonly string[] = [SVC_MAIN];

export interface CommandRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a command to its end without blocking the test worker. spawnSync held a worker's event
 * loop for a whole CLI run (25-50 s beside two CPU hogs), and vitest's worker gives up on an
 * answer from the main process after 60 s of that: the run ended with "Timeout calling
 * onTaskUpdate" errors and exit code 1 though every test passed.
 */
export function runCommand(command: string, args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; input?: string }): Promise<CommandRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, [...args], { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (status) => resolvePromise({ status, stdout, stderr }));
    // A child that exits without reading its input (podman rm) closes the pipe first: not an error.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}

/** `svc ARGS` (the built one), as runCommand runs it. */
export function runSvc(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; input?: string }): Promise<CommandRun> {
  return runCommand(process.execPath, [...SVC_NODE_ARGS, ...args], options);
}

/**
 * Deletes a directory tree in a detached `rm -rf` the test does not wait for. This disk is mounted
 * with `discard`, so every unlink waits on the device: the packaging test's 23,000 installed files
 * took 70-80 s to delete (rmSync and rm alike, almost no CPU), longer than everything it tests.
 */
export function removeInBackground(path: string): void {
  const child = spawn('rm', ['-rf', '--', path], { detached: true, stdio: 'ignore' });
  child.once('error', () => undefined);
  child.unref();
}
