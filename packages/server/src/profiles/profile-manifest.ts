/**
 * The profile manifest of contract §9: the form's manifest with `settings.mode = "profile"`, the
 * profile's endpoints, its `cache`, `metadata {profile, properties}` and `context {defaultValues,
 * hiddenFields, lockedFields}`. Hidden fields are left out of what the respondent is sent (fields
 * and layout); locked fields carry their value and are read-only.
 */
import { createHash } from 'node:crypto';
import type { CachedManifest } from '../forms/manifest-builder.js';
import { manifestData } from '../forms/manifest-builder.js';
import type { ProfileCachePolicy } from './profile-cache.js';
import type { ProfileContext } from './profile-context.js';
import type { PropertyValues } from './profile-properties.js';

export function profileEndpoints(profile: string, base: CachedManifest['data']['endpoints']) {
  const path = `/svc/api/manifests/${encodeURIComponent(profile)}`;
  return {
    ...base,
    manifest: { method: 'GET', url: `${path}/manifest` },
    submit: { ...base.submit, url: `${path}/submit` },
  };
}

type ManifestField = CachedManifest['data']['fields'][string];

function lockedField(field: ManifestField, value: unknown): ManifestField {
  const input = { ...field.attributes.input, readonly: 'readonly', 'aria-readonly': 'true' };
  return {
    ...field,
    defaultValue: value as ManifestField['defaultValue'],
    attributes: { ...field.attributes, input },
    // The official renderers read `frontend.config`; svc's element reads `readOnly`.
    frontend: { ...field.frontend, config: { ...field.frontend.config, readOnly: true } },
    readOnly: true,
  } as ManifestField;
}

/**
 * A strong ETag for one profile manifest: the form's manifest on its site (whose ETag already
 * varies by definition, config and site, issue #34) with what this request adds to it.
 */
export function profileManifestEtag(
  manifestEtag: string,
  input: { profile: string; properties: PropertyValues; context: Pick<ProfileContext, 'defaultValues' | 'hiddenFields' | 'lockedFields'>; cache: ProfileCachePolicy['block'] },
): string {
  // What the body shows, no more: hidden values (and the request the provider saw) stay out of
  // it, or an ETag would let them be guessed.
  const { defaultValues, lockedFields, hiddenFields } = input.context;
  const shown = { ...input, context: { defaultValues, hiddenFields: Object.keys(hiddenFields), lockedFields } };
  const hash = createHash('sha256').update(manifestEtag).update('\u0000').update(JSON.stringify(shown)).digest('base64url');
  return `"${hash.slice(0, 27)}"`;
}

export function buildProfileManifest(
  manifest: CachedManifest,
  timestamp: () => string,
  input: { profile: string; properties: PropertyValues; context: ProfileContext; cache: ProfileCachePolicy['block'] },
) {
  const base = manifestData(manifest, timestamp);
  const { defaultValues, lockedFields, hiddenFields } = input.context;
  const hidden = new Set(Object.keys(hiddenFields));
  const fields: Record<string, ManifestField> = {};
  for (const [handle, field] of Object.entries(base.fields)) {
    if (hidden.has(handle)) continue;
    if (Object.hasOwn(lockedFields, handle)) fields[handle] = lockedField(field, lockedFields[handle]);
    else if (Object.hasOwn(defaultValues, handle)) fields[handle] = { ...field, defaultValue: defaultValues[handle] as ManifestField['defaultValue'] };
    else fields[handle] = field;
  }
  const layout = {
    ...base.layout,
    pages: base.layout.pages.map((page) => ({
      ...page,
      rows: page.rows.map((row) => ({ ...row, fields: row.fields.filter((handle) => !hidden.has(handle)) })).filter((row) => row.fields.length > 0),
    })),
  };
  return {
    ...base,
    settings: { ...base.settings, mode: 'profile' },
    endpoints: profileEndpoints(input.profile, base.endpoints),
    fields,
    layout,
    // The plain manifest's block says public for 300 s; a profile's comes from its own `cache`.
    cache: input.cache,
    metadata: { profile: input.profile, properties: input.properties },
    // Hidden values stay on the server: the client learns which fields are hidden, not what they hold.
    context: { defaultValues, hiddenFields: [...hidden], lockedFields },
  };
}
