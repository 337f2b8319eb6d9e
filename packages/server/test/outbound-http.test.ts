/**
 * postOutbound (issue #5): the SSRF-safe POST behind webhooks, extra POST URLs and list
 * providers. Private, loopback, link-local, CGNAT and metadata targets are refused before any
 * connection unless the policy trusts them; redirects are never followed; a timeout bounds the
 * whole exchange. Exercised against a real loopback receiver.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboundRefused, postOutbound, type OutboundPolicy } from '../src/security/outbound-http.js';
import { startHttpReceiver, type HttpReceiver } from './support/http-receiver.js';

const STRICT: OutboundPolicy = { allowPrivateNetworks: false, allowedHosts: [], timeoutMs: 1000 };

describe('postOutbound', () => {
  let receiver: HttpReceiver;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });
  beforeEach(() => receiver.reset());

  const refusedTargets = () => [
    `http://localhost:${receiver.port}/x`,
    `http://127.0.0.1:${receiver.port}/x`,
    `http://127.1.2.3:${receiver.port}/x`,
    `http://[::1]:${receiver.port}/x`,
    'http://10.1.2.3/x',
    'http://172.16.0.1/x',
    'http://192.168.1.1/x',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/x',
    'http://100.100.100.200/x',
    `http://[::ffff:127.0.0.1]:${receiver.port}/x`,
    'http://[fe80::1]/x',
    'http://[fd00:ec2::254]/x',
    `http://0.0.0.0:${receiver.port}/x`,
    // Numeric spellings of loopback that URL parsing turns into 127.0.0.1.
    `http://2130706433:${receiver.port}/x`,
    `http://0x7f.1:${receiver.port}/x`,
    `https://127.0.0.1:${receiver.port}/x`,
  ];

  it('refuses private, loopback, link-local, CGNAT and metadata addresses before connecting', async () => {
    for (const url of refusedTargets()) {
      const error = await postOutbound(url, '{}', {}, STRICT).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, url).toBeInstanceOf(OutboundRefused);
      expect((error as Error).message, url).toMatch(/private or reserved address/);
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses schemes other than http(s), credentials in the URL and unparseable URLs, even for trusted hosts', async () => {
    const trusting: OutboundPolicy = { allowPrivateNetworks: true, allowedHosts: ['127.0.0.1'], timeoutMs: 1000 };
    const cases: [string, RegExp][] = [
      ['file:///etc/passwd', /only http and https/],
      [`ftp://127.0.0.1:${receiver.port}/x`, /only http and https/],
      ['gopher://127.0.0.1:70/x', /only http and https/],
      [`http://user:pass@127.0.0.1:${receiver.port}/x`, /credentials/],
      [`http://user@127.0.0.1:${receiver.port}/x`, /credentials/],
      ['not a url', /not a valid URL/],
    ];
    for (const [url, message] of cases) {
      for (const policy of [STRICT, trusting]) {
        const error = await postOutbound(url, '{}', {}, policy).then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, url).toBeInstanceOf(OutboundRefused);
        expect((error as Error).message, url).toMatch(message);
      }
    }
    expect(receiver.requests).toHaveLength(0);
  });

  it('still refuses other private hosts when only one host is allowed', async () => {
    const policy: OutboundPolicy = { allowPrivateNetworks: false, allowedHosts: ['127.0.0.1'], timeoutMs: 1000 };
    await expect(postOutbound('http://10.1.2.3/x', '{}', {}, policy)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(postOutbound(`http://[::1]:${receiver.port}/x`, '{}', {}, policy)).rejects.toBeInstanceOf(OutboundRefused);
    await expect(postOutbound('http://169.254.169.254/x', '{}', {}, policy)).rejects.toBeInstanceOf(OutboundRefused);
  });

  it('POSTs the body as JSON with the given headers to a host in allowedHosts', async () => {
    receiver.script('/hook', { status: 201, body: 'created' });
    const body = JSON.stringify({ hello: 'wörld' });
    const res = await postOutbound(receiver.url('/hook'), body, { 'x-extra': 'yes' }, { ...STRICT, allowedHosts: ['127.0.0.1'] });
    expect(res).toEqual({ status: 201, body: 'created' });
    const [seen, ...more] = receiver.on('/hook');
    expect(more).toHaveLength(0);
    expect(seen?.method).toBe('POST');
    expect(seen?.body).toBe(body);
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(seen?.headers['x-extra']).toBe('yes');
  });

  it('reaches loopback when allowPrivateNetworks is on, and returns error statuses without throwing', async () => {
    receiver.script('/hook', 503);
    const res = await postOutbound(receiver.url('/hook'), '{}', {}, { ...STRICT, allowPrivateNetworks: true });
    expect(res.status).toBe(503);
    expect(receiver.on('/hook')).toHaveLength(1);
  });

  it('returns a redirect as it is and never follows its Location', async () => {
    receiver.script('/moved', { status: 302, body: '', headers: { location: receiver.url('/landing') } });
    const res = await postOutbound(receiver.url('/moved'), '{}', {}, { ...STRICT, allowedHosts: ['127.0.0.1'] });
    expect(res.status).toBe(302);
    // Give a (wrongly) followed redirect the time to arrive before asserting it did not.
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.requests.map((r) => r.path)).toEqual(['/moved']);
  });

  it('keeps only the first maxBodyBytes of the answer', async () => {
    receiver.script('/big', { status: 200, body: 'x'.repeat(200_000) });
    const res = await postOutbound(receiver.url('/big'), '{}', {}, { ...STRICT, allowedHosts: ['127.0.0.1'] }, 1000);
    expect(res.body).toBe('x'.repeat(1000));
  });

  it('gives up on a receiver that never answers within timeoutMs', async () => {
    receiver.script('/hang', { hang: true });
    const started = Date.now();
    await expect(postOutbound(receiver.url('/hang'), '{}', {}, { ...STRICT, allowedHosts: ['127.0.0.1'], timeoutMs: 300 })).rejects.toThrow(/timed out/);
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1500);
    expect(receiver.on('/hang')).toHaveLength(1);
  });

  it('bounds the whole exchange, not only idle time: a body trickling forever is cut off at timeoutMs', async () => {
    receiver.script('/trickle', { status: 200, trickleMs: 50 });
    const started = Date.now();
    const outcome = await postOutbound(receiver.url('/trickle'), '{}', {}, { ...STRICT, allowedHosts: ['127.0.0.1'], timeoutMs: 400 }).then(
      (res) => ({ resolved: res }),
      (error: unknown) => ({ rejected: error }),
    );
    const elapsed = Date.now() - started;
    expect(outcome).toHaveProperty('rejected');
    expect(String((outcome as { rejected: unknown }).rejected)).toMatch(/timed out|aborted/);
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(2000);
  });
});
