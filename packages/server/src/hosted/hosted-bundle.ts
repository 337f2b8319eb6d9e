/**
 * The `<svc-form>` bundles a hosted page loads (issue #36 item 4): one per language, with or
 * without phone-number support, so a page carries one catalogue and no phone metadata it does not
 * use (packages/elements/scripts/hosted-bundles.mjs). From dist/ they are the files @svc/elements
 * ships; from source (tsx) esbuild builds each on its first request, as the demo's bundle is.
 * Each is read once and kept in memory with its ETag.
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

const bundles = new Map<string, Promise<HostedBundle>>();
let stylesHash: Promise<string> | null = null;

/** The variant of a form's page: its site's language, `-phone` when a phone field is on it. */
export function bundleVariant(form: Form, language: string): string {
  const phone = form.fields.some((field) => field.type === 'phone');
  return `${language}${phone ? '-phone' : ''}`;
}

/** The bundle of `variant` (checked against VARIANT_PATTERN first); a failed build is not kept. */
export function hostedBundle(variant: string): Promise<HostedBundle> {
  let bundle = bundles.get(variant);
  if (!bundle) {
    bundle = load(variant).then((code) => ({ code, etag: `"${createHash('sha256').update(code).digest('base64url').slice(0, 27)}"` }));
    bundles.set(variant, bundle);
    bundle.catch(() => bundles.delete(variant));
  }
  return bundle;
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

async function load(variant: string): Promise<string> {
  const [, language = 'en', phone] = VARIANT_PATTERN.exec(variant) ?? [];
  if (!RUNNING_FROM_SOURCE) return readFile(fileURLToPath(import.meta.resolve(`@svc/elements/hosted/svc-form.${variant}.js`)), 'utf8');
  // Imported lazily: esbuild and the build script are development tools, absent from a packed server.
  const [esbuild, script] = await Promise.all([import('esbuild'), import('../../../elements/scripts/hosted-bundles.mjs')]);
  const result = await esbuild.build(script.hostedBundleOptions(language, phone !== undefined));
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced no output for the hosted bundle ${variant}`);
  return output.text;
}
