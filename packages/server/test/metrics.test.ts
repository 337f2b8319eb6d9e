/**
 * Prometheus metrics (issue #16): scraped after real traffic, the counters move: submissions by
 * form and outcome, request durations by route pattern, delivery attempts, rate-limit refusals,
 * upload bytes, the outbox and drafts; `/metrics` needs its bearer token on the main port, or is
 * served on a port of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import { createTestApp, type TestApp } from './support/test-app.js';

const TOKEN = 'metrics-token-0123456789abcdefghij';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const PERSON = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hi' };

/** The value of one sample line, e.g. `svc_submissions_total{form="contact",outcome="submitted"}`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('metrics on the main port, behind a bearer token', () => {
  let svc: TestApp;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        metrics: { enabled: true, tokenSha256: sha(TOKEN) },
        rateLimit: { enabled: true, submit: { max: 4, windowSeconds: 60 } },
        deliveries: { enabled: true, pollMs: 50 },
      },
    });
  });
  afterAll(async () => {
    await svc?.close();
  });
  const scrape = async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return res.body;
  };
  const submit = async (values: Record<string, unknown>, honeypot = '') => {
    const { token, cookie } = await svc.csrf();
    const meta = (await svc.meta('contact')) as { honeypot: { name: string } };
    return svc.app.inject({
      method: 'POST',
      url: '/svc/api/forms/contact/submit',
      headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie },
      payload: JSON.stringify({ intent: 'submit', values, meta: { ...meta, honeypot: { ...meta.honeypot, value: honeypot } } }),
    });
  };

  it('refuses a scrape without the token', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'AUTH_REQUIRED' });
    expect((await svc.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong-token-0123456789' } })).statusCode).toBe(401);
  });

  it('counts submissions by outcome, request durations by route, refusals by the rate limit, and delivery attempts', async () => {
    expect((await submit(PERSON)).statusCode).toBe(200);
    expect((await submit({ ...PERSON, email: 'nope' })).statusCode).toBe(422);
    expect((await submit(PERSON, 'bot')).statusCode).toBe(200);
    expect((await submit(PERSON)).statusCode).toBe(200);
    expect((await submit(PERSON)).statusCode).toBe(429);
    const text = await scrape();
    expect(sample(text, 'svc_submissions_total', { form: 'contact', outcome: 'submitted' })).toBe(2);
    expect(sample(text, 'svc_submissions_total', { form: 'contact', outcome: 'invalid' })).toBe(1);
    expect(sample(text, 'svc_submissions_total', { form: 'contact', outcome: 'spam' })).toBe(1);
    expect(sample(text, 'svc_rate_limited_total', { group: 'submit' })).toBe(1);
    expect(sample(text, 'svc_http_request_duration_seconds_count', { route: '/svc/api/forms/:handle/submit', method: 'POST', status_code: '200' })).toBe(3);
    expect(sample(text, 'svc_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).not.toContain('ann@example.test');
    // The two clean submissions queued two emails each (the owner's, and the confirmation, whose
    // template this test config lacks, so it is dead-lettered): every job is attempted once.
    const attempts = async () => {
      const scraped = await scrape();
      return ['delivered', 'retry', 'dead'].map((outcome) => sample(scraped, 'svc_delivery_attempts_total', { kind: 'email', outcome }) ?? 0);
    };
    await expect.poll(attempts, { timeout: 10_000 }).toEqual([2, 0, 2]);
    const after = await scrape();
    expect(sample(after, 'svc_outbox_pending')).toBe(0);
    expect(sample(after, 'svc_outbox_oldest_pending_age_seconds')).toBe(0);
    expect(sample(after, 'svc_drafts')).toBe(0);
  });

  it('adds the bytes of stored files', async () => {
    const job = await createTestApp({
      config: { metrics: { enabled: true, tokenSha256: sha(TOKEN) }, headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } } },
    });
    try {
      const { token, cookie } = await job.csrf();
      const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
      const boundary = 'metricsboundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="portfolio"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await job.app.inject({
        method: 'POST',
        url: '/svc/api/forms/job-application/files/portfolio',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-csrf-token': token, cookie, 'x-svc-upload-token': '0c6f5e3a-5a0e-4e5f-9a77-2a1f0f6f9c11' },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(200);
      const text = (await job.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
      expect(sample(text, 'svc_upload_bytes_total')).toBe(png.length);
    } finally {
      await job.close();
    }
  });
});

describe('metrics on a port of their own', () => {
  it('serves /metrics there without a token and not on the main port; refuses to start unprotected', async () => {
    const port = await freePort();
    const svc = await createTestApp({ config: { metrics: { enabled: true, port }, server: { host: '127.0.0.1' } } });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('svc_http_request_duration_seconds');
      expect((await svc.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await svc.close();
    }
    await expect(createTestApp({ config: { metrics: { enabled: true } } })).rejects.toThrow(/metrics.tokenSha256.*metrics.port/);
  });
});
