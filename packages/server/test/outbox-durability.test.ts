/**
 * The delivery outbox across real process deaths (DESIGN.md principle 8: an acknowledged
 * submission is always delivered). The server runs as a child process (`svc serve --config`),
 * is SIGKILLed at the worst moments and restarted on the same data; a local webhook receiver
 * records what arrives. PostgreSQL also gets two worker processes draining one outbox, where
 * `FOR UPDATE SKIP LOCKED` must hand each job to exactly one of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { stringify as toYaml } from 'yaml';
import { describeWithService, postgresUrl } from './support/service-requirements.js';
import { createScratchDatabase, type ScratchDatabase } from './support/postgres-database.js';
import { killAllServers, startServer, type ServerProcess, type StartServerOptions } from './support/server-process.js';

// ---------------------------------------------------------------------------------------------
// A webhook receiver: records every request; answers 200 or holds the request open ("hang").

interface Hit {
  readonly webhookId: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly json: { type: string; data: { form: { handle: string }; submission: { id: number | null; uid: string }; values: Record<string, unknown> } };
  readonly receivedAt: number;
  /** Answered 200 (the sender got its acknowledgement). */
  acknowledged: boolean;
  /** The connection went away before any answer (the sender died or gave up). */
  abandoned: boolean;
}

interface Receiver {
  readonly url: string;
  readonly hits: Hit[];
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** `hang`: hold each request open, unanswered; `ok`: answer 200 at once. */
  setMode(mode: 'hang' | 'ok'): void;
  /** Answers every request held so far with 200 and switches to `ok`. */
  release(): void;
  reset(): void;
  waitFor(predicate: (hits: readonly Hit[]) => boolean, timeoutMs: number, what: string): Promise<void>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  let mode: 'hang' | 'ok' = 'ok';
  const hits: Hit[] = [];
  const held: { hit: Hit; res: ServerResponse }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const answer = (hit: Hit, res: ServerResponse) => {
    if (res.destroyed || hit.abandoned) return;
    hit.acknowledged = true;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight -= 1;
    };
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const hit: Hit = {
        webhookId: headers['webhook-id'] ?? '',
        headers,
        body,
        json: JSON.parse(body) as Hit['json'],
        receivedAt: Date.now(),
        acknowledged: false,
        abandoned: false,
      };
      hits.push(hit);
      res.on('finish', finish);
      res.on('close', () => {
        if (!hit.acknowledged) hit.abandoned = true;
        finish();
      });
      if (mode === 'ok') answer(hit, res);
      else held.push({ hit, res });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    setMode(next) {
      mode = next;
    },
    release() {
      mode = 'ok';
      for (const { hit, res } of held.splice(0)) answer(hit, res);
    },
    reset() {
      hits.length = 0;
      held.splice(0);
      maxInFlight = inFlight;
      mode = 'ok';
    },
    async waitFor(predicate, timeoutMs, what) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(hits)) {
        if (Date.now() > deadline) throw new Error(`receiver: ${what} did not happen within ${timeoutMs} ms (${hits.length} request(s) seen)`);
        await sleep(20);
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The outbox as the test sees it: straight from the database, not through the server.

interface DeliveryRow {
  id: number;
  uid: string;
  submission_id: number | null;
  kind: string;
  status: string;
  attempts: number;
  locked_until: string | null;
  delivered_at: string | null;
}

interface Outbox {
  rows(submissionId?: number): Promise<DeliveryRow[]>;
  attemptLog(deliveryId: number): Promise<{ attempt: number; ok: number }[]>;
  /** Moves a job's lease into the past: stands in for waiting out the real lease. */
  expireLease(deliveryId: number): Promise<void>;
  close(): Promise<void>;
}

const ROW_COLUMNS = 'id, uid, submission_id, kind, status, attempts, locked_until, delivered_at';

function normalise(row: Record<string, unknown>): DeliveryRow {
  return {
    id: Number(row.id),
    uid: String(row.uid),
    submission_id: row.submission_id === null ? null : Number(row.submission_id),
    kind: String(row.kind),
    status: String(row.status),
    attempts: Number(row.attempts),
    locked_until: (row.locked_until as string | null) ?? null,
    delivered_at: (row.delivered_at as string | null) ?? null,
  };
}

function sqliteOutbox(file: string): Outbox {
  // A connection per call: the server process owns the file, the test only looks in briefly.
  const withDb = <T>(fn: (db: SqliteDatabase.Database) => T): T => {
    const db = new SqliteDatabase(file);
    db.pragma('busy_timeout = 5000');
    try {
      return fn(db);
    } finally {
      db.close();
    }
  };
  return {
    async rows(submissionId) {
      return withDb((db) =>
        (submissionId === undefined
          ? db.prepare(`SELECT ${ROW_COLUMNS} FROM svc_deliveries ORDER BY id`).all()
          : db.prepare(`SELECT ${ROW_COLUMNS} FROM svc_deliveries WHERE submission_id = ? ORDER BY id`).all(submissionId)
        ).map((r) => normalise(r as Record<string, unknown>)),
      );
    },
    async attemptLog(deliveryId) {
      return withDb((db) =>
        (db.prepare('SELECT attempt, ok FROM svc_delivery_attempts WHERE delivery_id = ? ORDER BY id').all(deliveryId) as { attempt: number; ok: number }[]).map(
          (r) => ({ attempt: Number(r.attempt), ok: Number(r.ok) }),
        ),
      );
    },
    async expireLease(deliveryId) {
      withDb((db) => db.prepare('UPDATE svc_deliveries SET locked_until = ? WHERE id = ?').run(new Date(Date.now() - 1000).toISOString(), deliveryId));
    },
    async close() {},
  };
}

function postgresOutbox(url: string): Outbox {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => undefined);
  return {
    async rows(submissionId) {
      const result =
        submissionId === undefined
          ? await pool.query(`SELECT ${ROW_COLUMNS} FROM svc_deliveries ORDER BY id`)
          : await pool.query(`SELECT ${ROW_COLUMNS} FROM svc_deliveries WHERE submission_id = $1 ORDER BY id`, [submissionId]);
      return result.rows.map((r: Record<string, unknown>) => normalise(r));
    },
    async attemptLog(deliveryId) {
      const result = await pool.query('SELECT attempt, ok FROM svc_delivery_attempts WHERE delivery_id = $1 ORDER BY id', [deliveryId]);
      return result.rows.map((r: { attempt: number; ok: number }) => ({ attempt: Number(r.attempt), ok: Number(r.ok) }));
    },
    async expireLease(deliveryId) {
      await pool.query('UPDATE svc_deliveries SET locked_until = $1 WHERE id = $2', [new Date(Date.now() - 1000).toISOString(), deliveryId]);
    },
    close: () => pool.end(),
  };
}

