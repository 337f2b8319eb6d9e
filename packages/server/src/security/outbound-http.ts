/**
 * Outbound HTTP for webhooks, extra POST URLs and list providers, safe against SSRF: the host is
 * resolved first, every address is checked against private, loopback, link-local, CGNAT,
 * multicast and cloud-metadata ranges, and the connection is pinned to the checked address, so
 * a DNS answer that changes between check and connect (rebinding) cannot slip through. Redirects
 * are never followed, and a timeout covers the whole exchange.
 */
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createIpList, ipListed } from './ip-ranges.js';

const FORBIDDEN = createIpList([
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.0.2.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '224.0.0.0/4', '240.0.0.0/4',
  '::/128', '::1/128', '64:ff9b::/96', '100::/64', '2001:db8::/32', 'fc00::/7', 'fe80::/10', 'ff00::/8',
  // Cloud metadata services outside the ranges above (AWS IPv6, Alibaba).
  'fd00:ec2::254/128', '100.100.100.200/32',
]);

export interface OutboundPolicy {
  /** Allow private and loopback targets everywhere (a closed network you trust). */
  readonly allowPrivateNetworks: boolean;
  /** Hosts (names or IPs) allowed even when they resolve to a private address. */
  readonly allowedHosts: readonly string[];
  readonly timeoutMs: number;
}

export interface OutboundResponse {
  readonly status: number;
  /** The first `maxBodyBytes` of the body, as text. */
  readonly body: string;
}

/** Refused before any connection; the message is safe to log and to show a site owner. */
export class OutboundRefused extends Error {}

async function checkedAddress(url: URL, policy: OutboundPolicy): Promise<{ address: string; family: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(`only http and https URLs are allowed (${url.protocol})`);
  if (url.username || url.password) throw new OutboundRefused('URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const trusted = policy.allowPrivateNetworks || policy.allowedHosts.includes(host.toLowerCase());
  const answers = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  if (answers.length === 0) throw new OutboundRefused(`${host} does not resolve`);
  if (!trusted) {
    const bad = answers.find((a) => ipListed(FORBIDDEN, a.address));
    // Every answer is checked: a client library could pick any of them.
    if (bad) throw new OutboundRefused(`${host} resolves to a private or reserved address (${bad.address})`);
  }
  return answers[0] as { address: string; family: number };
}

/** POSTs `body` to `url` under the policy; resolves with the status and the start of the body. */
export async function postOutbound(
  target: string,
  body: string,
  headers: Readonly<Record<string, string>>,
  policy: OutboundPolicy,
  maxBodyBytes = 64 * 1024,
): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new OutboundRefused('not a valid URL');
  }
  const pinned = await checkedAddress(url, policy);
  // The connection goes to the address that was checked, whatever DNS says a moment later.
  const pinnedLookup: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinnedLookup,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body).toString(), 'user-agent': 'svc-outbound/1', ...headers },
        timeout: policy.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < maxBodyBytes) chunks.push(chunk.subarray(0, maxBodyBytes - size));
          size += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error(`timed out after ${policy.timeoutMs} ms`)), policy.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`timed out after ${policy.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
