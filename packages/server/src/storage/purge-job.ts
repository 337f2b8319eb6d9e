/**
 * Housekeeping that keeps stored data within its promised lifetime: expired drafts
 * (`drafts.ttlDays`), idempotency keys older than 24 h, and uploads no submission claimed within
 * `files.unattachedHours` (contract §7). `svc purge` runs it once; the server
 * runs it every hour.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../http/app-context.js';

export interface PurgeReport {
  readonly drafts: number;
  readonly idempotencyKeys: number;
  readonly uploads: number;
}

export async function purgeExpired(ctx: Pick<AppContext, 'drafts' | 'idempotency' | 'submit' | 'uploads'>): Promise<PurgeReport> {
  const now = ctx.submit.now();
  return {
    drafts: await ctx.drafts.purgeExpired(now),
    idempotencyKeys: await ctx.idempotency.purgeExpired(now),
    uploads: await ctx.uploads.purgeUnattached(now),
  };
}

const HOUR = 3_600_000;

export function startPurgeJob(ctx: AppContext, log: FastifyBaseLogger): { stop(): void } {
  const run = () => {
    purgeExpired(ctx).then(
      (report) => {
        if (report.drafts + report.idempotencyKeys + report.uploads > 0) log.info(report, 'purged expired data');
      },
      (error: unknown) => log.error({ err: error }, 'purge failed; will retry next hour'),
    );
  };
  // Not at boot itself: tests and CLI commands build apps they close at once.
  const timer = setInterval(run, HOUR);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
