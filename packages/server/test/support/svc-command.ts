/**
 * How tests run the `svc` CLI from source as a child process: plain node with tsx's loader (one
 * process, so signals reach the server itself) and the `svc-source` condition, under which the
 * workspace packages export their TypeScript sources instead of a dist/ that may not be built.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const REPO_ROOT = resolve(import.meta.dirname, '../../../..');
export const SVC_MAIN = join(REPO_ROOT, 'packages/server/src/cli/svc-main.ts');
const TSX_LOADER = pathToFileURL(join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** Node's arguments before the svc command's own: `spawn(process.execPath, [...SVC_FROM_SOURCE, 'serve'])`. */
export const SVC_FROM_SOURCE: readonly string[] = ['--conditions=svc-source', '--import', TSX_LOADER, SVC_MAIN];
