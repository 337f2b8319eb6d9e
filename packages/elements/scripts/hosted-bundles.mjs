/**
 * The lean bundles of `<svc-form>` that svc's hosted pages load (issue #36 item 4): the same
 * element, with the message catalogue of one language (English stays: every other falls back to
 * it) and, for forms without a phone field, without libphonenumber's metadata. The full bundle
 * (svc-form.bundle.js) is unchanged. Run by the package build; svc running from source builds the
 * same variants on demand with `hostedBundleOptions`.
 *
 *   node scripts/hosted-bundles.mjs   # writes dist/hosted/svc-form.<language>[-phone].js
 *
 * and dist/hosted/styles.json, the CSP hash of the `<style>` the element puts in its shadow root,
 * so a page with `style-src 'self'` can allow exactly that one inline sheet.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HOSTED_LANGUAGES = ['en', 'de', 'fr', 'es', 'nl', 'ar'];

/** The file name of a variant: `svc-form.de.js`, `svc-form.de-phone.js`. */
export function hostedBundleName(language, phone) {
  return `svc-form.${language}${phone ? '-phone' : ''}.js`;
}

/**
 * Keeps only `language`'s catalogue, and drops libphonenumber unless `phone`. English, the
 * fallback, is that catalogue too in another language's variant: the page sets the element's
 * `lang`, so nothing asks for English there, and every catalogue has every key (its test).
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
      if (phone) return;
      build.onResolve({ filter: /^libphonenumber-js\/min$/ }, () => ({ path: 'libphonenumber-stub', namespace: 'svc-hosted' }));
      // Never called: the page of a form with a phone field loads the -phone variant.
      build.onLoad({ filter: /.*/, namespace: 'svc-hosted' }, () => ({
        contents: 'export const isSupportedCountry = () => false; export const parsePhoneNumberFromString = () => undefined;',
        loader: 'js',
      }));
    },
  };
}

/** esbuild options of one variant (the package build's, minified, UTF-8 so Arabic stays short). */
export function hostedBundleOptions(language, phone) {
  return {
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
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
  for (const language of HOSTED_LANGUAGES) {
    for (const phone of [false, true]) {
      const result = await build(hostedBundleOptions(language, phone));
      await writeFile(new URL(hostedBundleName(language, phone), dir), result.outputFiles[0].contents);
    }
  }
  await writeFile(new URL('styles.json', dir), `${JSON.stringify({ formStylesHash: await formStylesHash(build) })}\n`);
}
