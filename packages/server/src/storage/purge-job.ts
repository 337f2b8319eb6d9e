/**
 * Housekeeping that keeps stored data within its promised lifetime: expired drafts
 * (`drafts.ttlDays`), idempotency keys older than 24 h, and uploads no submission claimed within
 * `files.unattachedHours` (contract §7), and submissions past their retention (retention-purge.ts).
 * `svc purge` runs it once; the server runs it every hour.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../http/app-context.js';
import { purgeRetention } from './retention-purge.js';
import { createErasureLedger } from '../privacy/privacy-ledger.js';
import { erasureLedgerPath } from '../privacy/privacy-config.js';

export interface PurgeReport {
  readonly drafts: number;
  readonly idempotencyKeys: number;
  readonly uploads: number;
  /** Submissions past their retention (issue #5), and spam past the spam retention. */
  readonly submissions: number;
  readonly spam: number;
  /** Classic-post flashes nobody came back for, and expired stored classic sessions (issue #14). */
  readonly classicFlashes: number;
  /** Hourly insights counts past `insights.retentionDays` (issue #38). */
  readonly insights: number;
}

/**
 * A feature's own expired data (the classic room's flashes and sessions), purged with the rest. A
 * port declared here and filled by the composition root, so storage/ imports no feature.
 */
export interface FeaturePurge {
  purge(now: Date): Promise<number>;
}

export type PurgeContext = Pick<AppContext, 'drafts' | 'idempotency' | 'submit' | 'uploads' | 'config' | 'forms' | 'database' | 'log' | 'reportCounts'> & { readonly classic: FeaturePurge; readonly insights?: FeaturePurge };

export async function purgeExpired(ctx: PurgeContext): Promise<PurgeReport> {
  const now = ctx.submit.now();
  // Retention first: the files of the submissions it deletes are released, and then purged below.
  // issue #37 item 5: retention erases, through the erasure ledger like every other delete.
  const ledger = createErasureLedger({ db: ctx.database.db, path: erasureLedgerPath(ctx.config), log: ctx.log, dialect: ctx.database.dialect });
  const retention = await purgeRetention({ db: ctx.database.db, forms: ctx.forms, uploads: ctx.uploads, retention: ctx.config.retention, ledger, reportCounts: ctx.reportCounts }, now);
  return {
    drafts: await ctx.drafts.purgeExpired(now),
    idempotencyKeys: await ctx.idempotency.purgeExpired(now),
    uploads: await ctx.uploads.purgeUnattached(now),
    ...retention,
    classicFlashes: await ctx.classic.purge(now),
    insights: ctx.insights ? await ctx.insights.purge(now) : 0,
  };
}

const HOUR = 3_600_000;

export function startPurgeJob(ctx: PurgeContext, log: FastifyBaseLogger): { stop(): void } {
  const run = () => {
    purgeExpired(ctx).then(
      (report) => {
        if (report.drafts + report.idempotencyKeys + report.uploads + report.submissions + report.spam + report.classicFlashes + report.insights > 0) log.info(report, 'purged expired data');
      },
      (error: unknown) => log.error({ err: error }, 'purge failed; will retry next hour'),
    );
  };
  // Not at boot itself: tests and CLI commands build apps they close at once.
  const timer = setInterval(run, HOUR);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
