/**
 * The curl walk-throughs of the docs run as written (issues #11, #33): each ```sh block of
 * README.md, docs/rest.md, docs/graphql.md, docs/classic-rendering.md, docs/payments.md and
 * docs/admin-api.md is run by bash with curl and jq against a live server, only the address
 * changed, and what each step says it stores is what the database holds afterwards (no spam flags,
 * no pretend drafts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from './support/test-app.js';
import { describeWithService } from './support/service-requirements.js';
import { createPaymentFixture } from './support/payment-fixture.js';
import { REPO, commandBlocks } from './support/docs-blocks.js';

const TOOLS = ['curl', 'jq', 'bash', 'openssl', 'sha256sum'];
const onPath = (tool: string) => (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, tool)));
const hasTools = TOOLS.every(onPath);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a block in bash; asynchronously, since the server answering it lives in this process. */
function bash(script: string, cwd: string): Promise<Run> {
  const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describeWithService('the curl walk-throughs of the docs', hasTools ? 'yes' : undefined, `${TOOLS.join(', ')} are needed to run the docs' walk-throughs`, () => {
  let svc: TestApp;
  let base: string;
  let cwd: string;
  let adminCwd: string;
  let adminKey: string;
  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), 'svc-docs-'));
    adminCwd = mkdtempSync(join(tmpdir(), 'svc-docs-admin-'));
    // docs/admin-api.md makes a key first and puts its SHA-256 into the config: so does this server.
    const [makeKey] = commandBlocks('docs/admin-api.md');
    const made = await bash(`${makeKey}echo "$KEY"\n`, adminCwd);
    expect(made.code, made.stderr).toBe(0);
    const [digestLine, key] = made.stdout.trim().split('\n');
    adminKey = key as string;
    const sha256 = (digestLine as string).split(/\s+/)[0] as string;
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    svc = await createTestApp({
      config: {
        headless: { forms: { 'job-application': { exposeManifest: true, allowSubmit: true } } },
        admin: { keys: [{ name: 'ops', sha256, scopes: ['read', 'write'], forms: ['*'] }] },
      },
    });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(svc.app.server.address() as AddressInfo).port}`;
    // The walk-through names files of this repository by their path from its root.
    symlinkSync(join(REPO, 'examples'), join(cwd, 'examples'));
  });
  afterAll(async () => {
    await svc?.close();
    for (const dir of [cwd, adminCwd]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function run(script: string, at = base): Promise<string> {
    const result = await bash(script.replaceAll('http://localhost:3000', at), cwd);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    // issue #31: a walk-through run in a checkout leaves nothing behind in it (cookie jars and
    // responses live in temporary files or variables).
    expect(readdirSync(cwd)).toEqual(['examples']);
    return result.stdout;
  }

  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(svc.context.database.db)).rows as Record<string, unknown>[];
  const stored = async () =>
    (await rows(sql`select f.handle, s.is_spam from svc_submissions s join svc_forms f on f.id = s.form_id order by s.id`)).map((r) => [r.handle, Number(r.is_spam)]);

  it("runs the README's walk-through as written: one contact submission stored clean, a validation failure stored nowhere", async () => {
    const [walk] = commandBlocks('README.md').filter((block) => block.includes('curl'));
    const out = await run(walk as string);
    expect(out).toContain('"status":"submitted"');
    expect(out).toContain('"firstName":["This field is required"]');
    expect(await stored()).toEqual([['contact', 0]]);
  });

  it("runs docs/rest.md's walk-through as written, storing what each step says and nothing flagged as spam", async () => {
    const before = await stored();
    const [walk] = commandBlocks('docs/rest.md');
    const out = await run(walk as string);
    expect(out).toContain('"status":"submitted"');
    expect(out).toContain('"firstName":["This field is required"]');
    expect(out).toContain('{"status":"submitted","page":{"currentIndex":2,"total":3}}');
    const draft = JSON.parse(out.trim().split('\n').at(-1) as string) as { token: string; key: string; resumeUrl: string };
    expect(draft.token).toMatch(/^[A-Za-z0-9]{40}$/);
    expect((await stored()).slice(before.length)).toEqual([
      ['contact', 0],
      ['application', 0],
    ]);
    expect(await rows(sql`select id from svc_drafts`)).toHaveLength(1);
    const held = await rows(sql`select hold_until from svc_files where field_handle = 'portfolio'`);
    expect(held).toHaveLength(1);
    expect(held[0]?.hold_until).not.toBeNull();
  });

  it("runs docs/graphql.md's walk-through as written and stores the submission clean", async () => {
    const out = await run(commandBlocks('docs/graphql.md')[0] as string);
    expect(out).toContain('{"data":{"save_contact_Submission":{"success":true,"submissionId":');
    const [last] = await rows(sql`select is_spam, spam_reasons from svc_submissions order by id desc limit 1`);
    expect([Number(last?.is_spam), last?.spam_reasons]).toEqual([0, '[]']);
  });

  it("runs docs/classic-rendering.md's walk-through as written: a form-encoded post stored clean", async () => {
    const out = await run(commandBlocks('docs/classic-rendering.md')[0] as string);
    expect(out).toContain('"fields":["email","firstName","lastName","message"]');
    expect(out).toContain('{"success":true,"finished":true,"status":"submitted"}');
    expect((await stored()).at(-1)).toEqual(['contact', 0]);
  });

  it("runs docs/admin-api.md's requests as written with the key it made: lists, reads, changes and exports", async () => {
    const [, requests] = commandBlocks('docs/admin-api.md');
    const result = await bash(`KEY='${adminKey}'\n${(requests as string).replaceAll('http://localhost:3000', base)}`, adminCwd);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain('"handle":"contact"');
    expect(result.stdout).not.toContain('AUTH_REQUIRED');
    // The export the page downloads holds the contact submissions the walk-throughs stored.
    const csv = readFileSync(join(adminCwd, 'contact.csv'), 'utf8');
    expect(csv.split('\n')[0]).toContain('firstName');
    expect(csv).toContain('ann@example.test');
  });

  it("runs docs/payments.md's walk-through against the Stripe double, holding a checkpoint and storing nothing yet", async () => {
    const payments = await createPaymentFixture({ databaseUrl: null });
    try {
      const address = payments.svc.app.server.address() as AddressInfo;
      const out = await run(commandBlocks('docs/payments.md')[0] as string, `http://127.0.0.1:${address.port}`);
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
