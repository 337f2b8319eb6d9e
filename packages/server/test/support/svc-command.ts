/**
 * How tests run the `svc` CLI from source as a child process: plain node with tsx's loader (one
 * process, so signals reach the server itself) and the `svc-source` condition, under which the
 * workspace packages export their TypeScript sources instead of a dist/ that may not be built.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
export const SVC_MAIN = join(REPO_ROOT, 'packages/server/src/cli/svc-main.ts');
const TSX_LOADER = pathToFileURL(join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** Node's arguments before the svc command's own: `spawn(process.execPath, [...SVC_FROM_SOURCE, 'serve'])`. */
export const SVC_FROM_SOURCE: readonly string[] = ['--conditions=svc-source', '--import', TSX_LOADER, SVC_MAIN];

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

/** `svc ARGS` from source, as runCommand runs it. */
export function runSvc(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; input?: string }): Promise<CommandRun> {
  return runCommand(process.execPath, [...SVC_FROM_SOURCE, ...args], options);
}
