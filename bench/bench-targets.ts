/**
 * One server per process for `npm run bench`: the real service, or a bare fastify baseline that
 * does the least the same scenario needs (serve the same manifest bytes; insert the same row into
 * SQLite; stream an uploaded file to disk; iterate rows into CSV). Prints `READY <port>` when listening.
 */
import { copyFileSync, cpSync, createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { createCipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import mercurius from 'mercurius';
import { printSchema } from 'graphql';
import { fullFormQuery } from './graphql-query.js';
import { EXPORT_KEY } from './export-data.js';
import { seedExportRowsApart } from './export-seed.js';
import { bigFormDefinition } from './big-form.js';
import { fromDist } from './svc-dist.js';

// The service as it ships (svc-dist.ts): compiled, not transformed by tsx on load.
const { startStripeDouble } = await fromDist<typeof import('../packages/server/src/payments/stripe-double/stripe-double-server.js')>('payments/stripe-double/stripe-double-server.js');
const { buildApp } = await fromDist<typeof import('../packages/server/src/app.js')>('app.js');
const { createDatabase } = await fromDist<typeof import('../packages/server/src/storage/database-factory.js')>('storage/database-factory.js');
const { migrateToLatest } = await fromDist<typeof import('../packages/server/src/storage/migration-runner.js')>('storage/migration-runner.js');
const { buildSvcSchema } = await fromDist<typeof import('../packages/server/src/graphql/graphql-schema.js')>('graphql/graphql-schema.js');
const { loadConfig } = await fromDist<typeof import('../packages/server/src/config/config-loader.js')>('config/config-loader.js');

const kind = process.argv[2];

const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));

