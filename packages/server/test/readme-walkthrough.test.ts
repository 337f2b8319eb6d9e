/**
 * The README's curl walk-throughs run as written (issue #11): each `sh` block is run by bash with
 * curl and jq against a live server, only the address changed, and what each step says it stores
 * is what the database holds afterwards (no spam flags, no pretend drafts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeWithService } from './support/service-requirements.js';
import { createPaymentFixture } from './support/payment-fixture.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const hasTools = ['curl', 'jq', 'bash'].every((tool) => spawnSync('which', [tool]).status === 0);

/** The first ```sh block after `heading`. */
function shBlock(heading: string): string {
  const from = README.indexOf(heading);
  if (from < 0) throw new Error(`README has no "${heading}"`);
  const start = README.indexOf('```sh\n', from) + '```sh\n'.length;
  return README.slice(start, README.indexOf('```\n', start));
}

describeWithService('the README walk-throughs', hasTools ? 'yes' : undefined, 'curl, jq and bash are needed to run the README walk-through', () => {
  let svc: TestApp;
  let base: string;
  let cwd: string;
  beforeAll(async () => {
    svc = await createTestApp({
      config: {
        headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } },
      },
    });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
    cwd = mkdtempSync(join(tmpdir(), 'svc-readme-'));
    // The walk-through names files of this repository by their path from its root.
    symlinkSync(join(ROOT, 'examples'), join(cwd, 'examples'));
  });
  afterAll(async () => {
    await svc?.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  /** Runs a block in bash; asynchronously, since the server answering it lives in this process. */
  async function run(script: string): Promise<string> {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script.replaceAll('http://localhost:3000', base)], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    // issue #31: a walk-through run in a checkout leaves nothing behind in it (cookie jars and
    // responses live in temporary files or variables).
    expect(readdirSync(cwd)).toEqual(['examples']);
    return stdout;
  }

  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(svc.context.database.db)).rows as Record<string, unknown>[];

  it('runs the curl walk-through as written, storing what each step says and nothing flagged as spam', async () => {
    const out = await run(shBlock('## A walk-through with curl'));
    expect(out).toContain('"status":"submitted"');
    expect(out).toContain('"firstName":["This field is required"]');
    expect(out).toContain('{"status":"submitted","page":{"currentIndex":2,"total":3}}');
    const draft = JSON.parse(out.trim().split('\n').at(-1) as string) as { token: string; key: string; resumeUrl: string };
    expect(draft.token).toMatch(/^[A-Za-z0-9]{40}$/);
    const submissions = await rows(sql`select f.handle, s.is_spam from svc_submissions s join svc_forms f on f.id = s.form_id order by s.id`);
    expect(submissions.map((r) => [r.handle, Number(r.is_spam)])).toEqual([
      ['contact', 0],
      ['application', 0],
    ]);
    expect(await rows(sql`select id from svc_drafts`)).toHaveLength(1);
    const held = await rows(sql`select hold_until from svc_files where field_handle = 'portfolio'`);
    expect(held).toHaveLength(1);
    expect(held[0]?.hold_until).not.toBeNull();
  });

  it('runs the GraphQL walk-through as written and stores the submission clean', async () => {
    const out = await run(shBlock('## GraphQL'));
    expect(out).toContain('{"data":{"save_contact_Submission":{"success":true,"submissionId":');
    const [last] = await rows(sql`select is_spam, spam_reasons from svc_submissions order by id desc limit 1`);
    expect([Number(last?.is_spam), last?.spam_reasons]).toEqual([0, '[]']);
  });

  it('runs the classic-rendering walk-through as written: a form-encoded post stored clean', async () => {
    const out = await run(shBlock('## Classic rendering'));
    expect(out).toContain('"fields":["email","firstName","lastName","message"]');
    expect(out).toContain('{"success":true,"finished":true,"status":"submitted"}');
    const [last] = await rows(sql`select f.handle, s.is_spam from svc_submissions s join svc_forms f on f.id = s.form_id order by s.id desc limit 1`);
    expect([last?.handle, Number(last?.is_spam)]).toEqual(['contact', 0]);
  });

  it('runs the payments walk-through against the Stripe double, holding a checkpoint and storing nothing yet', async () => {
    const payments = await createPaymentFixture({ databaseUrl: null });
    try {
      const address = payments.svc.app.server.address() as AddressInfo;
      const script = shBlock('## Payments').replaceAll('http://localhost:3000', `http://127.0.0.1:${address.port}`);
      const out = await run(script);
      expect(out).toContain('"success":true');
      expect(out).toContain('"paymentIntentId":"pi_');
      const held = await payments.svc.context.database.db.selectFrom('svc_payment_checkpoints').select('intent_id').execute();
      expect(held).toHaveLength(1);
      expect(await payments.submissionCount('donation')).toBe(0);
    } finally {
      await payments.close();
    }
  });
});
