/**
 * Notification lag (issue #17): submits at a fixed rate with the delivery worker on, sampling the
 * age of the oldest pending outbox job from the target's own SQLite file (read-only) while they
 * arrive and until the backlog is gone. The rate is half of what the service sustains with its
 * worker on (measureSustainedRate).
 */
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import SqliteDatabase from 'better-sqlite3';
import autocannon from 'autocannon';
import { pacedLoad } from './paced-load.js';
import { SMTPServer } from 'smtp-server';

/** Where the target delivers: a real SMTP server and an HTTP receiver that count what arrives. */
export interface NotificationSinks {
  readonly smtpUrl: string;
  readonly webhookUrl: string;
  received(): { readonly emails: number; readonly webhooks: number };
  close(): Promise<void>;
}

export async function startNotificationSinks(): Promise<NotificationSinks> {
  let emails = 0;
  let webhooks = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        emails += 1;
        callback();
      });
    },
  });
  const http = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      webhooks += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    webhookUrl: `http://127.0.0.1:${(http.address() as AddressInfo).port}/hook`,
    received: () => ({ emails, webhooks }),
    close: async () => {
      http.closeAllConnections();
      await Promise.all([new Promise<void>((resolve) => smtp.close(() => resolve())), new Promise((resolve) => http.close(resolve))]);
    },
  };
}

export interface LagResult {
  readonly rate: number;
  readonly seconds: number;
  readonly submitted: number;
  readonly jobs: number;
  readonly oldestDuringMs: number;
  readonly oldestAfterMs: number;
  readonly drainAfterMs: number | null;
  readonly jobsPerSecond: number;
}

const SAMPLE_MS = 250;
const DRAIN_LIMIT_MS = 120_000;

/** The outbox of a target's SQLite file, read-only: the oldest pending job's age and the count. */
function openOutbox(dataDir: string) {
  const db = new SqliteDatabase(join(dataDir, 'svc.db'), { readonly: true, fileMustExist: true });
  const oldest = db.prepare(`SELECT MIN(created_at) AS at, COUNT(*) AS n FROM svc_deliveries WHERE status = 'pending'`);
  const total = db.prepare(`SELECT COUNT(*) AS n FROM svc_deliveries`);
  return {
    pending(): { age: number; pending: number } {
      const row = oldest.get() as { at: string | null; n: number };
      return { age: row.at ? Date.now() - Date.parse(row.at) : 0, pending: Number(row.n) };
    },
    jobs: () => Number((total.get() as { n: number }).n),
    close: () => db.close(),
  };
}

/** Samples the outbox until nothing is pending (or the limit): when that was, and the oldest age seen. */
async function untilDrained(outbox: ReturnType<typeof openOutbox>, from: number): Promise<{ drainAfterMs: number | null; oldestMs: number }> {
  let oldestMs = 0;
  while (Date.now() - from < DRAIN_LIMIT_MS) {
    const { age, pending } = outbox.pending();
    oldestMs = Math.max(oldestMs, age);
    if (pending === 0) return { drainAfterMs: Date.now() - from, oldestMs };
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  return { drainAfterMs: null, oldestMs };
}

/**
 * What the service sustains with its worker on: submits as fast as they are taken for `seconds`,
 * then the time until every notification they made is out; submits over the whole time. A
 * service that sends notifications can take no more than it delivers, so this, not the rate it
 * stores rows with the worker off, is the capacity its notification lag is measured at.
 */
export async function measureSustainedRate(options: { readonly dataDir: string; readonly request: autocannon.Options; readonly seconds: number; readonly connections: number }): Promise<number> {
  const outbox = openOutbox(options.dataDir);
  try {
    const started = Date.now();
    const result = await autocannon({ ...options.request, duration: options.seconds, connections: options.connections });
    await untilDrained(outbox, Date.now());
    // Past the drain limit, only the share of the work that went out counts.
    const delivered = 1 - outbox.pending().pending / Math.max(1, outbox.jobs());
    return ((result.requests.total - result.non2xx) * delivered) / ((Date.now() - started) / 1000);
  } finally {
    outbox.close();
  }
}

export async function measureNotificationLag(options: {
  readonly dataDir: string;
  readonly request: autocannon.Options;
  readonly rate: number;
  readonly seconds: number;
}): Promise<LagResult> {
  const outbox = openOutbox(options.dataDir);
  let worst = 0;
  const sampler = setInterval(() => {
    worst = Math.max(worst, outbox.pending().age);
  }, SAMPLE_MS);
  const started = Date.now();
  const result = await pacedLoad(options.request, options.rate, options.seconds);
  clearInterval(sampler);
  const { drainAfterMs, oldestMs: worstAfter } = await untilDrained(outbox, Date.now());
  const jobs = outbox.jobs();
  outbox.close();
  const elapsed = (Date.now() - started) / 1000;
  return {
    rate: options.rate,
    seconds: options.seconds,
    submitted: result.sent,
    jobs,
    oldestDuringMs: worst,
    oldestAfterMs: worstAfter,
    drainAfterMs,
    jobsPerSecond: jobs / elapsed,
  };
}

export function printLag(lag: LagResult & { readonly capacity: number; readonly emails: number; readonly webhooks: number }): void {
  process.stdout.write('| notification lag | sustained with the worker on | rate | submits | jobs | received (emails + webhooks) | oldest pending during | oldest after | backlog gone after | jobs/s |\n|---|---|---|---|---|---|---|---|---|---|\n');
  const drained = lag.drainAfterMs === null ? 'not within 120 s' : `${(lag.drainAfterMs / 1000).toFixed(1)} s`;
  process.stdout.write(
    `| contact (2 emails + 1 webhook each), ${lag.seconds} s | ${lag.capacity.toFixed(0)}/s | ${lag.rate}/s | ${lag.submitted} | ${lag.jobs} | ${lag.emails} + ${lag.webhooks} | ${(lag.oldestDuringMs / 1000).toFixed(1)} s | ${(lag.oldestAfterMs / 1000).toFixed(1)} s | ${drained} | ${lag.jobsPerSecond.toFixed(0)} |\n\n`,
  );
  process.stdout.write(
    `bench notification-lag sustained=${lag.capacity.toFixed(0)} rate=${lag.rate} oldest_pending_ms=${lag.oldestDuringMs} drain_after_ms=${lag.drainAfterMs ?? -1} jobs_per_s=${lag.jobsPerSecond.toFixed(0)}\n`,
  );
}
