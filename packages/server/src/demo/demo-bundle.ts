/**
 * The `<svc-form>` bundle the demo page loads: @svc/elements with @svc/client and @svc/core,
 * built by esbuild on the first request and kept in memory (the demo has no build step).
 */
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../../../elements/src/index.ts', import.meta.url));

let bundle: Promise<string> | null = null;

/** The bundled ES module's text; a failed build is not cached, so a fixed file builds on reload. */
export function demoBundle(): Promise<string> {
  bundle ??= (async () => {
    // Imported lazily: esbuild is a development tool and only the demo needs it.
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: [ENTRY],
      bundle: true,
      format: 'esm',
      write: false,
      target: 'es2022',
      platform: 'browser',
      legalComments: 'none',
      logLevel: 'silent',
    });
    const output = result.outputFiles[0];
    if (!output) throw new Error('esbuild produced no output for @svc/elements');
    return output.text;
  })();
  bundle.catch(() => {
    bundle = null;
  });
  return bundle;
}
