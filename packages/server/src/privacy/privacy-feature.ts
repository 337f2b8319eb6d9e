/**
 * The privacy room (issue #37 items 3-4): the blind index of fields marked `personal` (written
 * with each submission), finding a person's submissions, exporting them as a zip through a signed
 * link, and erasing them with an Ed25519-signed receipt (docs/privacy.md). One entry for the
 * composition root: `createPrivacyServices` (the index the submit path writes through) and
 * `registerPrivacy` (the admin routes, the receipt key, and the console's access to the feature).
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config-schema.js';
import type { AppContext } from '../http/app-context.js';
import type { PersonalIndexer } from '../submissions/submission-persist.js';
import { createBlindIndex } from './privacy-blind-index.js';
import { createReceiptSigner } from './privacy-receipts.js';
import { createExportLinks } from './privacy-export-links.js';
import { privacyRoutes, type PrivacyRouteServices } from './privacy-routes.js';

export interface PrivacyFeature extends PrivacyRouteServices {
  /** For SubmitServices.personalIndex: the index rows a submission commits with. */
  readonly indexer: PersonalIndexer;
}

export function createPrivacyServices(config: Pick<Config, 'secret' | 'admin'>, now: () => Date): PrivacyFeature {
  const secret = config.secret as string;
  const index = createBlindIndex(secret);
  return {
    index,
    indexer: {
      prepare(form, values) {
        const entries = index.entries(form, values);
        return entries.length === 0 ? null : (trx, submissionId) => index.write(trx, submissionId, form.id, entries);
      },
    },
    signer: createReceiptSigner(secret),
    links: createExportLinks(secret, config.admin.downloadUrlMinutes, now),
  };
}

const PRIVACY = Symbol.for('svc.privacy');

/** The privacy feature of the app `scope` belongs to: the console's page reaches it through this. */
export function privacyOf(scope: FastifyInstance): PrivacyFeature | null {
  return ((scope as unknown as Record<symbol, PrivacyFeature | undefined>)[PRIVACY]) ?? null;
}

export async function registerPrivacy(app: FastifyInstance, ctx: AppContext, privacy: PrivacyFeature): Promise<void> {
  // Plain property, not a decoration: child scopes (the console's) read it through the prototype.
  (app as unknown as Record<symbol, PrivacyFeature>)[PRIVACY] = privacy;
  await privacyRoutes(app, ctx, privacy);
}
