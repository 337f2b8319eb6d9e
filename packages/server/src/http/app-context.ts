/**
 * What route plugins receive from the composition root: services and adapters, never globals.
 * No feature room's own services (payments, profiles, classic): the ground floor does not import a
 * feature (DESIGN "Feature rooms"); each feature hands its services to its routes itself.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config-schema.js';
import type { DatabaseHandle } from '../storage/database-factory.js';
import type { FormRegistry } from '../forms/form-registry.js';
import type { ManifestCache } from '../forms/manifest-builder.js';
import type { SubmitServices } from '../submissions/submit-pipeline.js';
import type { CsrfTokens } from '../security/csrf-tokens.js';
import type { CorsPolicies, HeadlessGuard } from './cors-hooks.js';
import type { RateLimitHook } from './rate-limit-hooks.js';
import type { DraftService } from '../drafts/draft-service.js';
import type { IdempotencyStore } from '../submissions/idempotency-store.js';
import type { UploadService } from '../files/upload-service.js';
import type { DeliveryService } from '../notifications/delivery-service.js';
import type { SiteRegistry } from '../sites/site-registry.js';
import type { FormLocalizer } from '../forms/form-translations.js';
import type { ValueSealer } from '../privacy/privacy-sealer.js';
import type { ReportCounts } from '../submissions/report-counts.js';

export interface AppContext {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly forms: FormRegistry;
  readonly manifests: ManifestCache;
  /** The configured sites; a request names one with `?site=` or `context.site` (issue #34). */
  readonly sites: SiteRegistry;
  /** A form as a site in `language` reads it: its file's best-matching translation applied. */
  readonly localize: FormLocalizer;
  readonly submit: SubmitServices;
  readonly csrf: CsrfTokens | null;
  readonly drafts: DraftService;
  readonly idempotency: IdempotencyStore;
  readonly uploads: UploadService;
  readonly deliveries: DeliveryService;
  /** Seals and opens person's values at rest (issue #37 item 1): one instance per process. */
  readonly sealer: ValueSealer;
  /** What deletes need to keep the report's counts (issue #35 item 6): forms by id, a values reader. */
  readonly reportCounts: ReportCounts;
  readonly cors: CorsPolicies;
  /** onRequest hook for every headless route: request id, headless switch, CORS. */
  readonly guard: HeadlessGuard;
  /** Rate-limit hooks per route group; null when rateLimit.enabled is false. */
  readonly limits: Readonly<Record<'submit' | 'tokens' | 'graphql' | 'upload', RateLimitHook | null>>;
  readonly log: FastifyBaseLogger;
}