function benchConfig(extra: Record<string, unknown> = {}, demo = false) {
  return loadConfig({
    file: resolve(import.meta.dirname, '../examples/svc.config.yaml'),
    demo,
    env: { SVC_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz' },
    // One client sends thousands of requests a second: the per-client limits would measure themselves.
    // The delivery worker is off: the submit path (row + outbox jobs in one transaction) is what is
    // measured, not the mailer writing thousands of .eml files a second beside it.
    values: {
      dataDir,
      forms: { dir: resolve(import.meta.dirname, '../examples/forms') },
      log: { level: 'silent' },
      rateLimit: { enabled: false },
      // The paced driver opens a connection for every request a stall leaves waiting, all from one
      // address: the per-address cap is for a client's many addresses' share, not a bench's.
      server: { maxConnectionsPerClient: 0 },
      deliveries: { enabled: false },
      ...extra,
    },
  });
}


/** The service's own tables, indexes and pragmas (its migrations), opened raw for a baseline. */
async function migratedSqlite(): Promise<SqliteDatabase.Database> {
  const handle = createDatabase({ url: null, dataDir });
  await migrateToLatest(handle);
  await handle.close();
  const db = new SqliteDatabase(join(dataDir, 'svc.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  return db;
}

async function main(): Promise<void> {
  if (kind === 'svc') {
    const svc = await buildApp(benchConfig(), { logger: false });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    report(svc.app.server.address());
    return;
  }
  if (kind === 'svc-demo') {
    // As `npm start` serves the examples (issue #36): the donation form's card field on the offline
    // Stripe double, which a page can load, instead of js.stripe.com, which it cannot offline.
    const svc = await buildApp(benchConfig({}, true), { logger: false });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    report(svc.app.server.address());
    return;
  }
  if (kind === 'svc-no-insights') {
    // The same service with insights off (issue #38): the submit ratio is printed with and without.
    const svc = await buildApp(benchConfig({ insights: { enabled: false } }), { logger: false });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    report(svc.app.server.address());
    return;
  }
  if (kind === 'svc-big') {
    // The example forms plus a generated 500-field form, all exposed, over GraphQL too.
    const forms = join(dataDir, 'bench-forms');
    mkdirSync(forms);
    for (const file of readdirSync(resolve(import.meta.dirname, '../examples/forms'))) {
      copyFileSync(resolve(import.meta.dirname, '../examples/forms', file), join(forms, file));
    }
    writeFileSync(join(forms, 'big.json'), JSON.stringify(bigFormDefinition()));
    const svc = await buildApp(
      benchConfig({ forms: { dir: forms }, headless: { forms: { big: { exposeManifest: true, allowSubmit: true } } }, graphql: { maxComplexity: 1_000_000 } }),
      { logger: false },
    );
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    report(svc.app.server.address());
    return;
  }
  if (kind === 'svc-notify') {
    // The delivery worker on: contact's two emails per submission go to the bench's SMTP sink and
    // a webhook to its receiver (both in the bench's own process, so their CPU is not counted here).
    const forms = join(dataDir, 'forms');
    cpSync(resolve(import.meta.dirname, '../examples/forms'), forms, { recursive: true });
    const contact = parseYaml(readFileSync(join(forms, 'contact.yaml'), 'utf8')) as { settings: { notifications: Record<string, unknown> } };
    contact.settings.notifications.webhooks = [{ url: process.env.BENCH_WEBHOOK_URL }];
    writeFileSync(join(forms, 'contact.yaml'), stringifyYaml(contact));
    const svc = await buildApp(
      benchConfig({
        forms: { dir: forms },
        deliveries: { enabled: true, pollMs: 200 },
        notifications: { smtpUrl: process.env.BENCH_SMTP_URL, webhookSecret: `whsec_${randomBytes(24).toString('base64')}` },
        outbound: { allowPrivateNetworks: true },
      }),
      { logger: false },
    );
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    process.stdout.write(`DATADIR ${dataDir}\n`);
    report(svc.app.server.address());
    return;
  }
  if (kind === 'baseline-manifest') {
    // The same manifest as bytes (a Buffer: a string body costs about 5 µs a response to encode
    // and measure), with the headers contract §2 asks of this route (Cache-Control, ETag, Vary)
    // and the request id every svc response carries: the least a service answering it could do.
    const svc = await buildApp(benchConfig(), { logger: false });
    const form = svc.context.forms.get('contact');
    if (!form) throw new Error('contact form missing');
    const { body, etag } = svc.context.manifests.get(form);
    const bytes = Buffer.from(body);
    await svc.close();
    const app = Fastify({ logger: false });
    app.get('/manifest', async (_request, reply) =>
      reply
        .header('Cache-Control', 'public, max-age=300')
        .header('ETag', etag)
        .header('Vary', 'Origin')
        .header('X-Request-Id', randomUUID())
        .type('application/json; charset=utf-8')
        .send(bytes),
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    report(app.server.address());
    return;
  }
  if (kind === 'baseline-insert') {
    // The same table, indexes and pragmas the service uses (its own migrations), written with one
    // prepared statement: the least any service could do to store this row. Not RETURNING read
    // with get(): that commits when the statement is reset, which skips SQLite's automatic
    // checkpoint, so the WAL never started over (1.75 GB after one run) and every append zeroed
    // fresh pages: 217 µs of CPU per insert against 94 when it checkpointed.
    const db = await migratedSqlite();
    db.prepare(`INSERT INTO svc_forms (uid, handle, hash, version, created_at, updated_at) VALUES ('f', 'contact', 'h', 'v', '', '')`).run();
    const insert = db.prepare(`INSERT INTO svc_submissions (uid, form_id, token_hash, title, status, is_spam, spam_reasons, ip, "values",
      finished, created_at, updated_at) VALUES (?, 1, ?, ?, 'open', 0, '[]', NULL, ?, 1, ?, ?)`);
    const app = Fastify({ logger: false });
    app.post('/submit', async (request) => {
      const body = request.body as { values: Record<string, string> };
      const now = new Date().toISOString();
      const token = randomBytes(24).toString('base64url');
      const { lastInsertRowid } = insert.run(randomUUID(), createHash('sha256').update(token).digest('hex'), `${body.values.firstName} ${body.values.lastName}`, JSON.stringify(body.values), now, now);
      return { success: true, submission: { id: Number(lastInsertRowid), token } };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    report(app.server.address());
    return;
  }
  if (kind === 'svc-pg') {
    // The service on PostgreSQL (the bench's scratch database), everything else as in `svc`.
    const svc = await buildApp(benchConfig({ database: { url: process.env.BENCH_PG_URL } }), { logger: false });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    report(svc.app.server.address());
    return;
  }
  if (kind === 'baseline-pg-insert') {
    // The same table in the same database (svc's own migrations), written with one named (so
    // prepared) statement through a pg pool of svc's default size: the least a service could do.
    const url = process.env.BENCH_PG_URL as string;
    const handle = createDatabase({ url, dataDir });
    await migrateToLatest(handle);
    await handle.close();
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // The bench drops its scratch database while this process is being stopped; idle clients hear it.
    pool.on('error', () => undefined);
    const form = await pool.query<{ id: number }>(`INSERT INTO svc_forms (uid, handle, hash, version, created_at, updated_at) VALUES ('fb', 'baseline', 'h', 'v', '', '') RETURNING id`);
    const formId = form.rows[0]?.id;
    const insert = `INSERT INTO svc_submissions (uid, form_id, token_hash, title, status, is_spam, spam_reasons, ip, "values",
      finished, created_at, updated_at) VALUES ($1, $2, $3, $4, 'open', 0, '[]', NULL, $5, 1, $6, $7) RETURNING id`;
    const app = Fastify({ logger: false });
    app.post('/submit', async (request) => {
      const body = request.body as { values: Record<string, string> };
      const now = new Date().toISOString();
      const token = randomBytes(24).toString('base64url');
      const values = [randomUUID(), formId, createHash('sha256').update(token).digest('hex'), `${body.values.firstName} ${body.values.lastName}`, JSON.stringify(body.values), now, now];
      const { rows } = await pool.query<{ id: number }>({ name: 'insert-submission', text: insert, values });
      return { success: true, submission: { id: rows[0]?.id, token } };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    report(app.server.address());
    return;
  }
  if (kind === 'baseline-upload') {
    // Bare fastify + @fastify/multipart streaming the part to a file: the least an upload endpoint does.
    const app = Fastify({ logger: false });
    await app.register(multipart);
    mkdirSync(join(dataDir, 'files'), { recursive: true });
    app.post('/upload', async (request) => {
      const part = await request.file();
      if (!part) throw new Error('no file');
      const id = randomBytes(16).toString('base64url');
      await pipeline(part.file, createWriteStream(join(dataDir, 'files', `${id}.png`)));
      return { success: true, data: { id, name: part.filename } };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    report(app.server.address());
    return;
  }
  if (kind === 'baseline-graphql') {
    // Bare mercurius with the same schema (as SDL) answering the same query from a static object:
    // the data svc returned, with __typename telling graphql which concrete type each object is.
    const svc = await buildApp(benchConfig(), { logger: false });
    const schema = buildSvcSchema(svc.context.forms.list());
    const query = fullFormQuery(schema, 'contact');
    const res = await svc.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ query }) });
    const data = (res.json() as { data: { svc: unknown } }).data;
    await svc.close();
    const app = Fastify({ logger: false });
    await app.register(mercurius, { schema: printSchema(schema), resolvers: { Query: { svc: () => data.svc } }, jit: 1 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    report(app.server.address());
    return;
  }
  if (kind === 'svc-export') {
    // The service with EXPORT_ROWS contact submissions and an admin key for the export route.
    const config = benchConfig({ admin: { keys: [{ name: 'bench', sha256: createHash('sha256').update(EXPORT_KEY).digest('hex'), scopes: ['read'], forms: ['*'] }] } });
    const svc = await buildApp(config, { logger: false });
    const form = svc.context.forms.get('contact');
    if (!form) throw new Error('contact form missing');
    // Sealed as svc stores them (issue #37), so the ratio includes opening every row.
    seedExportRowsApart(join(dataDir, 'svc.db'), form.id, config.secret as string);
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    report(svc.app.server.address());
    return;
  }
  if (kind === 'baseline-export') {
    // The same rows in the same table, read with one better-sqlite3 iterator and joined into naive
    // CSV lines written straight to the response: the least an export endpoint could do.
    const handle = createDatabase({ url: null, dataDir });
    await migrateToLatest(handle);
    await handle.close();
    const db = new SqliteDatabase(join(dataDir, 'svc.db'));
    db.pragma('journal_mode = WAL');
    db.prepare(`INSERT INTO svc_forms (uid, handle, hash, version, created_at, updated_at) VALUES ('f', 'contact', 'h', 'v', '', '')`).run();
    seedExportRowsApart(join(dataDir, 'svc.db'), 1);
    const select = db.prepare('SELECT id, uid, title, status, is_spam, created_at, "values" FROM svc_submissions WHERE form_id = 1 ORDER BY created_at, id');
    const app = Fastify({ logger: false });
    app.get('/export', (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' });
      reply.raw.write('id,uid,title,status,isSpam,createdAt,firstName,lastName,email,message\n');
      for (const r of select.iterate() as Iterable<Record<string, string | number>>) {
        const v = JSON.parse(r.values as string) as Record<string, string>;
        reply.raw.write(`${[r.id, r.uid, r.title, r.status, r.is_spam, r.created_at, v.firstName, v.lastName, v.email, v.message].join(',')}\n`);
      }
      reply.raw.end();
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    report(app.server.address());
    return;
  }
  if (kind === 'svc-payments') {
    // The service with Stripe pointed at the local double, started in this process (issue #12).
    const double = await startStripeDouble();
    const stripe = { publishableKey: double.publishableKey, secretKey: double.secretKey, webhookSecret: 'whsec_bench0123456789', apiUrl: double.url, jsUrl: double.jsUrl };
    const svc = await buildApp(benchConfig({ payments: { stripe, reconcileIntervalMinutes: 0 } }), { logger: false });
    await svc.app.listen({ port: 0, host: '127.0.0.1' });
    report(svc.app.server.address());
    return;
  }
  if (kind === 'baseline-checkpoint') {
    // The least a checkpoint does: ask the gateway for the intent (the same SDK and double), compare
    // it, and upsert a sealed copy of the values into the same table.
    const double = await startStripeDouble();
    const client = new Stripe(double.secretKey, { host: '127.0.0.1', port: double.port, protocol: 'http', maxNetworkRetries: 0 });
    const intent = await client.paymentIntents.create({ amount: 2500, currency: 'usd', metadata: { integration: 'bench' } });
    const db = await migratedSqlite();
    const upsert = db.prepare(`INSERT INTO svc_payment_checkpoints (intent_id, form_id, sealed, created_at, expires_at) VALUES (?, 1, ?, ?, ?)
      ON CONFLICT (intent_id) DO UPDATE SET sealed = excluded.sealed, created_at = excluded.created_at`);
    const key = randomBytes(32);
    const app = Fastify({ logger: false });
    app.post('/checkpoint', async (request) => {
      const body = request.body as { values: Record<string, string> };
      const found = await client.paymentIntents.retrieve(intent.id);
      if (found.metadata['integration'] !== 'bench' || found.amount !== 2500) throw new Error('mismatch');
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([iv, cipher.update(JSON.stringify(body.values)), cipher.final(), cipher.getAuthTag()]).toString('base64url');
      const now = new Date().toISOString();
      upsert.run(intent.id, sealed, now, now);
      return { success: true, data: { paymentIntentId: intent.id } };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    report(app.server.address());
    return;
  }
  throw new Error(`unknown bench target ${kind}`);
}

function report(address: ReturnType<import('node:net').Server['address']>): void {
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`READY ${port}\n`);
}

void main();

// Exit through process.exit so `--cpu-prof` runs can write their profile.
process.once('SIGTERM', () => process.exit(0));
// A run stores gigabytes (a million-row export, thousands of uploads): none of it outlives the target.
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
