/**
 * Origin allow-lists with the wildcard rules of contract §6: `*` stands for one or more whole DNS
 * labels inside the host; scheme and port must match exactly; a bare `*` allows any origin but
 * without credentials.
 */

export interface OriginPolicy {
  /** 'credentialed' (echo the origin, allow credentials), 'anonymous' (bare `*`) or false. */
  check(origin: string): 'credentialed' | 'anonymous' | false;
}

const LABEL = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Compile one allow-list entry; null when it is not an origin (reported by config checks). */
export function compileOriginPattern(entry: string): RegExp | null {
  const match = /^(https?):\/\/([^/:]+)(?::(\d{1,5}))?\/?$/i.exec(entry.trim());
  if (!match) return null;
  const [, scheme, host, port] = match as unknown as [string, string, string, string | undefined];
  const labels = host.split('.');
  // `https://*` would allow every https origin with credentials; contract §6 puts `*` inside a host.
  if (labels.every((label) => label === '*') || labels.some((label) => label === '')) return null;
  const hostPattern = host
    .toLowerCase()
    .split('.')
    .map((label) => (label === '*' ? `${LABEL}(?:\\.${LABEL})*` : escapeRegex(label)))
    .join('\\.');
  const portPart = port ? `:${port}` : '';
  return new RegExp(`^${scheme.toLowerCase()}://${hostPattern}${escapeRegex(portPart)}$`);
}

export function isValidOriginEntry(entry: string): boolean {
  return entry === '*' || compileOriginPattern(entry) !== null;
}

export function createOriginPolicy(entries: readonly string[]): OriginPolicy {
  const anyOrigin = entries.includes('*');
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const entry of entries) {
    if (entry === '*') continue;
    if (entry.includes('*')) {
      const pattern = compileOriginPattern(entry);
      if (pattern) patterns.push(pattern);
    } else {
      exact.add(entry.trim().toLowerCase().replace(/\/$/, ''));
    }
  }
  return {
    check(origin) {
      const normalised = origin.toLowerCase();
      if (exact.has(normalised) || patterns.some((p) => p.test(normalised))) return 'credentialed';
      return anyOrigin ? 'anonymous' : false;
    },
  };
}
