/**
 * Composition root: config -> adapters -> services -> fastify instance. Nothing else constructs
 * adapters, so tests build the same app with other config and get the real thing.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config/config-schema.js';
import { createDatabase, type DatabaseHandle } from './storage/database-factory.js';
import { migrateToLatest } from './storage/migration-runner.js';
import { createFormRegistry } from './forms/form-registry.js';
import { createManifestCache } from './forms/manifest-builder.js';
import { createWriteBatcher } from './storage/write-batcher.js';
import { registerJsonBodyParser } from './http/json-body-parser.js';
import { answerClientError, limitConnectionsPerClient, serverTimeouts } from './http/connection-guards.js';
import { collectRouteMethods } from './http/route-methods.js';
import { manifestRoutes } from './forms/manifest-routes.js';
import { createCsrfTokens } from './security/csrf-tokens.js';
import { csrfRoutes } from './security/csrf-routes.js';
import { createSpamFieldNames } from './security/spam-fields.js';
import { createStateTokens } from './submissions/state-token.js';
import { submitRoutes } from './submissions/submit-routes.js';
import { registerErrorBoundary, sendError, toSvcError } from './http/error-boundary.js';
import { createCorsPolicies, createHeadlessGuard, preflightHandler } from './http/cors-hooks.js';
import type { AppContext } from './http/app-context.js';
import { graphqlRoutes, rewriteGraphqlAlias } from './graphql/graphql-routes.js';
import { watchForms } from './forms/form-watcher.js';
import { createDraftService } from './drafts/draft-service.js';
import { createServiceAddress } from './http/service-address.js';
import { createIdempotencyStore } from './submissions/idempotency-store.js';
import { startPurgeJob } from './storage/purge-job.js';
import { createSpamLists } from './security/spam-lists.js';
import { createCaptchaVerifier } from './security/captcha-verifier.js';
import { createFillTimestamps } from './security/fill-timestamps.js';
import { createMemoryStore, createRedisStore } from './security/rate-limit-store.js';
import { createRateLimitHook } from './http/rate-limit-hooks.js';
import { createIpHasher } from './security/token-crypto.js';
import multipart from '@fastify/multipart';
import { join } from 'node:path';
import { createFileStore } from './files/file-store-factory.js';
import { createUploadService } from './files/upload-service.js';
import { uploadRoutes } from './files/upload-routes.js';
import { multipartOptions } from './http/multipart-support.js';
import { adminRoutes } from './admin/admin-routes.js';
import { createMailer } from './notifications/mail-transport.js';
import { createEmailTemplates } from './notifications/email-templates.js';
import { createDeliveryHandler, webhookListProvider } from './notifications/delivery-handlers.js';
import { createDeliveryWorker } from './notifications/delivery-worker.js';
import { createDeliveryService } from './notifications/delivery-service.js';
import { missingTemplates } from './notifications/template-check.js';
import { createDownloadLinks } from './admin/download-links.js';
import { createPaymentServices, registerPayments } from './payments/payments-feature.js';
import type { PaymentContext } from './payments/payment-context.js';
import { createProfileServices, registerProfiles, type ProfileFeature } from './profiles/profiles-feature.js';
import { createClassicServices, registerClassic, type ClassicFeature } from './classic/classic-feature.js';
import { registerHealth } from './health/health-routes.js';
import { registerConsole } from './console/console-feature.js';
import { registerHosted } from './hosted/hosted-feature.js';
import { installDrain } from './http/graceful-drain.js';
import { createPrettyStream, wantsPrettyLogs } from './http/log-format.js';
import { createMetrics } from './metrics/metrics-registry.js';
import { installRequestTiming, registerMetrics } from './metrics/metrics-routes.js';
import { registerOpenapi } from './openapi/openapi-feature.js';
import { createSiteServices, localizeError } from './sites/sites-feature.js';
import { createFormLocalizer } from './forms/form-translations.js';
import { createInsightsServices, registerInsights, type InsightsFeature } from './insights/insights-feature.js';
import { createPrivacyServices, registerPrivacy } from './privacy/privacy-feature.js';
import { keyringFromConfig } from './privacy/privacy-config.js';
import { createValueSealer, openSubmissionValues } from './privacy/privacy-sealer.js';
import type { Values } from '@svc/core';
import { createReportCounts, forgetSubmissions } from './submissions/report-counts.js';
import { recountChangedForms } from './submissions/report-count-rebuild.js';
import { applyErasureLedger } from './privacy/privacy-ledger-apply.js';
import { erasureLedgerPath } from './privacy/privacy-config.js';

export interface BuildAppOptions {
  /** Pino options or false; tests pass false. */
  readonly logger?: boolean | Record<string, unknown>;
  readonly now?: () => Date;
  /** Reuse an open database (tests sharing one PostgreSQL database). */
  readonly database?: DatabaseHandle;
}