// ---------------------------------------------------------------------------------------------
// A scenario: a temp dir with config + the `ping` form, a receiver, a database, its servers.

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const verifier = new Webhook(WEBHOOK_SECRET);

interface Scenario {
  readonly dir: string;
  readonly configFile: string;
  readonly receiver: Receiver;
  readonly outbox: Outbox;
  /** Starts a server on this scenario's config and remembers it for teardown. */
  start(options?: Omit<StartServerOptions, 'configFile'>): Promise<ServerProcess>;
  teardown(): Promise<void>;
}

async function createScenario(options: { databaseUrl?: string; deliveries?: Record<string, unknown> } = {}): Promise<Scenario> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-outbox-'));
  const receiver = await startReceiver();
  const formsDir = join(dir, 'forms');
  mkdirSync(formsDir);
  writeFileSync(
    join(formsDir, 'ping.yaml'),
    toYaml({
      name: 'Ping',
      settings: {
        spam: { honeypot: false, javascriptTest: false },
        notifications: { webhooks: [{ url: receiver.url }] },
      },
      fields: [{ type: 'text', handle: 'note', label: 'Note' }],
    }),
  );
  const config: Record<string, unknown> = {
    secret: `outbox-durability-${randomBytes(24).toString('hex')}`,
    dataDir: join(dir, 'data'),
    forms: { dir: formsDir, watch: false },
    server: { port: 0, host: '127.0.0.1' },
    csrf: { enabled: false },
    rateLimit: { enabled: false },
    headless: { forms: { ping: { exposeManifest: true, allowSubmit: true } } },
    outbound: { allowedHosts: ['127.0.0.1'] },
    notifications: { webhookSecret: WEBHOOK_SECRET },
    deliveries: { pollMs: 200, backoffSeconds: 0.2, timeoutMs: 3000, ...options.deliveries },
    ...(options.databaseUrl ? { database: { url: options.databaseUrl } } : {}),
  };
  const configFile = join(dir, 'svc.config.yaml');
  writeFileSync(configFile, toYaml(config));
  const outbox = options.databaseUrl ? postgresOutbox(options.databaseUrl) : sqliteOutbox(join(dir, 'data', 'svc.db'));
  const started: ServerProcess[] = [];
  return {
    dir,
    configFile,
    receiver,
    outbox,
    async start(startOptions = {}) {
      const server = await startServer({ cwd: dir, ...startOptions, configFile });
      started.push(server);
      return server;
    },
    async teardown() {
      await Promise.all(started.map((s) => s.kill('SIGKILL')));
      await outbox.close().catch(() => undefined);
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms; last seen: ${JSON.stringify(last)}`);
    await sleep(25);
    last = await read();
  }
  return last;
}

interface Submitted {
  readonly id: number;
  readonly uid: string;
}

async function submitPing(server: ServerProcess, note: string): Promise<Submitted> {
  const res = await fetch(`${server.base}/svc/api/forms/ping/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ intent: 'submit', values: { note } }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`submit answered ${res.status}: ${text}\nserver output:\n${server.output()}`);
  const body = JSON.parse(text) as { status: string; submission: { id: number; uid: string } };
  expect(body.status).toBe('submitted');
  return body.submission;
}

