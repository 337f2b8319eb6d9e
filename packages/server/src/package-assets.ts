/**
 * Files svc reads at run time that are not code: the form-definition JSON Schema and the demo's
 * examples (config, forms, templates). In the repository they live at its root (`schema/`,
 * `examples/`); a built or packed @svc/server carries copies the build put in `assets/` beside
 * `dist/`, because a package installed from npm has no repository around it.
 */
import { fileURLToPath } from 'node:url';

/** This module sits directly in src/ or dist/, so one level up is the package's own folder. */
const PACKAGE_ROOT = new URL('../', import.meta.url);

/**
 * True under tsx (sources are .ts): the repository's files are read where they are, so an edit
 * shows at once and no stale copy in assets/ can win.
 */
export const RUNNING_FROM_SOURCE: boolean = import.meta.url.endsWith('.ts');

/** Where a repository-root path (e.g. `schema/form-definition.schema.json`) is for this run. */
export function assetUrl(relative: string): URL {
  return RUNNING_FROM_SOURCE ? new URL(`../../${relative}`, PACKAGE_ROOT) : new URL(`assets/${relative}`, PACKAGE_ROOT);
}

export function assetPath(relative: string): string {
  return fileURLToPath(assetUrl(relative));
}

/**
 * What the build copies into assets/ (paths relative to the repository root), named one by one:
 * a machine's own files beside them in examples/ never ship (issue #32). package.json's "files"
 * lists the same paths, and the build refuses to finish when a copy holds a secret-looking value.
 */
export const SHIPPED_ASSETS = [
  'schema/form-definition.schema.json',
  'examples/svc.config.yaml',
  'examples/forms',
  'examples/templates',
  'examples/files',
] as const;
