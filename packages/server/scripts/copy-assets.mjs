// Copies the files a built @svc/server reads at run time from the repository root into assets/
// (see src/package-assets.ts): the form-definition JSON Schema and the demo's examples. Runs after
// tsc, so the list is read from the compiled module that also reads the copies.
import { cpSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative as relativeTo } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHIPPED_ASSETS } from '../dist/package-assets.js';
import { packagedFileProblems } from './secret-scan.mjs';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const assets = fileURLToPath(new URL('../assets/', import.meta.url));

rmSync(assets, { recursive: true, force: true });
for (const relative of SHIPPED_ASSETS) cpSync(repo + relative, assets + relative, { recursive: true });

// A local edit (a console password hash, an admin key hash in the demo's config) must not reach a
// tarball: npm pack runs this build first, so it stops here with the file and line.
const packageRoot = fileURLToPath(new URL('../', import.meta.url));
const walk = (path) => (statSync(path).isDirectory() ? readdirSync(path).flatMap((name) => walk(join(path, name))) : [path]);
const problems = walk(assets).flatMap((file) => packagedFileProblems(relativeTo(packageRoot, file).split('\\').join('/'), readFileSync(file, 'utf8')));
if (problems.length > 0) {
  console.error(`copy-assets: refusing to package secrets or local files (keep them out of examples/ or in SVC_* variables):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
