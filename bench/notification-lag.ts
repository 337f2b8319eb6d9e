/**
 * Notification lag (issue #17): submits at a fixed rate with the delivery worker on, sampling the
 * age of the oldest pending outbox job from the target's own SQLite file (read-only) while they
 * arrive and until the backlog is gone.
 */
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import SqliteDatabase from 'better-sqlite3';
import type autocannon from 'autocannon';
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

export async function measureNotificationLag(options: {
  readonly dataDir: string;
  readonly request: autocannon.Options;
  readonly rate: number;
  readonly seconds: number;
}): Promise<LagResult> {
  const db = new SqliteDatabase(join(options.dataDir, 'svc.db'), { readonly: true, fileMustExist: true });
  const oldest = db.prepare(`SELECT MIN(created_at) AS at, COUNT(*) AS n FROM svc_deliveries WHERE status = 'pending'`);
  const total = db.prepare(`SELECT COUNT(*) AS n FROM svc_deliveries`);
  const ageMs = () => {
    const row = oldest.get() as { at: string | null; n: number };
    return { age: row.at ? Date.now() - Date.parse(row.at) : 0, pending: Number(row.n) };
  };
  let worst = 0;
  const sampler = setInterval(() => {
    worst = Math.max(worst, ageMs().age);
  }, SAMPLE_MS);
  const started = Date.now();
  const result = await pacedLoad(options.request, options.rate, options.seconds);
  clearInterval(sampler);
  const loadEnded = Date.now();
  let drainAfterMs: number | null = null;
  let worstAfter = 0;
  while (Date.now() - loadEnded < DRAIN_LIMIT_MS) {
    const { age, pending } = ageMs();
    worstAfter = Math.max(worstAfter, age);
    if (pending === 0) {
      drainAfterMs = Date.now() - loadEnded;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  const jobs = Number((total.get() as { n: number }).n);
  db.close();
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

export function printLag(lag: LagResult & { readonly emails: number; readonly webhooks: number }): void {
  process.stdout.write('| notification lag | rate | submits | jobs | received (emails + webhooks) | oldest pending during | oldest after | backlog gone after | jobs/s |\n|---|---|---|---|---|---|---|---|---|\n');
  const drained = lag.drainAfterMs === null ? 'not within 120 s' : `${(lag.drainAfterMs / 1000).toFixed(1)} s`;
  process.stdout.write(
    `| contact (2 emails + 1 webhook each), ${lag.seconds} s | ${lag.rate}/s | ${lag.submitted} | ${lag.jobs} | ${lag.emails} + ${lag.webhooks} | ${(lag.oldestDuringMs / 1000).toFixed(1)} s | ${(lag.oldestAfterMs / 1000).toFixed(1)} s | ${drained} | ${lag.jobsPerSecond.toFixed(0)} |\n\n`,
  );
  process.stdout.write(
    `bench notification-lag rate=${lag.rate} oldest_pending_ms=${lag.oldestDuringMs} drain_after_ms=${lag.drainAfterMs ?? -1} jobs_per_s=${lag.jobsPerSecond.toFixed(0)}\n`,
  );
}
