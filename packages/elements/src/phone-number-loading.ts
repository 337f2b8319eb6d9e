/**
 * Phone numbers' metadata, loaded before it is needed (issue #36 item 1). In the full bundle and
 * in npm builds libphonenumber is part of the bundle and this resolves at once. The hosted pages'
 * `-phone` bundles (scripts/hosted-bundles.mjs) replace this module: there the metadata (about
 * 30 KB gzip) is a chunk of its own, imported on a phone field's first focus or input, so it is
 * not part of what the page loads before anyone touches the form.
 */

/** Starts loading the metadata where a bundle loads it lazily; resolves once it is there. */
export function preparePhoneNumbers(): Promise<void> {
  return Promise.resolve();
}
