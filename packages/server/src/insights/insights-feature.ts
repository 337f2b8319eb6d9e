/**
 * The insights room (issue #38): where people give up on a form and which fields trouble them,
 * counted from the steps svc already answers, as hourly aggregates with nothing that identifies a
 * person (docs/insights.md). One entry for the composition root: `createInsightsServices` (the
 * submit pipeline's step listener and the manifest views) and `registerInsights` (the admin route,
 * the console's access to the figures, and the last write on close).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import type { Form } from '@svc/core';
import type { Config } from '../config/config-schema.js';
import type { Database } from '../storage/database-schema.js';
import type { WriteBatcher } from '../storage/write-batcher.js';
import type { AppContext } from '../http/app-context.js';
import type { ManifestCache } from '../forms/manifest-builder.js';
import type { SiteRegistry } from '../sites/site-registry.js';
import type { AnsweredStep, PaidCompletion, StepListener } from '../submissions/submit-trace.js';
import { createInsightsWriter, type InsightsWriter } from './insights-writer.js';
import { createInsightsRecorder, type InsightsRecorder } from './insights-recorder.js';
import { createInsightsMetrics } from './insights-metrics.js';
import { insightsReport, type InsightsReport, type ReportQuery } from './insights-report.js';
import { purgeInsights } from './insights-purge.js';
import { insightsAdminRoutes } from './insights-admin-routes.js';

/** How long increments are added up in memory before they are written (at most this is lost in a crash). */
export const INSIGHTS_WINDOW_MS = 1000;

export interface InsightsFeature {
  readonly enabled: boolean;
  /** For SubmitServices.steps; undefined when insights are off. */
  readonly steps: StepListener | undefined;
  /**
   * The manifest cache, counting the views its transports report (`view`) while insights are on:
   * a manifest handed to a client that does not hold it yet (docs/insights.md "Views").
   */
  countViews(manifests: ManifestCache): ManifestCache;
  /** The figures of `form`, with this process's pending counts written first. */
  report(form: Form, query: ReportQuery): Promise<InsightsReport>;
  /** Deletes counts older than `insights.retentionDays`; answers how many rows went. */
  purge(now: Date): Promise<number>;
  /** Writes what is pending (the server's close path). */
  close(): Promise<void>;
}

export interface InsightsDeps {
  readonly db: Kysely<Database>;
  readonly writes: WriteBatcher;
  readonly log: FastifyBaseLogger;
  readonly sites: SiteRegistry;
  readonly now: () => Date;
  /** The app's Prometheus registry, when metrics are on. */
  readonly registry: Registry | null;
}

export function createInsightsServices(config: Pick<Config, 'insights'>, deps: InsightsDeps): InsightsFeature {
  const { enabled, retentionDays } = config.insights;
  let writer: InsightsWriter | null = null;
  let recorder: InsightsRecorder | null = null;
  if (enabled) {
    writer = createInsightsWriter({ db: deps.db, writes: deps.writes, log: deps.log, windowMs: INSIGHTS_WINDOW_MS, beforeFlush: () => recorder?.takeViews() });
    recorder = createInsightsRecorder({
      writer,
      metrics: deps.registry ? createInsightsMetrics(deps.registry) : null,
      defaultSite: deps.sites.defaultSite.handle,
      languageOf: (site) => deps.sites.list.find((s) => s.handle === site)?.language ?? deps.sites.defaultSite.language,
    });
  }
  const counting = recorder;
  return {
    enabled,
    steps: counting ? Object.assign((step: AnsweredStep) => counting.step(step), { paid: (paid: PaidCompletion) => counting.paid(paid) }) : undefined,
    countViews(manifests) {
      if (!counting) return manifests;
      return {
        ...manifests,
        view(form, site, at) {
          counting.view(form, site?.handle ?? null, at ?? deps.now());
        },
      };
    },
    async report(form, query) {
      await writer?.flush();
      return insightsReport(deps.db, form, query);
    },
    purge: (now) => purgeInsights(deps.db, now, retentionDays),
    close: async () => writer?.close(),
  };
}

const INSIGHTS = Symbol.for('svc.insights');

/** The insights of the app `scope` belongs to: the console's pages read the figures through it. */
export function insightsOf(scope: FastifyInstance): InsightsFeature | null {
  return ((scope as unknown as Record<symbol, InsightsFeature | undefined>)[INSIGHTS]) ?? null;
}

export async function registerInsights(app: FastifyInstance, ctx: AppContext, insights: InsightsFeature): Promise<void> {
  // Plain property, not a decoration: child scopes (the console's) read it through the prototype.
  (app as unknown as Record<symbol, InsightsFeature>)[INSIGHTS] = insights;
  await insightsAdminRoutes(app, ctx, (form, query) => insights.report(form, query));
  // The last window's counts are written before the database closes (close() closes it after).
  app.addHook('onClose', async () => insights.close());
}
