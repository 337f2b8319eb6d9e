/**
 * Where `<svc-form>` gets its form from: a form handle, or a named profile (contract §9, issue
 * #13) with its properties, a signed link's token and a bearer-token callback; and a saved draft
 * to resume. Read from the element's attributes, so a change to any of them loads the form again.
 */
import { createClient, type FormSession, type ProfileOptions, type SvcClient } from '@svc/client';

/** The attributes that name the form; a change to one reloads it (`site`: in another language). */
export const SOURCE_ATTRIBUTES = ['base-url', 'handle', 'site', 'profile', 'properties', 'token', 'draft-token', 'draft-key'] as const;

export interface FormSource {
  readonly baseUrl: string;
  readonly handle: string | null;
  /** The site handle (issue #34) the form is read and submitted on; null: the default site. */
  readonly site: string | null;
  readonly profile: string | null;
  readonly properties: Readonly<Record<string, string | number | boolean>>;
  readonly token: string | null;
  readonly draft: { readonly token: string; readonly key: string } | null;
  /** Equal for two reads that load the same form the same way. */
  readonly key: string;
}

/** `properties='{"eventId": 42}'`: a JSON object of strings, numbers and booleans. */
function parseProperties(text: string | null): Record<string, string | number | boolean> {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('The properties attribute must be a JSON object, e.g. {"eventId": 42}.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('The properties attribute must be a JSON object, e.g. {"eventId": 42}.');
  const out: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new Error(`Property "${name}" must be a string, a number or a boolean.`);
    out[name] = value;
  }
  return out;
}

/**
 * Null while neither `handle` nor `profile` is set (nothing to load yet).
 *
 * @example
 * const source = readFormSource(element, 1); // profile="event-feedback" properties='{"eventId":42}' token="…"
 */
export function readFormSource(element: Element, authVersion: number): FormSource | null {
  const handle = element.getAttribute('handle');
  const profile = element.getAttribute('profile');
  if (!handle && !profile) return null;
  const baseUrl = element.getAttribute('base-url') || globalThis.location.origin;
  const draftToken = element.getAttribute('draft-token');
  const draftKey = element.getAttribute('draft-key');
  const propertiesText = element.getAttribute('properties');
  const token = element.getAttribute('token');
  const site = element.getAttribute('site') || null;
  return {
    baseUrl,
    handle,
    site,
    profile,
    // Parsed when loading, so a bad attribute is shown where the form would be.
    get properties() {
      return parseProperties(propertiesText);
    },
    token,
    draft: draftToken && draftKey ? { token: draftToken, key: draftKey } : null,
    key: JSON.stringify([baseUrl, handle, site, profile, propertiesText, token, draftToken, draftKey, authVersion]),
  };
}

/**
 * The client and a session on the source's form (a profile when one is named; profiles are
 * served on the default site, so `site` only applies to a `handle`).
 *
 * @example
 * const { client, session } = await openSession(source, () => auth.getToken());
 */
export async function openSession(source: FormSource, auth: ProfileOptions['auth'] | null): Promise<{ client: SvcClient; session: FormSession }> {
  // No site attribute: no site option, so the requests are the default site's, as before sites.
  const client = createClient({ baseUrl: source.baseUrl, ...(source.site ? { site: source.site } : {}) });
  if (!source.profile) return { client, session: await client.session(source.handle as string) };
  const options: ProfileOptions = { properties: source.properties, ...(source.token ? { token: source.token } : {}), ...(auth ? { auth } : {}) };
  return { client, session: await client.profileSession(source.profile, options) };
}

/**
 * A property a page set on the element before its class was defined: it sits on the instance and
 * would hide the class's accessor, so it is removed and handed back for the accessor to keep.
 *
 * @example
 * this.#auth = takeEarlyProperty(this, 'auth') ?? null; // in the constructor
 */
export function takeEarlyProperty<T>(element: HTMLElement, name: string): T | undefined {
  if (!Object.hasOwn(element, name)) return undefined;
  const value = (element as unknown as Record<string, T>)[name];
  delete (element as unknown as Record<string, unknown>)[name];
  return value;
}
