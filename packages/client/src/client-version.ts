/**
 * This client's release and the wire schema it understands (contract §2 compatibility block).
 *
 * @example
 * console.log(`@svc/client ${CLIENT_VERSION}`);
 */
export const CLIENT_VERSION = '0.1.0';
export const SCHEMA_MAJOR = 1;

/**
 * Numeric dotted comparison; prerelease tags are ignored (contract §2).
 *
 * @example
 * compareVersions('0.10.0', '0.9.1'); // 1
 */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[-+]/)[0]!.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return 0;
}
