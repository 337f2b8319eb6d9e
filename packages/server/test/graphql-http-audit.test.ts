/**
 * GraphQL-over-HTTP conformance (contract §11): the graphql-http server audits run against a
 * listening app. Every MUST audit passes; every SHOULD audit passes or is at most a notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAudits } from 'graphql-http';
import { createTestApp, type TestApp } from './support/test-app.js';

let svc: TestApp | undefined;
let resolveUrl: (url: string) => void = () => undefined;
const url = new Promise<string>((resolve) => {
  resolveUrl = resolve;
});

// Built before the app listens: each audit asks for the URL when it runs.
const audits = serverAudits({ url: () => url });
const required = audits.filter((audit) => audit.name.startsWith('MUST'));
const recommended = audits.filter((audit) => audit.name.startsWith('SHOULD'));

describe('GraphQL over HTTP audits', () => {
  beforeAll(async () => {
    svc = await createTestApp({ config: { forms: { watch: false }, graphql: { introspection: true } } });
    const address = await svc.app.listen({ port: 0, host: '127.0.0.1' });
    resolveUrl(`${address}/graphql`);
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('has audits of both levels to run', () => {
    expect(required.length).toBeGreaterThan(10);
    expect(recommended.length).toBeGreaterThan(5);
  });

  it.each(required.map((audit) => [audit.name, audit] as const))('%s', async (_name, audit) => {
    const result = await audit.fn();
    expect(result.status, 'reason' in result ? result.reason : undefined).toBe('ok');
  });

  it.each(recommended.map((audit) => [audit.name, audit] as const))('%s', async (_name, audit) => {
    const result = await audit.fn();
    expect(['ok', 'notice'], 'reason' in result ? result.reason : undefined).toContain(result.status);
  });
});
