/**
 * Standard Webhooks signatures (standardwebhooks.com): `webhook-id`, `webhook-timestamp` (unix
 * seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed by
 * the base64 part of a `whsec_…` secret. Receivers verify with any Standard Webhooks library.
 */
import { createHmac } from 'node:crypto';

export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 16) throw new Error('webhook signing secret must be whsec_ + base64 of at least 16 bytes');
  return key;
}

export function webhookHeaders(secret: string, id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000).toString();
  const signature = createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
}
