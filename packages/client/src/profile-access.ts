/**
 * What a named profile (contract §9, issue #13) adds to every request of a session: its typed
 * properties, a signed link's token, and the signed-in person's bearer token. The service checks
 * all three again on submit, so the client only carries them.
 */

/**
 * @example
 * const options: ProfileOptions = { properties: { eventId: 42 }, token: new URL(location.href).searchParams.get('token') ?? undefined };
 * const member: ProfileOptions = { auth: () => auth0.getTokenSilently() };
 */
export interface ProfileOptions {
  /** The profile's properties, sent as `properties[name]=value` and in each submit's `properties`. */
  readonly properties?: Readonly<Record<string, string | number | boolean>>;
  /** A link token svc signed (`svc profiles sign`); sent as `token` and in each submit's `context`. */
  readonly token?: string;
  /**
   * The signed-in person's JWT for a `requiresAuth` profile, asked for before every request so a
   * refreshed token is the one sent (`Authorization: Bearer …`). Null or undefined sends none.
   */
  readonly auth?: () => string | null | undefined | Promise<string | null | undefined>;
}

/**
 * @example
 * const access = new ProfileAccess('event-feedback', { properties: { eventId: 42 }, token });
 * await transport.json(access.manifestPath(), { method: 'GET', idempotent: true, headers: await access.headers() });
 */
export class ProfileAccess {
  constructor(
    readonly profile: string,
    readonly options: ProfileOptions = {},
  ) {}

  /** `/svc/api/manifests/{profile}/manifest?properties[name]=value&token=…` */
  manifestPath(): string {
    const query = Object.entries(this.options.properties ?? {}).map(([name, value]) => `properties[${encodeURIComponent(name)}]=${encodeURIComponent(String(value))}`);
    if (this.options.token) query.push(`token=${encodeURIComponent(this.options.token)}`);
    return `/svc/api/manifests/${encodeURIComponent(this.profile)}/manifest${query.length > 0 ? `?${query.join('&')}` : ''}`;
  }

  async headers(): Promise<Record<string, string>> {
    const token = await this.options.auth?.();
    return token ? { authorization: `Bearer ${token}` } : {};
  }

  /** A submit body with the profile's properties and, when there is one, the link token in its context. */
  decorate<T extends { readonly context: Record<string, unknown> }>(payload: T): T & { properties: Readonly<Record<string, unknown>> } {
    const context = this.options.token ? { ...payload.context, token: this.options.token } : payload.context;
    return { ...payload, context, properties: this.options.properties ?? {} };
  }
}
