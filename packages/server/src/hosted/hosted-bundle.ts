/**
 * The `<svc-form>` bundles a hosted page loads (issue #36 item 4): one per language, with or
 * without phone-number support, so a page carries one catalogue and no phone metadata it does not
 * use (packages/elements/scripts/hosted-bundles.mjs). A `-phone` variant imports the metadata as
 * a chunk of its own (`svc-phone-<hash>.js`) on a phone field's first focus, so it is not part of
 * the page's weight before anyone touches the form. From dist/ they are the files @svc/elements
 * ships; from source (tsx) esbuild builds each variant, with its chunk, on its first request, as
 * the demo's bundle is. Each file is read once and kept in memory with its ETag.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Form } from '@svc/core';
import { RUNNING_FROM_SOURCE } from '../package-assets.js';

export const HOSTED_BUNDLE_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'] as const;

export interface HostedBundle {
  readonly code: string;
  readonly etag: string;
}

/** `en`, `de-phone`: the variant a page names in its script URL. */
export const VARIANT_PATTERN = /^(en|de|fr|es|nl|ar)(-phone)?$/;
/** The files under `<prefix>/_/` a page's script may load: its variant, and a phone variant's chunk. */
const FILE_PATTERN = /^svc-form\.((?:en|de|fr|es|nl|ar)(?:-phone)?)\.js$|^svc-phone-[A-Z0-9]+\.js$/;
/** Any phone variant builds the chunk: it holds libphonenumber alone, the same in every language. */
const CHUNK_VARIANT = 'en-phone';

const files = new Map<string, Promise<HostedBundle | null>>();
/** From source: each variant's esbuild output files by name (the variant and its chunk). */
const builds = new Map<string, Promise<ReadonlyMap<string, string>>>();
let stylesHash: Promise<string> | null = null;

/** The variant of a form's page: its site's language, `-phone` when a phone field is on it. */
export function bundleVariant(form: Form, language: string): string {
  const phone = form.fields.some((field) => field.type === 'phone');
  return `${language}${phone ? '-phone' : ''}`;
}

/**
 * The file `name` of `<prefix>/_/` (`svc-form.de.js`, `svc-phone-….js`), or null for a name that
 * is none of them; a failed read or build is not kept.
 *
 * @example
 * await hostedFile('svc-form.en-phone.js'); // { code, etag }
 */
export function hostedFile(name: string): Promise<HostedBundle | null> {
  let file = files.get(name);
  if (!file) {
    file = FILE_PATTERN.test(name) ? load(name).then((code) => (code === null ? null : { code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 27)}"` })) : Promise.resolve(null);
    // Only files that exist are kept: a guessed chunk name must not grow the map.
    file.then((found) => (found === null ? files.delete(name) : undefined), () => files.delete(name));
    files.set(name, file);
  }
  return file;
}

/** The CSP source that allows the element's one shadow `<style>` (its sha256). */
export function elementStylesHash(): Promise<string> {
  stylesHash ??= RUNNING_FROM_SOURCE
    ? import('../../../elements/scripts/hosted-bundles.mjs').then(async (script) => script.formStylesHash((await import('esbuild')).build))
    : readFile(fileURLToPath(import.meta.resolve('@svc/elements/hosted/styles.json')), 'utf8').then((text) => (JSON.parse(text) as { formStylesHash: string }).formStylesHash);
  stylesHash.catch(() => {
    stylesHash = null;
  });
  return stylesHash;
}

async function load(name: string): Promise<string | null> {
  if (!RUNNING_FROM_SOURCE) {
    try {
      return await readFile(fileURLToPath(import.meta.resolve(`@svc/elements/hosted/${name}`)), 'utf8');
    } catch (error) {
      // A chunk name from another build (an old page in a cache): not found, not a failure.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }
  const variant = FILE_PATTERN.exec(name)?.[1] ?? CHUNK_VARIANT;
  return (await build(variant)).get(name) ?? null;
}

function build(variant: string): Promise<ReadonlyMap<string, string>> {
  let outputs = builds.get(variant);
  if (!outputs) {
    outputs = buildFromSource(variant);
    builds.set(variant, outputs);
    outputs.catch(() => builds.delete(variant));
  }
  return outputs;
}

async function buildFromSource(variant: string): Promise<ReadonlyMap<string, string>> {
  const [, language = 'en', phone] = VARIANT_PATTERN.exec(variant) ?? [];
  // Imported lazily: esbuild and the build script are development tools, absent from a packed server.
  const [esbuild, script] = await Promise.all([import('esbuild'), import('../../../elements/scripts/hosted-bundles.mjs')]);
  const result = await esbuild.build(script.hostedBundleOptions(language, phone !== undefined));
  if (result.outputFiles.length === 0) throw new Error(`esbuild produced no output for the hosted bundle ${variant}`);
  return new Map(result.outputFiles.map((file) => [file.path.replace(/^.*[\\/]/, ''), file.text]));
}