function verifySignature(hit: Hit): void {
  expect(() => verifier.verify(hit.body, hit.headers)).not.toThrow();
}

/** Wall-clock durations worth reporting, printed once at the end. */
const timings: string[] = [];
afterAll(async () => {
  await killAllServers();
  if (timings.length > 0) console.info(`[outbox-durability timings]\n  ${timings.join('\n  ')}`);
});

// ---------------------------------------------------------------------------------------------
// 1. SIGKILL durability: an acknowledged submission is delivered after a crash.

function crashSuite(label: string, databaseUrl: () => string | undefined): void {
  let scenario: Scenario;
  let scratch: ScratchDatabase | null = null;

  beforeAll(async () => {
    const adminUrl = databaseUrl();
    scratch = adminUrl ? await createScratchDatabase(adminUrl) : null;
    scenario = await createScenario({ databaseUrl: scratch?.url });
  });

  afterAll(async () => {
    await scenario?.teardown();
    await scratch?.drop();
  });

  it('(a) a submission stored by a process with no worker, killed at once, is delivered by the next process', async () => {
    const { receiver, outbox } = scenario;
    receiver.reset();
    receiver.setMode('hang');
    const first = await scenario.start({ name: `${label} web-only`, env: { SVC_DELIVERIES__ENABLED: 'false' } });
    const submission = await submitPing(first, 'n1');
    const killed = await first.kill('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');

    // Nothing went out, and the job is in the outbox untouched.
    expect(receiver.hits).toHaveLength(0);
    const [queued, ...others] = await outbox.rows(submission.id);
    expect(others).toHaveLength(0);
    expect(queued).toMatchObject({ kind: 'webhook', status: 'pending', attempts: 0, locked_until: null, delivered_at: null });

    receiver.setMode('ok');
    const restartedAt = Date.now();
    const second = await scenario.start({ name: `${label} restarted` });
    const bootedAt = Date.now();
    await receiver.waitFor((hits) => hits.some((h) => h.json.data.submission.uid === submission.uid && h.acknowledged), 5000, 'the webhook after restart');
    timings.push(`${label} (a): restart boot ${bootedAt - restartedAt} ms, webhook ${Date.now() - bootedAt} ms after the banner`);

    expect(receiver.hits).toHaveLength(1);
    const hit = receiver.hits[0] as Hit;
    expect(hit.webhookId).toBe(`msg_${queued?.uid}`);
    expect(hit.json).toMatchObject({
      type: 'submission.created',
      data: { form: { handle: 'ping' }, submission: { id: submission.id, uid: submission.uid }, values: { note: 'n1' } },
    });
    verifySignature(hit);
    const [delivered] = await eventually(
      () => outbox.rows(submission.id),
      (rows) => rows[0]?.status === 'delivered',
      3000,
      'svc_deliveries row becoming delivered',
    );
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 1, locked_until: null });
    expect(delivered?.delivered_at).toEqual(expect.any(String));
    expect(await outbox.attemptLog(delivered?.id as number)).toEqual([{ attempt: 1, ok: 1 }]);
    await second.stop();
  });

  it('(b) a process killed while its webhook is in flight leaves a leased job that is delivered again, with the same webhook-id, once the lease is over', async () => {
    const { receiver, outbox } = scenario;
    receiver.reset();
    receiver.setMode('hang');
    const first = await scenario.start({ name: `${label} worker` });
    const submission = await submitPing(first, 'n2');
    await receiver.waitFor((hits) => hits.some((h) => h.json.data.submission.uid === submission.uid), 5000, 'the first (hanging) webhook request');
    // Killed well inside deliveries.timeoutMs (3 s): the attempt never finished, never failed.
    const killed = await first.kill('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    const inFlight = receiver.hits[0] as Hit;
    expect(Date.now() - inFlight.receivedAt).toBeLessThan(3000);
    await receiver.waitFor((hits) => hits.every((h) => h.abandoned), 2000, 'the killed sender dropping its connection');
    expect(receiver.hits.filter((h) => h.acknowledged)).toHaveLength(0);
    expect(inFlight.json.data.values).toEqual({ note: 'n2' });

    // The crash left the claim: one attempt counted, a lease (timeoutMs * 10 + 30 s) in the future, no log entry.
    const [leased] = await outbox.rows(submission.id);
    expect(leased).toMatchObject({ status: 'pending', attempts: 1, delivered_at: null });
    expect(Date.parse(leased?.locked_until ?? '')).toBeGreaterThan(Date.now() + 25_000);
    expect(await outbox.attemptLog(leased?.id as number)).toEqual([]);

    // A new process honours the lease: a live-but-slow worker could still be holding the job.
    receiver.setMode('ok');
    const second = await scenario.start({ name: `${label} restarted` });
    await sleep(1200); // six polls
    expect(receiver.hits).toHaveLength(1);
    expect((await outbox.rows(submission.id))[0]).toMatchObject({ status: 'pending', attempts: 1, locked_until: leased?.locked_until });

    // The lease is ~39 s of real time; move it into the past rather than wait it out.
    const expiredAt = Date.now();
    await outbox.expireLease(leased?.id as number);
    await receiver.waitFor((hits) => hits.length >= 2 && (hits[1] as Hit).acknowledged, 3000, 'redelivery after the lease expired');
    timings.push(`${label} (b): redelivered ${Date.now() - expiredAt} ms after the lease was expired`);
    const redelivered = receiver.hits[1] as Hit;
    // Same job, same webhook-id: a receiver that saw the first (unacknowledged) request can dedupe.
    expect(redelivered.webhookId).toBe(inFlight.webhookId);
    expect(redelivered.webhookId).toBe(`msg_${leased?.uid}`);
    expect(redelivered.json.data).toMatchObject({ submission: { uid: submission.uid }, values: { note: 'n2' } });
    verifySignature(redelivered);
    const [delivered] = await eventually(
      () => outbox.rows(submission.id),
      (rows) => rows[0]?.status === 'delivered',
      3000,
      'svc_deliveries row becoming delivered',
    );
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 2, locked_until: null });
    expect(await outbox.attemptLog(delivered?.id as number)).toEqual([{ attempt: 2, ok: 1 }]);
    await sleep(500);
    expect(receiver.hits).toHaveLength(2);
    await second.stop();
  });
}

