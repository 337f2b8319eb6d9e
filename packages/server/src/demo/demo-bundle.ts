/**
 * The `<svc-form>` bundle the demo page loads: @svc/elements with @svc/client and @svc/core.
 * Running from dist/ it is the browser bundle @svc/elements ships; running from source (tsx) it
 * is built by esbuild from the elements' sources on the first request, so an edit shows on reload.
 * Either way it is read once and kept in memory.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { RUNNING_FROM_SOURCE } from '../package-assets.js';

/** The condition under which the workspace's packages export their TypeScript sources. */
export const SOURCE_CONDITION = 'svc-source';

let bundle: Promise<string> | null = null;

/** The bundled ES module's text; a failed read or build is not cached, so a fix shows on reload. */
export function demoBundle(): Promise<string> {
  bundle ??= RUNNING_FROM_SOURCE ? buildFromSource() : readFile(fileURLToPath(import.meta.resolve('@svc/elements/svc-form.js')), 'utf8');
  bundle.catch(() => {
    bundle = null;
  });
  return bundle;
}

async function buildFromSource(): Promise<string> {
  // Imported lazily: esbuild is a development tool, absent from a packed server's dependencies.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(new URL('../../../elements/src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    write: false,
    target: 'es2022',
    platform: 'browser',
    conditions: [SOURCE_CONDITION],
    legalComments: 'none',
    logLevel: 'silent',
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error('esbuild produced no output for @svc/elements');
  return output.text;
}
