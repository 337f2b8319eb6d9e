/**
 * The service as it ships: the bench's targets load svc from the compiled `dist/` of its packages
 * (`npm run bench` builds them first), as `svc serve` runs it, not from the TypeScript sources
 * that tsx transforms as it loads them. Under tsx's transform a target sometimes (two starts in
 * five) promoted about 4 KB per request into the old generation, so each young collection took
 * 3.7 ms instead of 0.7 and a manifest cost 75 µs of CPU instead of 42; the compiled code never
 * did in a dozen starts (issue #17). Types still come from the sources.
 */
import { existsSync } from 'node:fs';

const DIST = new URL('../packages/server/dist/', import.meta.url);

/** The compiled module at `path` under packages/server/dist (e.g. `app.js`), typed as its source. */
export async function fromDist<T>(path: string): Promise<T> {
  const url = new URL(path, DIST);
  if (!existsSync(url)) throw new Error(`${url.pathname} is missing: run \`npm run build\` (npm run bench does) before starting bench targets`);
  return (await import(url.href)) as T;
}