describe('outbox durability across SIGKILL (SQLite)', () => crashSuite('sqlite', () => undefined));

describeWithService('outbox durability across SIGKILL (PostgreSQL)', postgresUrl(), 'SVC_TEST_POSTGRES_URL is not set', (url) =>
  crashSuite('postgres', () => url),
);

// ---------------------------------------------------------------------------------------------
// 2. Several processes on one PostgreSQL outbox: every job delivered, and only once.

describeWithService('two worker processes on one PostgreSQL outbox', postgresUrl(), 'SVC_TEST_POSTGRES_URL is not set', (adminUrl) => {
  const JOBS = 200;
  const CONCURRENCY = 4;
  let scenario: Scenario;
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createScratchDatabase(adminUrl);
    // A generous timeout: requests are held at the receiver until both workers are busy, and a
    // timed-out (then retried) request would be a legitimate duplicate, not the one we look for.
    scenario = await createScenario({ databaseUrl: scratch.url, deliveries: { timeoutMs: 20_000 } });
  });

  afterAll(async () => {
    await scenario?.teardown();
    await scratch?.drop();
  });

  it(`delivers ${JOBS} queued jobs exactly once between processes B and C`, async () => {
    const { receiver, outbox } = scenario;
    const web = await scenario.start({ name: 'A (web only)', env: { SVC_DELIVERIES__ENABLED: 'false' } });
    const submitStarted = Date.now();
    const submitted: Submitted[] = [];
    for (let batch = 0; batch < JOBS / 20; batch += 1) {
      submitted.push(...(await Promise.all(Array.from({ length: 20 }, (_, i) => submitPing(web, `bulk-${batch * 20 + i}`)))));
    }
    timings.push(`postgres two workers: ${JOBS} submits in ${Date.now() - submitStarted} ms`);
    const queued = await outbox.rows();
    expect(queued).toHaveLength(JOBS);
    expect(queued.every((r) => r.status === 'pending' && r.attempts === 0)).toBe(true);
    expect(receiver.hits).toHaveLength(0);

    // Hold every request until both workers are busy at once, so the claims really race.
    receiver.setMode('hang');
    const workerEnv = { SVC_DELIVERIES__CONCURRENCY: String(CONCURRENCY), SVC_DELIVERIES__POLL_MS: '50' };
    const workersStarted = Date.now();
    await Promise.all([scenario.start({ name: 'B', env: workerEnv }), scenario.start({ name: 'C', env: workerEnv })]);
    const bothUp = Date.now();
    const overlapDeadline = Date.now() + 8000;
    while (receiver.inFlight < 2 * CONCURRENCY && Date.now() < overlapDeadline) await sleep(20);
    const overlapped = receiver.inFlight;
    receiver.release();

    await eventually(
      () => outbox.rows(),
      (rows) => rows.filter((r) => r.status === 'delivered').length === JOBS,
      20_000,
      `all ${JOBS} jobs delivered`,
    );
    timings.push(
      `postgres two workers: boot ${bothUp - workersStarted} ms, all ${JOBS} delivered ${Date.now() - bothUp} ms after both banners (in flight at release: ${overlapped})`,
    );
    await sleep(500); // any late duplicate would arrive now

    // Both processes were delivering at the same time, each within its own concurrency.
    expect(overlapped).toBe(2 * CONCURRENCY);
    expect(receiver.maxInFlight).toBeLessThanOrEqual(2 * CONCURRENCY);

    const ids = receiver.hits.map((h) => h.webhookId);
    const seen = new Map<string, number>();
    for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
    const duplicated = [...seen].filter(([, count]) => count > 1);
    expect(duplicated, `${duplicated.length} webhook-id(s) delivered more than once`).toEqual([]);
    expect(receiver.hits).toHaveLength(JOBS);
    expect(new Set(ids).size).toBe(JOBS);
    const rows = await outbox.rows();
    expect(new Set(ids)).toEqual(new Set(rows.map((r) => `msg_${r.uid}`)));
    expect(new Set(receiver.hits.map((h) => h.json.data.submission.uid))).toEqual(new Set(submitted.map((s) => s.uid)));
    expect(rows.every((r) => r.status === 'delivered' && r.attempts === 1 && r.locked_until === null)).toBe(true);
    expect(receiver.hits.every((h) => h.acknowledged)).toBe(true);
    for (const hit of receiver.hits.slice(0, 5)) verifySignature(hit);
  });
});
