/**
 * Vitest's global setup: `npm run build` once before any test file runs, so every `svc` a test
 * starts as a child process (CLI runs, servers) runs the compiled dist/, as an installed svc does.
 * From source through tsx each child cost about 3.5 s of CPU to start (tsx's loader answers every
 * module of the server across a thread); from dist/ 1.7 s. With some hundred children a run, that
 * paid for the build several times over (issue #31 item 11: the suite within 8 minutes idle).
 * Tests in the worker itself still import the sources (the svc-source condition).
 */
import { spawn } from 'node:child_process';
import { REPO_ROOT } from './svc-command.js';

export default async function buildOnce(): Promise<void> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'build'], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (status) => (status === 0 ? resolve() : reject(new Error(`npm run build failed (${status}); tests run the built svc:\n${text}`))));
  });
  console.log(`build-once: npm run build for the svc children took ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
