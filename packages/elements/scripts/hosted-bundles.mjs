/**
 * The lean bundles of `<svc-form>` that svc's hosted pages load (issue #36 item 4): the same
 * element, with the message catalogue of one language (English stays: every other falls back to
 * it) and, for forms without a phone field, without libphonenumber. For forms with one, its
 * metadata (about 30 KB gzip, which took such a page from 43 to 73 KB against a budget of 45) is
 * a chunk of its own, `svc-phone-<hash>.js`, imported on a phone field's first focus or input
 * (src/phone-number-loading.ts). Chosen over metadata cut to the form's countries: a field
 * without `pattern` accepts `+44 …` whatever its default country, so cut metadata would refuse in
 * the browser what the server stores, and every set of countries would be a bundle of its own.
 * The full bundle (svc-form.bundle.js) is unchanged. Run by the package build; svc running from
 * source builds the same variants on demand with `hostedBundleOptions`.
 *
 *   node scripts/hosted-bundles.mjs   # writes dist/hosted/svc-form.<language>[-phone].js, svc-phone-<hash>.js
 *
 * and dist/hosted/styles.json, the CSP hash of the `<style>` the element puts in its shadow root,
 * so a page with `style-src 'self'` can allow exactly that one inline sheet.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOSTED_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'];

/** The file name of a variant: `svc-form.de.js`, `svc-form.de-phone.js`. */
export function hostedBundleName(language, phone) {
  return `svc-form.${language}${phone ? '-phone' : ''}.js`;
}

/**
 * The phone variants' stand-in for `libphonenumber-js/min` and for src/phone-number-loading.ts:
 * one module, so the element's `preparePhoneNumbers` loads what core's phone checks use. Until
 * the chunk is there, a check starts loading it and lets the number through as typed (every
 * country known, every number possible); the server checks and normalises every submit anyway.
 */
const LAZY_PHONE = `let real;
let loading;
export function preparePhoneNumbers() {
  loading ??= import('svc-phone-metadata').then((module) => { real = module; }, (error) => { loading = undefined; throw error; });
  return loading;
}
const start = () => { preparePhoneNumbers().catch(() => undefined); };
export function isSupportedCountry(country) {
  if (real) return real.isSupportedCountry(country);
  start();
  return true;
}
export function parsePhoneNumberFromString(text, country) {
  if (real) return real.parsePhoneNumberFromString(text, country);
  start();
  return { number: String(text).trim(), isPossible: () => true };
}
`;

/**
 * Keeps only `language`'s catalogue, and drops libphonenumber unless `phone`, where it becomes
 * the lazy chunk. English, the fallback, is that catalogue too in another language's variant:
 * the page sets the element's `lang`, so nothing asks for English there, and every catalogue has
 * every key (its test).
 */
function variantPlugin(language, phone) {
  return {
    name: 'svc-hosted-variant',
    setup(build) {
      build.onLoad({ filter: /i18n[\\/]messages-[a-z]{2}\.ts$/ }, (args) => {
        const code = /messages-([a-z]{2})\.ts$/.exec(args.path)?.[1] ?? 'en';
        if (code === language) return undefined;
        if (code === 'en') {
          const name = `MESSAGES_${language.toUpperCase()}`;
          return { contents: `import { ${name} } from './messages-${language}.js';\nexport const MESSAGES_EN = ${name};`, loader: 'ts', resolveDir: dirname(args.path) };
        }
        // An empty catalogue: every key falls back to English (message-format.ts).
        return { contents: `export const MESSAGES_${code.toUpperCase()} = {};`, loader: 'ts' };
      });
      if (phone) {
        // The chunk re-exports only what core uses: a dynamic import of the library itself would
        // keep all of it (184 KB against 121 KB minified).
        build.onResolve({ filter: /^libphonenumber-js\/min$/ }, (args) => (args.namespace === 'svc-hosted' ? undefined : { path: 'lazy-phone', namespace: 'svc-hosted' }));
        build.onResolve({ filter: /[\\/]phone-number-loading\.js$/ }, () => ({ path: 'lazy-phone', namespace: 'svc-hosted' }));
        build.onResolve({ filter: /^svc-phone-metadata$/ }, () => ({ path: 'phone-metadata', namespace: 'svc-hosted' }));
        build.onLoad({ filter: /.*/, namespace: 'svc-hosted' }, (args) => ({
          contents: args.path === 'lazy-phone' ? LAZY_PHONE : "export { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/min';",
          loader: 'js',
          resolveDir: fileURLToPath(new URL('.', import.meta.url)),
        }));
        return;
      }
      build.onResolve({ filter: /^libphonenumber-js\/min$/ }, () => ({ path: 'libphonenumber-stub', namespace: 'svc-hosted' }));
      // Never called: the page of a form with a phone field loads the -phone variant.
      build.onLoad({ filter: /.*/, namespace: 'svc-hosted' }, () => ({
        contents: 'export const isSupportedCountry = () => false; export const parsePhoneNumberFromString = () => undefined;',
        loader: 'js',
      }));
    },
  };
}

/**
 * esbuild options of one variant (the package build's, minified, UTF-8 so Arabic stays short).
 * Split, so the phone variants' metadata is a chunk: the output files are the variant
 * (`hostedBundleName`) and, for a phone variant, its chunk, named as they are served, side by side.
 */
export function hostedBundleOptions(language, phone) {
  return {
    entryPoints: { [hostedBundleName(language, phone).replace(/\.js$/, '')]: fileURLToPath(new URL('../src/index.ts', import.meta.url)) },
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: true,
    outdir: fileURLToPath(new URL('../dist/hosted/', import.meta.url)),
    chunkNames: 'svc-phone-[hash]',
    target: 'es2022',
    platform: 'browser',
    conditions: ['svc-source'],
    legalComments: 'none',
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
    plugins: [variantPlugin(language, phone)],
  };
}

/**
 * The CSP source (`'sha256-…'`) of the element's shadow `<style>`, whose text is FORM_STYLES.
 *
 * @param {typeof import('esbuild').build} build
 */
export async function formStylesHash(build) {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/form-styles.ts', import.meta.url))],
    bundle: true, format: 'esm', platform: 'neutral', write: false, logLevel: 'silent',
  });
  const module = await import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].contents).toString('base64')}`);
  return `'sha256-${createHash('sha256').update(module.FORM_STYLES, 'utf8').digest('base64')}'`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { build } = await import('esbuild');
  const dir = new URL('../dist/hosted/', import.meta.url);
  await mkdir(dir, { recursive: true });
  const written = new Set();
  for (const language of HOSTED_LANGUAGES) {
    for (const phone of [false, true]) {
      const result = await build(hostedBundleOptions(language, phone));
      for (const file of result.outputFiles) {
        await writeFile(file.path, file.contents);
        written.add(basename(file.path));
      }
    }
  }
  // A chunk of an earlier build has another hash: it is not shipped along. Removed only after the
  // new files are written, so a server reading dist/ during a rebuild never misses a bundle.
  for (const name of await readdir(dir)) if (/^svc-phone-.*\.js$/.test(name) && !written.has(name)) await rm(new URL(name, dir), { force: true });
  await writeFile(new URL('styles.json', dir), `${JSON.stringify({ formStylesHash: await formStylesHash(build) })}\n`);
}