/**
 * The ground floor's AppContext and each feature's own services, held together only here, in the
 * composition root (issue #31 item 15); CLI commands, an embedding and tests read them.
 */
export interface SvcContext extends AppContext {
  readonly payments: PaymentContext;
  readonly profiles: ProfileFeature;
  readonly classic: ClassicFeature;
  readonly insights: InsightsFeature;
}

export interface SvcApp {
  readonly app: FastifyInstance;
  readonly context: SvcContext;
  /**
   * Stops accepting connections and waits (at most `maxMs`) for clients to close theirs, each told
   * `Connection: close` by its next answer; then call close(). For a process shutting down.
   */
  drain(maxMs: number): Promise<void>;
  close(): Promise<void>;
}

const CORS_PATHS = [
  '/svc/api/forms/:handle/manifest',
  '/svc/api/forms/:handle/submit',
  '/svc/api/forms/:handle/files/:field',
  '/svc/api/forms/:handle/files/:field/delete',
  '/svc/tokens',
] as const;

export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<SvcApp> {
  const now = options.now ?? (() => new Date());
  const secret = config.secret as string;
  const database = options.database ?? createDatabase({
    url: config.database.url,
    dataDir: config.dataDir,
    poolSize: config.database.poolSize,
    preparedStatements: config.database.preparedStatements,
  });
  const ownsDatabase = !options.database;
  // Whatever boot opened is closed again if boot fails part-way.
  const cleanups: (() => Promise<void>)[] = [];
  try {
    await migrateToLatest(database);
    const forms = await createFormRegistry({ db: database.db, dir: config.forms.dir, now });
    const app = Fastify({
      logger: options.logger ?? {
        level: config.log.level,
        // Headers that carry credentials never reach a log line, whatever a serializer adds later.
        redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'req.headers["x-svc-upload-token"]'],
        ...(wantsPrettyLogs(config.log.format) ? { stream: createPrettyStream() } : {}),
      },
      bodyLimit: config.server.bodyLimitKB * 1024,
      ...serverTimeouts(config.server),
      clientErrorHandler: answerClientError,
      trustProxy: config.server.trustProxy,
      genReqId: () => randomUUID(),
      requestIdHeader: false,
      onProtoPoisoning: 'error',
      onConstructorPoisoning: 'error',
      return503OnClosing: true,
      rewriteUrl: (request) => rewriteGraphqlAlias(request.url),
      // Malformed URLs and over-long parameters are client errors like any other: catalogue body.
      frameworkErrors: (error, request, reply) => {
        reply.header('X-Request-Id', request.id);
        return sendError(reply, toSvcError(error, request));
      },
    });
    const drain = installDrain(app);
    // issue #16: measured only when someone scrapes; otherwise nothing is counted at all.
    const metrics = config.metrics.enabled ? createMetrics(database.db, now) : null;
    if (metrics) installRequestTiming(app, metrics);
    // text/plain is the one body type a browser sends cross-origin without a preflight; svc never
    // accepts it, so it must be refused as a type, not parsed.
    app.removeContentTypeParser('text/plain');
    registerJsonBodyParser(app);
    limitConnectionsPerClient(app.server, config.server.maxConnectionsPerClient);
    const routeMethods = collectRouteMethods(app);
    const csrf = config.csrf.enabled ? createCsrfTokens(secret, config.csrf.ttlMinutes) : null;
    const spamFields = createSpamFieldNames(secret);
    const captcha = createCaptchaVerifier(config.captcha);
    const cors = createCorsPolicies(config);
    // issue #31: links svc hands out and URLs it fetches from itself follow the port it listens on.
    const address = createServiceAddress(config.server);
    app.addHook('onListen', async () => {
      const listening = app.server.address();
      if (typeof listening === 'object' && listening) address.listening(listening.port);
    });
    // issue #37 item 1: one sealer (keyring of the configured KEKs) for every sealed column.
    const sealer = createValueSealer(keyringFromConfig(config));
    // issue #35 item 6: reports come from counts kept at write time; a delete, spam change or
    // recount opens the rows' values through the one sealer (issue #37).
    const reportCounts = createReportCounts(forms, (row) => openSubmissionValues<Values>(sealer, row), database.dialect);
    // The backfill and the repair after a form's reported fields change: only forms that need it.
    const recountReports = () => recountChangedForms(database.db, database.dialect, reportCounts, forms.list(), now, app.log);
    await recountReports();
    forms.onChange(() => void recountReports().catch((error: unknown) => app.log.error({ err: error }, 'report counts could not be recounted')));
    const drafts = createDraftService(database.db, secret, sealer, config.drafts.ttlDays, now, address.resolve);
    const limiterStore = config.redis.url ? createRedisStore(config.redis.url, config.redis.keyPrefix) : createMemoryStore(() => now().getTime());
    cleanups.push(() => limiterStore.close(), () => app.close());
    // Booting without Redis is allowed (limited routes answer 503 until it is back); say so.
    if (!(await limiterStore.ready())) app.log.warn('Redis is not reachable; rate-limited routes answer 503 until it is');
    const fileStore = createFileStore(config.files);
    cleanups.push(() => fileStore.close());
    // issue #37 item 2: erasures a restored older database has not seen are applied again first.
    const erasures = await applyErasureLedger({ db: database.db, store: fileStore, path: erasureLedgerPath(config), now, dialect: database.dialect, forget: (trx, ids) => forgetSubmissions(trx, reportCounts, ids) });
    if (erasures.reapplied > 0) app.log.warn({ erasures }, `re-applied ${erasures.reapplied} erasures from the erasure ledger`);
    // One group-commit queue for the hot writes (submissions, uploads) of this process.
    const writes = createWriteBatcher(database.db, database.dialect);
    const uploads = createUploadService({
      ...(metrics ? { onStored: metrics.uploaded } : {}),
      db: database.db,
      dialect: database.dialect,
      writes,
      store: fileStore,
      tmpDir: join(config.dataDir, 'tmp'),
      ceilingKB: config.files.maxFileSizeKB,
      unattachedHours: config.files.unattachedHours,
      sealer,
      now,
    });
    const outbound = { ...config.outbound, timeoutMs: config.deliveries.timeoutMs };
    const mailer = createMailer({
      smtpUrl: config.notifications.smtpUrl,
      dataDir: config.dataDir,
      timeoutMs: config.deliveries.timeoutMs,
      connections: config.deliveries.concurrency,
      log: app.log,
    });
    cleanups.push(async () => mailer.close());
    // Links in emails go to the admin download route, signed for days rather than minutes; without
    // a public URL there is no absolute link to give, so templates get none.
    const emailLinks = createDownloadLinks(secret, config.notifications.fileLinkDays * 1440, now);
    const publicUrl = config.server.publicUrl?.replace(/\/$/, '') ?? null;
    const emailFileUrl = (fileId: string) => (publicUrl ? `${publicUrl}${emailLinks.create(fileId)}` : null);
    const sites = createSiteServices(config);
    // One localizer for every feature: the manifest cache and the submit path key on its Form objects.
    const localize = createFormLocalizer((form) => forms.translationsOf(form));
    const worker = createDeliveryWorker({
      ...(metrics ? { observe: metrics.delivery } : {}),
      db: database.db,
      dialect: database.dialect,
      handle: createDeliveryHandler({
        forms,
        // issue #34: emails in the language of the submission's site.
        localize,
        defaultLanguage: sites.defaultSite.language,
        mailer,
        templates: createEmailTemplates(config.notifications.templatesDir),
        from: config.notifications.from,
        webhookSecret: config.notifications.webhookSecret,
        mailingLists: webhookListProvider(config.mailingLists.url, config.notifications.webhookSecret, outbound, now),
        outbound,
        fileUrl: emailFileUrl,
        now,
      }),
      // A claimed batch is up to 8 rounds of `concurrency` deliveries; the lease outlives all of them.
      options: { ...config.deliveries, leaseMs: config.deliveries.timeoutMs * 10 + 30_000 },
      sealer,
      now,
      log: app.log,
    });
    cleanups.push(() => worker.stop());
    const warnTemplates = () => {
      for (const { form, template } of missingTemplates(forms.list(), config.notifications.templatesDir)) {
        app.log.warn({ form, template, dir: config.notifications.templatesDir }, 'email template not found; its emails will be dead-lettered');
      }
    };
    warnTemplates();
    forms.onChange(warnTemplates);
    const deliveries = createDeliveryService({ db: database.db, forms, worker, planner: { mailingListsEnabled: config.mailingLists.url !== null }, sites, localize, sealer, now });
    const limit = (group: 'submit' | 'tokens' | 'graphql' | 'upload') =>
      config.rateLimit.enabled ? createRateLimitHook(limiterStore, group, config.rateLimit[group], metrics?.rateLimited) : null;
    const idempotency = createIdempotencyStore(database.db, sealer);
    // issue #38: every answered step and served manifest counted, as hourly aggregates only.
    const insights = createInsightsServices(config, { db: database.db, writes, log: app.log, sites, now, registry: metrics?.registry ?? null });
    // issue #37: the blind index of `personal` fields, written with each submission.
    const privacy = createPrivacyServices(config, now);
    const submit = {
      ...(metrics ? { observe: metrics.submission } : {}),
      ...(insights.steps ? { steps: insights.steps } : {}),
      db: database.db,
      writes,
      csrf,
      stateTokens: createStateTokens(secret),
      spamFields,
      drafts,
      idempotency,
      spamLists: createSpamLists(config.spam),
      captcha,
      fillTimestamps: createFillTimestamps(secret),
      ipHash: createIpHasher(secret),
      uploads,
      deliveries,
      draftTtlDays: config.drafts.ttlDays,
      personalIndex: privacy.indexer,
      sealer,
      now,
    };
    const profiles = await createProfileServices(config, { db: database.db, forms, secret, now, log: app.log, address, localize });
    const payments = await createPaymentServices(config, { db: database.db, dialect: database.dialect, forms, submit, secret, now, log: app.log });
    cleanups.push(() => payments.close());
    const context: SvcContext = {
      config,
      database,
      forms,
      manifests: insights.countViews(createManifestCache(
        { csrfEnabled: csrf !== null, spamFields, captcha, fileCeilingKB: config.files.maxFileSizeKB, publicUrl: config.server.publicUrl, defaultSite: sites.defaultSite, payments: payments.manifest },
        now,
      )),
      sites,
      localize,
      submit,
      payments: payments.context,
      profiles,
      classic: createClassicServices(config, { db: database.db, secret, now }),
      insights,
      drafts,
      idempotency,
      uploads,
      deliveries,
      sealer,
      reportCounts,
      csrf,
      cors,
      guard: createHeadlessGuard(cors, config.headless.enabled),
      limits: { submit: limit('submit'), tokens: limit('tokens'), graphql: limit('graphql'), upload: limit('upload') },
      log: app.log,
    };

    registerErrorBoundary(app, () => !config.headless.enabled, routeMethods, (request, error) => localizeError(sites, request, error));
    await registerOpenapi(app, config);
    for (const path of CORS_PATHS) {
      const scope = path === '/svc/tokens' ? 'all' : 'form';
      app.options(path, { config: { cors: scope }, onRequest: context.guard }, preflightHandler(cors));
    }
    await manifestRoutes(app, context);
    // Multipart parsing only where files are taken (contract §7); elsewhere it stays a 415.
    await app.register(async (scope) => {
      await scope.register(multipart, multipartOptions(context));
      await submitRoutes(scope, context);
      await registerProfiles(scope, context, profiles);
      await uploadRoutes(scope, context);
      await registerClassic(scope, context, context.classic, context.payments);
    });
    await csrfRoutes(app, context);
    await registerPayments(app, context, payments, config);
    if (config.graphql.enabled) await graphqlRoutes(app, context);
    await adminRoutes(app, context);
    await registerInsights(app, context, insights);
    await registerPrivacy(app, context, privacy);
    // The sign-in lockout counts in the limiter's store: shared through Redis when configured.
    await registerConsole(app, context, { secret, counters: limiterStore });
    await registerHosted(app, context, { profiles });
    if (config.demo) await (await import('./demo/demo-routes.js')).demoRoutes(app, config.dataDir, config.classic.propertiesPath, context);
    const closeMetrics = metrics ? await registerMetrics(app, config.metrics, config.server.host, metrics) : async () => undefined;
    cleanups.push(closeMetrics);
    const watcher = config.forms.watch ? watchForms(config.forms.dir, forms, app.log) : null;
    const purger = startPurgeJob(context, app.log);
    app.addHook('onClose', async () => {
      watcher?.close();
      purger.stop();
      await limiterStore.close();
      await worker.stop();
      mailer.close();
      await fileStore.close();
      await closeMetrics();
    });
    await registerHealth(app, { database, forms, store: fileStore, redis: config.redis.url ? limiterStore : null, now });
    await app.ready();
    if (config.deliveries.enabled) worker.start();
    return {
      app,
      context,
      drain,
      async close() {
        await app.close();
        if (ownsDatabase) await database.close();
      },
    };
  } catch (error) {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    if (ownsDatabase) await database.close();
    throw error;
  }
}
