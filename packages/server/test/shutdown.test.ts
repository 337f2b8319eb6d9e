/**
 * Graceful shutdown (issue #16): SIGTERM during submit load. The process stops taking new
 * connections, finishes what it accepted, closes the database and exits 0; every submission it
 * acknowledged is stored, and no answer is cut off half-way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { stringify as toYaml } from 'yaml';
import { killAllServers, startServer } from './support/server-process.js';
import { EXAMPLE_FORMS_DIR } from './support/test-app.js';

const PERSON = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.test', message: 'Hi' };

describe('graceful shutdown', () => {
  let dir: string;
  let configFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-shutdown-'));
    configFile = join(dir, 'svc.config.yaml');
    writeFileSync(
      configFile,
      toYaml({
        secret: 'shutdown-test-secret-0123456789abcdefghijkl',
        dataDir: join(dir, 'data'),
        forms: { dir: EXAMPLE_FORMS_DIR, watch: false },
        server: { port: 0, host: '127.0.0.1', shutdownGraceMs: 8000 },
        rateLimit: { enabled: false },
        deliveries: { enabled: true, pollMs: 50 },
        csrf: { enabled: false },
        headless: { forms: { contact: { exposeManifest: true, allowSubmit: true } } },
      }),
    );
  });
  afterAll(async () => {
    await killAllServers();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('SIGTERM under submit load: every acknowledged submission is stored, no answer is cut off, exit code 0', async () => {
    const server = await startServer({ cwd: dir, configFile, name: 'shutdown' });
    const manifest = (await (await fetch(`${server.base}/svc/api/forms/contact/manifest`)).json()) as { data: { security: Record<string, any> } };
    const { honeypot, javascriptTest } = manifest.data.security;
    const body = JSON.stringify({ intent: 'submit', values: PERSON, meta: { honeypot: { name: honeypot.name, value: '' }, javascriptTest } });
    const acknowledged: number[] = [];
    const refused: string[] = [];
    const cutOff: string[] = [];
    // Load runs until the process is gone: requests keep arriving while it shuts down.
    let down = false;
    void server.exited.then(() => (down = true));
    const worker = async () => {
      while (!down) {
        let response: Response;
        try {
          response = await fetch(`${server.base}/svc/api/forms/contact/submit`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        } catch (error) {
          // Not accepted at all (the listener is closed): the client knows nothing was stored.
          refused.push(String((error as Error).cause ?? error));
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        try {
          const answer = (await response.json()) as { submission?: { id: number } };
          if (response.status === 200 && answer.submission) acknowledged.push(answer.submission.id);
          else refused.push(`status ${response.status}`);
        } catch (error) {
          cutOff.push(String(error));
        }
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const exit = server.stop(15_000);
    await Promise.all(workers);
    expect(await exit, server.output()).toEqual({ code: 0, signal: null });
    expect(cutOff).toEqual([]);
    // What was not acknowledged was never accepted: refused connections or a 503 while closing,
    // never a request dropped after it was sent.
    expect(refused.filter((reason) => !/ECONNREFUSED|status 503/.test(reason))).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(0);
    const db = new SqliteDatabase(join(dir, 'data', 'svc.db'), { readonly: true });
    try {
      const ids = new Set((db.prepare('select id from svc_submissions').all() as { id: number }[]).map((row) => row.id));
      expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
      // Their notifications were written with them (the outbox), whatever the worker got to.
      const jobs = db.prepare('select count(*) as n from svc_deliveries').get() as { n: number };
      expect(jobs.n).toBe(ids.size * 2);
    } finally {
      db.close();
    }
  }, 60_000);
});
