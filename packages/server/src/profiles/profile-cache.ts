/**
 * How a profile manifest may be cached (contract §9): the profile's `cache` (a Cache-Control
 * value, default `no-store`) gives both the header and the body's `cache` block, so the two cannot
 * disagree. The block has the plain manifest's shape (contract §2), the one the official client
 * types as `{visibility: string, maxAge: number}`: `visibility` is `public`, `private` or
 * `no-store`, and `maxAge` is 0 whenever nothing may be kept.
 */

export interface ProfileCachePolicy {
  /** The Cache-Control header of the profile manifest. */
  readonly header: string;
  /** The manifest body's `cache` block. */
  readonly block: { readonly visibility: 'public' | 'private' | 'no-store'; readonly maxAge: number };
}

const DIRECTIVE = /^([a-z-]+)(?:=(\d{1,10}|"[^"]*"))?$/;

/** The directives of a Cache-Control value, or null when it is not one (`max-age=soon`, `;`). */
function directives(value: string): Map<string, string | null> | null {
  const out = new Map<string, string | null>();
  for (const part of value.split(',')) {
    const match = DIRECTIVE.exec(part.trim().toLowerCase());
    if (!match) return null;
    out.set(match[1] as string, match[2] ?? null);
  }
  return out;
}

/** Why a profile's `cache` is unusable, for the boot report; null when it is fine. */
export function profileCacheProblem(value: string): string | null {
  const parsed = directives(value);
  if (!parsed) return `"${value}" is not a Cache-Control value (directives such as no-store, private, max-age=60, separated by commas)`;
  if (parsed.has('public') && parsed.has('private')) return `"${value}" says both public and private`;
  return null;
}

/**
 * The policy for a profile. `personal` (the profile needs a bearer token or a signed link) turns a
 * `public` value `private`: what one person may see is not for a shared cache, whatever the
 * profile says.
 *
 * @example
 * profileCachePolicy('public, max-age=60', false); // header 'public, max-age=60', block {visibility: 'public', maxAge: 60}
 * profileCachePolicy('public, max-age=60', true);  // header 'private, max-age=60', block {visibility: 'private', maxAge: 60}
 * profileCachePolicy('no-store', false);           // header 'no-store', block {visibility: 'no-store', maxAge: 0}
 */
export function profileCachePolicy(value: string, personal: boolean): ProfileCachePolicy {
  // The registry refused anything unparsable at boot; should one get here, keep nothing.
  const parsed = directives(value);
  if (!parsed || parsed.has('no-store')) return { header: 'no-store', block: { visibility: 'no-store', maxAge: 0 } };
  const visibility = personal || parsed.has('private') ? 'private' : 'public';
  const rest = [...parsed].filter(([name]) => name !== 'public' && name !== 'private' && !(visibility === 'private' && name === 's-maxage'));
  const header = [visibility, ...rest.map(([name, arg]) => (arg === null ? name : `${name}=${arg}`))].join(', ');
  // no-cache lets a copy be kept but never used unchecked: for a client that reads only maxAge, 0.
  const maxAge = parsed.has('no-cache') ? 0 : Number(parsed.get('max-age')?.replaceAll('"', '') ?? 0) || 0;
  return { header, block: { visibility, maxAge } };
}
