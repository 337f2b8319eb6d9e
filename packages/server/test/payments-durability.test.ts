/**
 * A paid respondent is never left without a submission (issue #12): the server is SIGKILLed
 * between the charge and the submission (no webhook arrived, the tab was closed), and
 * `svc payments reconcile` or a late webhook to the restarted server finishes it, exactly once.
 * The server runs as a child process; the Stripe double runs here and plays Stripe.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { stringify as toYaml } from 'yaml';
import { startStripeDouble, type StripeDouble } from '../src/payments/stripe-double/stripe-double-server.js';
import { killAllServers, startServer, type ServerProcess } from './support/server-process.js';
import { SVC_NODE_ARGS } from './support/svc-command.js';
import { EXAMPLE_FORMS_DIR } from './support/test-app.js';

const WEBHOOK_SECRET = 'whsec_durability_0123456789abcdef';
const DONOR = { name: 'Kim Killed', email: 'kim@example.test', gift: '50' };

describe('payments across a server killed between the charge and the submission', () => {
  let dir: string;
  let configFile: string;
  let double: StripeDouble;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-pay-durability-'));
    double = await startStripeDouble();
    double.autoDeliver(false);
    const config = {
      secret: 'payments-durability-secret-0123456789abcdefghij',
      dataDir: join(dir, 'data'),
      forms: { dir: EXAMPLE_FORMS_DIR, watch: false },
      server: { port: 0, host: '127.0.0.1' },
      csrf: { enabled: false },
      rateLimit: { enabled: false },
      deliveries: { enabled: false },
      headless: { forms: { donation: { exposeManifest: true, allowSubmit: true } } },
      payments: {
        reconcileIntervalMinutes: 0,
        stripe: { publishableKey: double.publishableKey, secretKey: double.secretKey, webhookSecret: WEBHOOK_SECRET, apiUrl: double.url, jsUrl: double.jsUrl },
      },
    };
    configFile = join(dir, 'svc.config.yaml');
    writeFileSync(configFile, toYaml(config));
  });
  afterAll(async () => {
    await killAllServers();
    await double?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  function stored(): { submissions: number; payments: { intent_id: string; status: string; submission_id: number | null }[] } {
    const db = new SqliteDatabase(join(dir, 'data', 'svc.db'), { readonly: true });
    try {
      const submissions = (db.prepare("select count(*) as n from svc_submissions s join svc_forms f on f.id = s.form_id where f.handle = 'donation'").get() as { n: number }).n;
      const payments = db.prepare('select intent_id, status, submission_id from svc_payments order by id').all() as { intent_id: string; status: string; submission_id: number | null }[];
      return { submissions, payments };
    } finally {
      db.close();
    }
  }

  /** Intent, checkpoint and a successful charge at the gateway; then the server dies before any word of it. */
  async function payThenKill(server: ServerProcess): Promise<string> {
    const manifest = (await (await fetch(`${server.base}/svc/api/forms/donation/manifest`)).json()) as {
      data: { security: { honeypot: { name: string }; javascriptTest: { name: string; value: string } }; fields: { payment: { frontend: { config: { integration: string } } } } };
    };
    const integration = manifest.data.fields.payment.frontend.config.integration;
    const post = (path: string, body: unknown) => fetch(`${server.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = (await (await post('/svc/payments/stripe/payment-intents', { values: DONOR, integration })).json()) as { id: string };
    const meta = { honeypot: { name: manifest.data.security.honeypot.name, value: '' }, javascriptTest: manifest.data.security.javascriptTest };
    const checkpoint = await post('/svc/api/forms/donation/payments/stripe/checkpoint', { intent: 'submit', values: { ...DONOR, payment: created.id }, meta, integration, paymentIntentId: created.id });
    expect(checkpoint.status, await checkpoint.clone().text()).toBe(200);
    await double.confirm(created.id, 'succeeds');
    await server.kill('SIGKILL');
    return created.id;
  }

  /** The CLI as its own process; asynchronously, since the Stripe double answering it lives in this one. */
  async function reconcile(): Promise<string> {
    const child = spawn(process.execPath, [...SVC_NODE_ARGS, 'payments', 'reconcile', '--config', configFile, '--since', '2h'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(code, out).toBe(0);
    return out;
  }

  it('svc payments reconcile finishes the paid checkpoint once, and says what it did', async () => {
    const id = await payThenKill(await startServer({ cwd: dir, configFile }));
    expect(stored().submissions).toBe(0);
    expect(await reconcile()).toMatch(/1 paid intent\(s\) finished as submissions, 0 already had theirs/);
    const after = stored();
    expect(after.submissions).toBe(1);
    expect(after.payments.find((p) => p.intent_id === id)).toMatchObject({ status: 'succeeded' });
    expect(await reconcile()).toMatch(/0 paid intent\(s\) finished as submissions, 1 already had theirs/);
    expect(stored().submissions).toBe(1);
  });

  it('a webhook that arrives after the restart finishes it, and a replay of it changes nothing', async () => {
    const before = stored().submissions;
    const id = await payThenKill(await startServer({ cwd: dir, configFile }));
    const restarted = await startServer({ cwd: dir, configFile });
    double.setWebhook({ url: `${restarted.base}/svc/payments/stripe/webhook`, secret: WEBHOOK_SECRET });
    const success = double.events().filter((e) => e.type === 'payment_intent.succeeded' && (e.data.object as { id: string }).id === id);
    await double.deliver(success.map((e) => e.id));
    await double.deliver(success.map((e) => e.id));
    expect(stored().submissions).toBe(before + 1);
    await restarted.stop();
    expect(await reconcile()).toMatch(/0 paid intent\(s\) finished as submissions/);
    expect(stored().submissions).toBe(before + 1);
  });
});
