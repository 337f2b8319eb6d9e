/**
 * Client weight (issue #17): the gzip size of what a page downloads, `<svc-form>` with everything
 * it imports, and `@svc/client` alone, each bundled and minified by esbuild for browsers.
 */
import { gzipSync } from 'node:zlib';
import { resolve } from 'node:path';
import * as esbuild from 'esbuild';

export interface Weight {
  readonly name: string;
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  readonly targetGzipBytes: number;
}

const ENTRIES = [
  { name: '<svc-form> (@svc/elements + client + core)', entry: '../packages/elements/src/index.ts', targetGzipBytes: 35_000 },
  { name: '@svc/client (+ core)', entry: '../packages/client/src/index.ts', targetGzipBytes: 12_000 },
] as const;

export async function measureClientWeight(): Promise<Weight[]> {
  const out: Weight[] = [];
  for (const { name, entry, targetGzipBytes } of ENTRIES) {
    const result = await esbuild.build({
      entryPoints: [resolve(import.meta.dirname, entry)],
      bundle: true,
      minify: true,
      format: 'esm',
      write: false,
      target: 'es2022',
      platform: 'browser',
      // The workspace packages' TypeScript sources, not a dist/ that may be stale or absent.
      conditions: ['svc-source'],
      legalComments: 'none',
      logLevel: 'silent',
    });
    const bytes = result.outputFiles[0]?.contents ?? new Uint8Array();
    out.push({ name, minifiedBytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length, targetGzipBytes });
  }
  return out;
}

export function printWeights(weights: readonly Weight[]): void {
  const kb = (n: number) => `${(n / 1000).toFixed(1)} kB`;
  process.stdout.write('| bundle | minified | gzip | target (gzip) |\n|---|---|---|---|\n');
  for (const w of weights) process.stdout.write(`| ${w.name} | ${kb(w.minifiedBytes)} | ${kb(w.gzipBytes)} | ≤ ${kb(w.targetGzipBytes)} |\n`);
  for (const w of weights) process.stdout.write(`bench weight ${w.name} gzip_bytes=${w.gzipBytes} target=${w.targetGzipBytes}\n`);
  process.stdout.write('\n');
}
