/** IP allow/deny lists of single addresses and CIDR ranges, on node's own BlockList. */
import { BlockList, isIP } from 'node:net';

/** Why an entry is not an IP or CIDR range, or null when it is one. */
export function ipEntryProblem(entry: string): string | null {
  const [address, prefix, extra] = entry.trim().split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return `"${entry}" is not an IP address or CIDR range`;
  if (prefix === undefined) return null;
  const bits = Number(prefix);
  const max = family === 4 ? 32 : 128;
  return /^\d+$/.test(prefix) && bits <= max ? null : `"${entry}" has a prefix outside 0-${max}`;
}

export function createIpList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    if (ipEntryProblem(entry)) continue;
    const [address, prefix] = entry.trim().split('/') as [string, string | undefined];
    const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** Whether `ip` (v4, v6, or v4-mapped v6 as node reports it) is in the list. */
export function ipListed(list: BlockList, ip: string | null): boolean {
  if (!ip) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? (mapped[1] as string) : ip;
  const family = isIP(address);
  if (family === 0) return false;
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
