// Copies the files a built @svc/server reads at run time from the repository root into assets/
// (see src/package-assets.ts): the form-definition JSON Schema and the demo's examples. Runs after
// tsc, so the list is read from the compiled module that also reads the copies.
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SHIPPED_ASSETS } from '../dist/package-assets.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const assets = fileURLToPath(new URL('../assets/', import.meta.url));

rmSync(assets, { recursive: true, force: true });
for (const relative of SHIPPED_ASSETS) cpSync(repo + relative, assets + relative, { recursive: true });
