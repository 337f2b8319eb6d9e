/**
 * The service's own address, for links it hands out and URLs it fetches from itself (issue #31):
 * `server.publicUrl` when set, else http://localhost:<the port it listens on>. The port is known
 * only once it listens (`PORT=0`, `--port`), so a URL written as a path (`/demo/resume?…`) is
 * resolved when it is used, never at boot; until then the configured port stands in (offline
 * commands such as `svc profiles sign` never listen).
 */

export interface ServiceAddress {
  /** The origin and base path, without a trailing slash: `http://localhost:4300`. */
  base(): string;
  /**
   * A URL that starts with one `/` is on this service and gets `base()` in front; any other URL
   * is returned as it is.
   *
   * @example
   * address.resolve('/demo/jwks.json'); // 'http://localhost:4300/demo/jwks.json'
   */
  resolve(url: string): string;
  /** Called once the server listens, with the port it got. */
  listening(port: number): void;
}

export function isServicePath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

export function createServiceAddress(server: { readonly publicUrl: string | null; readonly port: number }): ServiceAddress {
  const configured = server.publicUrl?.replace(/\/$/, '') ?? null;
  let port = server.port;
  const base = () => configured ?? `http://localhost:${port}`;
  return {
    base,
    resolve: (url) => (isServicePath(url) ? `${base()}${url}` : url),
    listening(actual) {
      port = actual;
    },
  };
}
